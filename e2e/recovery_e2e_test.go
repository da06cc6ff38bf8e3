//go:build unix

package e2e

// End-to-end tests of what lull offers for sessions it finds unfinished:
// those a killed lull left running (resume, summarize, discard — in the TUI
// on start and in lull sessions show), and old ones (inactive, stale,
// lull sessions prune).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

var sessionLine = regexp.MustCompile(`lull · session (\S+) ·`)

// killMidSession starts one headless lull per intention, lets each speak
// into its second phase, and kills them all with SIGKILL: each session is
// left saved as running. It returns the session id of each intention.
func killMidSession(t *testing.T, home string, intentions ...string) map[string]string {
	t.Helper()
	type proc struct {
		cmd *exec.Cmd
		out *lockedBuffer
	}
	var procs []proc
	for i, intention := range intentions {
		cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "5", "--voice", "none",
			"--seed", fmt.Sprint(i+1), "--intention", intention)
		cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=40")
		out := &lockedBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		procs = append(procs, proc{cmd, out})
	}
	ids := map[string]string{}
	for i, p := range procs {
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(p.out.String(), "Phase 2 of 5") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = p.cmd.Wait()
		m := sessionLine.FindStringSubmatch(p.out.String())
		if m == nil || !strings.Contains(p.out.String(), "Phase 2 of 5") {
			t.Fatalf("lull for %q never reached its second phase:\n%s", intentions[i], p.out.String())
		}
		ids[intentions[i]] = m[1]
		if st := load(t, home, m[1]); st.Status != engine.Running || st.Spoken() == 0 {
			t.Fatalf("killed, the session was saved %s with %d sentences; want running, some spoken", st.Status, st.Spoken())
		}
	}
	return ids
}

// Acceptance 4: sessions left running by killed lulls are offered on the
// next start, one by one: s summarizes one (completed, partial, its words
// kept), d discards another (abandoned), r resumes the third where it
// stopped.
func TestTmuxLeftRunningIsOfferedOnStart(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	intentions := []string{"first light", "second wind", "third rest"}
	ids := killMidSession(t, home, intentions...)
	// Each as lull will find it: a kill between a line's transcript record
	// and the save after it leaves the line only in the transcript, and
	// what was heard counts (Store.Resume reconciles; Load does not).
	before := map[string]engine.State{}
	for _, id := range ids {
		before[id] = resumable(t, home, id)
	}

	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"})
	chose := map[string]string{} // session id → key pressed
	for _, key := range []string{"s", "d", "r"} {
		screen := s.waitFor("A session was left running when lull stopped", 10*time.Second)
		var id string
		for _, in := range intentions {
			if strings.Contains(screen, in) {
				id = ids[in]
			}
		}
		if id == "" || chose[id] != "" {
			t.Fatalf("the offer names no session it had not named before:\n%s", screen)
		}
		if !strings.Contains(screen, "of 5:00, last active") || !strings.Contains(screen, "esc  decide later") {
			t.Errorf("the offer does not say where the session stood or the keys:\n%s", screen)
		}
		chose[id] = key
		s.send(key)
		switch key {
		case "s":
			s.waitFor("Marked completed (partial).", 10*time.Second)
		case "d":
			s.waitFor("Discarded: marked abandoned.", 10*time.Second)
		case "r":
			s.waitFor("speaking", 10*time.Second)
		}
	}
	// Back to the list: the resumed one is paused, the others ended (the
	// summarized one partial, where it stood).
	s.send("Escape")
	list := s.waitFor("paused · ", 10*time.Second)
	for _, want := range []string{"abandoned", "partial"} {
		if !strings.Contains(list, want) {
			t.Errorf("the list does not show a %s session:\n%s", want, list)
		}
	}
	if strings.Contains(list, "left running") {
		t.Errorf("a session is still left running:\n%s", list)
	}
	s.send("q")
	s.waitFor("__EXIT=0", 10*time.Second)

	for id, key := range chose {
		st, was := load(t, home, id), before[id]
		switch key {
		case "s":
			if st.Status != engine.Completed || st.Summary == nil || !st.Summary.Partial || st.Summary.Sentences != was.Spoken() ||
				!slices.Equal(st.Said(), was.Said()) {
				t.Errorf("summarized: %s, summary %+v; %d sentences, %d before", st.Status, st.Summary, len(st.Said()), len(was.Said()))
			}
		case "d":
			if st.Status != engine.Abandoned || !slices.Equal(st.Said(), was.Said()) {
				t.Errorf("discarded: %s, %d sentences, %d before", st.Status, len(st.Said()), len(was.Said()))
			}
		case "r":
			note := false
			for _, h := range st.History {
				note = note || h.Role == engine.RoleSystem && strings.Contains(h.Text, "stopped unexpectedly")
			}
			if st.Status != engine.Paused || !note || len(st.Said()) < len(was.Said()) ||
				!slices.Equal(st.Said()[:len(was.Said())], was.Said()) {
				t.Errorf("resumed: %s, note of the stop %v, %d sentences, %d before", st.Status, note, len(st.Said()), len(was.Said()))
			}
		}
	}
}

