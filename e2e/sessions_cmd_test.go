//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// spokenSession leaves a session on disk as a run would: paused in
// breathing after four sentences of atmosphere and two of breathing.
// tune changes the state before each save.
func spokenSession(t *testing.T, home, id string, tune ...func(*engine.State)) {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// An hour and a half ago: far from where "59 minutes ago" turns into
	// "1 hour ago", so commands run a minute apart on a busy machine print
	// the same words (TestCLIFitsTheTerminal compared two that straddled it).
	now := time.Now().Add(-90 * time.Minute)
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Intention: "rest", Seed: 3, Voice: "none", Soundscape: "none"}, now)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := store.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	st.Status, st.SealedAt = engine.Paused, now
	for i, p := range []engine.Phase{engine.Atmosphere, engine.Atmosphere, engine.Atmosphere, engine.Atmosphere, engine.Breathing, engine.Breathing} {
		e := engine.Entry{At: now.Add(time.Duration(i+1) * 5 * time.Second), Phase: p, Role: engine.RoleGuide, Text: fmt.Sprintf("Line %d.", i+1)}
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
		st.History = append(st.History, e)
		st.Phases[p].Spoken++
		st.Phases[p].Status = engine.PhaseActive
		if p == engine.Breathing {
			st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
		}
		st.Phase, st.Position = p, engine.Position{Phase: p, Sentence: st.Phases[p].Spoken}
		st.Elapsed += 8 * time.Second
		st.UpdatedAt = e.At
		for _, f := range tune {
			f(&st)
		}
		if err := sess.Save(st); err != nil {
			t.Fatal(err)
		}
	}
}

// The CLI side of the recovery levels: a torn primary is read from its
// backup, both lost are rebuilt from the transcript, and with nothing
// left lull says what is there and what can be done; sessions list goes
// on listing the healthy session beside each.
func TestSessionsRecoveryLevels(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const id, healthy = "20261123-101500-aaaa", "20261123-101500-bbbb"
	spokenSession(t, home, id)
	spokenSession(t, home, healthy)
	dir := filepath.Join(home, "sessions", id)
	cut := func(name string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b[:len(b)/2], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	show := func(wantErr bool) (string, string) {
		t.Helper()
		out, errOut, err := lull(t, home, "1", "sessions", "show", id)
		if (err != nil) != wantErr {
			t.Fatalf("sessions show: %v\n%s%s", err, out, errOut)
		}
		return out, errOut
	}
	list := func() (string, string) {
		t.Helper()
		out, errOut, err := lull(t, home, "1", "sessions", "list")
		if err != nil || !strings.Contains(out, healthy) {
			t.Fatalf("sessions list: %v\n%s%s", err, out, errOut)
		}
		return out, errOut
	}

	cut("session.yaml")
	out, errOut := show(false)
	if !strings.Contains(errOut, "lull: note: session.yaml could not be read (the file is incomplete or damaged") ||
		!strings.Contains(errOut, "loaded the backup instead — the last update may be lost.") || !strings.Contains(out, "breathing, sentence 2") {
		t.Errorf("from the backup:\n%s%s", out, errOut)
	}
	if out, errOut := list(); !strings.Contains(out, id) || !strings.Contains(errOut, "session "+id+" was read from its backup") {
		t.Errorf("list:\n%s%s", out, errOut)
	}

	cut("session.yaml.bak")
	out, errOut = show(false)
	if !strings.Contains(errOut, "lull: note: session.yaml and its backup could not be read (") ||
		!strings.Contains(errOut, "rebuilt from transcript.md: 6 sentences through breathing. Budgets and timing are estimated.") ||
		!strings.Contains(out, "paused") || !strings.Contains(out, "breathing, sentence 3") {
		t.Errorf("rebuilt:\n%s%s", out, errOut)
	}
	if out, errOut := list(); !strings.Contains(out, id) || !strings.Contains(errOut, "session "+id+" was rebuilt from its transcript") {
		t.Errorf("list:\n%s%s", out, errOut)
	}
	t.Logf("rebuilt:\n%s%s", out, errOut)

	tr, err := os.ReadFile(filepath.Join(dir, "transcript.md"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(tr), "seed=")
	tr[i+5] = '4' // the opening's check fails
	if err := os.WriteFile(filepath.Join(dir, "transcript.md"), tr, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut = show(true)
	for _, want := range []string{
		"Session " + id + " cannot be read, and lull could not rebuild it.\nIn " + dir + ":\n",
		"session.yaml.bak", "the file is incomplete or damaged",
		"transcript.md", "6 good records, 1 damaged, its opening is damaged or missing",
		"The transcript shows 4 sentences of atmosphere, 2 of breathing.",
		"read what was spoken: " + filepath.Join(dir, "transcript.md"),
		"remove the session: lull sessions delete " + id,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("show also said:\n%s", errOut)
	}
	t.Logf("nothing readable:\n%s", out)
	if out, errOut := list(); strings.Contains(out, id) || !strings.Contains(errOut, "lull: session "+id+" cannot be read") ||
		!strings.Contains(errOut, "see: lull sessions show "+id) {
		t.Errorf("list:\n%s%s", out, errOut)
	}

	if out, errOut, err := lull(t, home, "1", "sessions", "delete", "--yes", id); err != nil || !strings.Contains(out, "Deleted "+id) {
		t.Fatalf("delete: %v\n%s%s", err, out, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the folder is still there: %v", err)
	}
}

// A session file someone else could write is refused with what to do.
func TestSessionsShowRefusesWhatOthersCanWrite(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const id = "20261123-101500-cccc"
	spokenSession(t, home, id)
	for _, f := range []string{"session.yaml", "session.yaml.bak"} {
		if err := os.Chmod(filepath.Join(home, "sessions", id, f), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, err := lull(t, home, "1", "sessions", "show", id)
	// The transcript is sound, so the session is rebuilt from it, and the
	// note says why the files were not read.
	path := filepath.Join(home, "sessions", id, "session.yaml")
	if err != nil || !strings.Contains(errOut, "session.yaml: it is writable by its group and everyone (mode 0666): lull will not trust it; fix with: chmod 600 "+path) {
		t.Errorf("show: %v\n%s%s", err, out, errOut)
	}
}

// sessions show says what a remote guide's calls took in each phase, and
// the input its provider's cache served.
func TestSessionsShowCostPerPhase(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const id = "20261123-101500-dddd"
	spokenSession(t, home, id, func(st *engine.State) {
		st.Phases[engine.Atmosphere].Tokens = engine.Tokens{In: 12480, Cached: 9216, Out: 1910}
		st.Phases[engine.Atmosphere].Cost = 0.0047
		st.Phases[engine.Breathing].Tokens = engine.Tokens{In: 3100, Out: 420}
		st.Phases[engine.Breathing].Cost = 0.0019
		st.Cost = 0.0066
	})
	out, errOut, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{
		"LLM        15,580 tokens in (9,216 cached), 2,330 out · about $0.007",
		"12,480 tokens in (9,216 cached), 1,910 out · about $0.005",
		"3,100 tokens in, 420 out · about $0.002",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "sensory") && strings.Contains(line, "tokens") {
			t.Errorf("a phase without calls shows tokens: %q", line)
		}
	}
}