// lull sessions show offers the same choices as commands; summarize and
// discard ask first, refuse a session another lull has open, and do what
// they say.
func TestSessionsShowOffersSummarizeAndDiscard(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ids := killMidSession(t, home, "to summarize", "to discard")
	sum, dis := ids["to summarize"], ids["to discard"]

	out, errOut, err := lull(t, home, "1", "sessions", "list")
	if err != nil || strings.Count(out, "left running") != 2 {
		t.Errorf("sessions list: %v\n%s%s", err, out, errOut)
	}
	out, _, err = lull(t, home, "1", "sessions", "show", sum)
	if err != nil {
		t.Fatal(err)
	}
	// "Phase 2 of 5" is printed a moment before the transition's save, so
	// the kill may find the session still saved in atmosphere.
	if !regexp.MustCompile(`left running when lull stopped \((atmosphere|breathing|sensory|relaxation|resolution), \d+:\d\d of 5:00, last active`).MatchString(out) {
		t.Errorf("show does not say where the session stood:\n%s", out)
	}
	for _, want := range []string{"lull resume " + sum, "lull sessions summarize " + sum, "lull sessions discard " + sum} {
		if !strings.Contains(out, want) {
			t.Errorf("show does not say %q:\n%s", want, out)
		}
	}

	// Without a terminal to ask on, nothing happens without --yes.
	if out, errOut, err := lull(t, home, "1", "sessions", "summarize", sum); err == nil || !strings.Contains(errOut, "add --yes") {
		t.Errorf("summarize without --yes: %v\n%s%s", err, out, errOut)
	}
	if st := load(t, home, sum); st.Status != engine.Running {
		t.Fatalf("unconfirmed, the session became %s", st.Status)
	}

	// Open in another lull (this test holds it): refused, naming the pid.
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	held, err := store.Resume(dis)
	if err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprintf("pid %d", os.Getpid())
	for _, verb := range []string{"summarize", "discard"} {
		if out, errOut, err := lull(t, home, "1", "sessions", verb, dis, "--yes"); err == nil || !strings.Contains(errOut, pid) {
			t.Errorf("%s of an open session: %v\n%s%s", verb, err, out, errOut)
		}
	}
	if out, _, _ := lull(t, home, "1", "sessions", "show", dis); !strings.Contains(out, "open in another lull ("+pid+")") ||
		strings.Contains(out, "lull sessions summarize") {
		t.Errorf("show of an open session:\n%s", out)
	}
	held.Close()

	out, errOut, err = lull(t, home, "1", "sessions", "summarize", sum, "--yes")
	if err != nil || !strings.Contains(out, "marked completed (partial)") {
		t.Fatalf("summarize: %v\n%s%s", err, out, errOut)
	}
	if st := load(t, home, sum); st.Status != engine.Completed || st.Summary == nil || !st.Summary.Partial {
		t.Errorf("summarized: %s, %+v", st.Status, st.Summary)
	}
	out, _, _ = lull(t, home, "1", "sessions", "show", sum)
	if !strings.Contains(out, "completed (partial") || !strings.Contains(out, "partial (summarized before its end)") ||
		strings.Contains(out, "lull sessions discard") {
		t.Errorf("show after summarize:\n%s", out)
	}
	if _, errOut, err := lull(t, home, "1", "sessions", "discard", sum, "--yes"); err == nil || !strings.Contains(errOut, "completed already") {
		t.Errorf("discarding a completed session: %v %s", err, errOut)
	}

	out, errOut, err = lull(t, home, "1", "sessions", "discard", dis, "--yes")
	if err != nil || !strings.Contains(out, "marked abandoned") {
		t.Fatalf("discard: %v\n%s%s", err, out, errOut)
	}
	if st := load(t, home, dis); st.Status != engine.Abandoned {
		t.Errorf("discarded: %s", st.Status)
	}
}

// storeAs saves a session through the sessions package as a lull would have
// left it, last active at when: created (not begun), completed (at when),
// or in its breathing phase with six sentences spoken.
func storeAs(t *testing.T, store *sessions.Store, id, intention string, status engine.Status, when time.Time) {
	t.Helper()
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Intention: intention, Seed: 3}, when.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := store.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	say := func(p engine.Phase, n int) {
		for i := range n {
			e := engine.Entry{At: when.Add(-time.Minute), Phase: p, Role: engine.RoleGuide, Text: fmt.Sprintf("%s line %d.", p.Title(), i+1)}
			st.History = append(st.History, e)
			if err := sess.Transcribe(e); err != nil {
				t.Fatal(err)
			}
		}
		st.Phases[p].Spoken = n
	}
	switch status {
	case engine.Created:
	case engine.Completed:
		for _, p := range engine.Phases {
			st.Phases[p].Status = engine.PhaseCompleted
			say(p, 3)
		}
		st.Phase, st.Position = engine.Resolution, engine.Position{Phase: engine.Resolution, Sentence: 3}
		st.Elapsed = 10 * time.Minute
		st.Summary = &engine.Summary{Duration: st.Elapsed, Sentences: 15, CompletedAt: when}
	default:
		st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
		say(engine.Atmosphere, 4)
		st.Phases[engine.Breathing].Status = engine.PhaseActive
		say(engine.Breathing, 2)
		st.Phase, st.Position = engine.Breathing, engine.Position{Phase: engine.Breathing, Sentence: 2}
		st.Elapsed = 95 * time.Second
	}
	st.Status, st.UpdatedAt = status, when
	if err := sess.Save(st); err != nil {
		t.Fatal(err)
	}
}

// Old sessions: the list says which are inactive and stale; prune lists
// what is older than its age and deletes only with --yes.
func TestSessionsListIdleAndPrune(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now, day := time.Now(), 24*time.Hour
	storeAs(t, store, "paused-yesterday", "unwind", engine.Paused, now.Add(-30*time.Hour))
	storeAs(t, store, "paused-10d", "stale one", engine.Paused, now.Add(-10*day))
	storeAs(t, store, "paused-40d", "old pause", engine.Paused, now.Add(-40*day))
	storeAs(t, store, "created-60d", "", engine.Created, now.Add(-60*day))
	storeAs(t, store, "completed-5d", "sleep", engine.Completed, now.Add(-5*day))
	storeAs(t, store, "completed-45d", "sleep", engine.Completed, now.Add(-45*day))
	storeAs(t, store, "abandoned-31d", "", engine.Abandoned, now.Add(-31*day))

	out, errOut, err := lull(t, home, "1", "sessions", "list")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	for id, want := range map[string]string{"paused-yesterday": "paused (inactive)", "paused-10d": "paused (stale)",
		"created-60d": "created (stale)", "completed-45d": "completed "} {
		if !regexp.MustCompile(id + `\s+` + regexp.QuoteMeta(want)).MatchString(out) {
			t.Errorf("list does not show %s as %q:\n%s", id, want, out)
		}
	}

	old := []string{"created-60d", "completed-45d", "paused-40d", "abandoned-31d"} // oldest first
	kept := []string{"paused-yesterday", "paused-10d", "completed-5d"}
	folders := func() []string {
		entries, _ := os.ReadDir(filepath.Join(home, "sessions"))
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	all := folders()

	out, errOut, err = lull(t, home, "1", "sessions", "prune", "--older-than", "30d")
	if err != nil {
		t.Fatalf("prune: %v\n%s", err, errOut)
	}
	at := -1
	for _, id := range old {
		i := strings.Index(out, id)
		if i < at {
			t.Errorf("the dry run does not list %s, oldest first:\n%s", id, out)
		}
		at = i
	}
	for _, id := range kept {
		if strings.Contains(out, id) {
			t.Errorf("the dry run lists %s:\n%s", id, out)
		}
	}
	for _, want := range []string{"completed 6 weeks ago", "abandoned 4 weeks ago", "last active 5 weeks ago", "Dry run: nothing was deleted", "--yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("the dry run does not say %q:\n%s", want, out)
		}
	}
	if got := folders(); !slices.Equal(got, all) {
		t.Fatalf("the dry run deleted something: %v → %v", all, got)
	}

	out, errOut, err = lull(t, home, "1", "sessions", "prune", "--older-than", "30d", "--yes")
	if err != nil {
		t.Fatalf("prune --yes: %v\n%s%s", err, out, errOut)
	}
	want := slices.Clone(kept)
	slices.Sort(want)
	if got := folders(); !slices.Equal(got, want) {
		t.Errorf("after prune --yes: %v, want %v", got, want)
	}
	if strings.Count(out, "Deleted ") != len(old) {
		t.Errorf("prune --yes said:\n%s", out)
	}

	if out, _, _ := lull(t, home, "1", "sessions", "prune", "--older-than", "2w"); !strings.Contains(out, "No session is older than 2w") {
		t.Errorf("prune 2w after pruning:\n%s", out)
	}
	if _, errOut, err := lull(t, home, "1", "sessions", "prune", "--older-than", "soon"); err == nil || !strings.Contains(errOut, "not an age") {
		t.Errorf("--older-than soon: %v %s", err, errOut)
	}
}

// On a terminal, summarize and discard ask first; only y goes ahead.
func TestTmuxDiscardAsksFirst(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	storeAs(t, store, "paused-9d", "unwind", engine.Paused, time.Now().Add(-9*24*time.Hour))
	env := []string{"LULL_HOME=" + home}

	no := newScreen(t, env, "sessions", "discard", "paused-9d")
	no.waitFor("[y/N]", 10*time.Second)
	no.send("n", "Enter")
	no.waitFor("__EXIT=0", 5*time.Second)
	if screen := no.capture(); !strings.Contains(screen, "Discard session paused-9d (paused, breathing, 1:35 of 10:00)?") ||
		!strings.Contains(screen, "Left as it is.") {
		t.Errorf("the question or the answer:\n%s", screen)
	}
	if st := load(t, home, "paused-9d"); st.Status != engine.Paused {
		t.Fatalf("after n the session is %s", st.Status)
	}

	yes := newScreen(t, env, "sessions", "discard", "paused-9d")
	yes.waitFor("[y/N]", 10*time.Second)
	yes.send("y", "Enter")
	yes.waitFor("marked abandoned", 5*time.Second)
	yes.waitFor("__EXIT=0", 5*time.Second)
	if st := load(t, home, "paused-9d"); st.Status != engine.Abandoned {
		t.Errorf("after y the session is %s", st.Status)
	}
}

// resumable is session id as resuming it begins: its files reconciled.
func resumable(t *testing.T, home, id string) engine.State {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sess, err := store.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	return sess.State()
}
