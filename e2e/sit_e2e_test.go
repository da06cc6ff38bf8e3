//go:build unix

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Issue 26: lull sit 3 --bell 1 --no-tui rings a bell at the start, at
// each minute and twice at the end, is saved completed as a sit of three
// minutes, and counts in lull stats.
func TestSitHeadless(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "200", "sit", "3", "--bell", "1", "--no-tui", "--soundscape", "brown")
	if err != nil {
		t.Fatalf("lull sit: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{"lull · sitting · 3 min · a bell every 1 minute", "Bell · 0:00", "Bell 1 · 1:00", "Bell 2 · 2:00", "Bell, bell · 2:49 · the end", "Sit complete · 3:00"} {
		if !strings.Contains(out, want) {
			t.Errorf("lull sit does not print %q:\n%s", want, out)
		}
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed || st.Practice != engine.PracticeSit || st.Pattern != "1m" || st.Length != 3*time.Minute || st.Elapsed != 3*time.Minute || st.Soundscape != "brown" || st.Spoken() != 0 {
		t.Errorf("saved: %s %q bell %q, %v of %v, soundscape %q, %d spoken", st.Status, st.Practice, st.Pattern, st.Elapsed, st.Length, st.Soundscape, st.Spoken())
	}
	stats, errOut, err := lull(t, home, "1", "stats")
	if err != nil || !strings.Contains(stats, "1 session · 3 min") {
		t.Errorf("lull stats does not count the sit: %v\n%s%s", err, stats, errOut)
	}
	list, _, _ := lull(t, home, "1", "sessions", "list")
	if !strings.Contains(list, " sit ") {
		t.Errorf("the list does not name the sit:\n%s", list)
	}
	// Refusals name what is wrong, with exit status 1.
	for _, args := range [][]string{{"sit", "300"}, {"sit", "5", "--bell", "5"}, {"sit", "--bell", "30s"}, {"sit", "soon"}} {
		out, errOut, err := lull(t, home, "1", args...)
		if err == nil || !strings.Contains(errOut, "lull: ") {
			t.Errorf("lull %v: %v\n%s%s", args, err, out, errOut)
		}
	}
}

// In a real terminal an open-ended sit shows the time sat and the next
// bell, no time left; space pauses, q saves it paused; resumed, e ends it
// with its last bell, completed.
func TestTmuxSitOpenEnded(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}
	s := newScreen(t, env, "sit", "--bell", "5", "--soundscape", "none")
	screen := s.waitFor("● sitting", 30*time.Second)
	for _, want := range []string{"sitting · open-ended", "a bell every 5 minutes", "elapsed", "space pause/resume", "e end the sit", "q quit (saves)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the sit does not show %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "remaining") || strings.Contains(screen, "Atmosphere") {
		t.Errorf("an open-ended sit shows a time left or the phases:\n%s", screen)
	}
	s.send("Space")
	s.waitFor("❚❚ paused", 30*time.Second)
	id, _ := onlySession(t, home)
	waitStatus(t, home, id, engine.Paused, 30*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	paused := load(t, home, id)
	if paused.Status != engine.Paused || paused.Practice != engine.PracticeSit || paused.Length != 0 || paused.Elapsed <= 0 {
		t.Fatalf("after q the sit is %s (%q) at %v of %v, want paused", paused.Status, paused.Practice, paused.Elapsed, paused.Length)
	}

	again := newScreen(t, env, "resume", id)
	again.waitFor("● sitting", 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	again.send("e")
	again.waitFor("The sit is complete.", 60*time.Second)
	again.send("q")
	again.waitFor("__EXIT=0", 30*time.Second)
	done := load(t, home, id)
	if done.Status != engine.Completed || done.Elapsed <= paused.Elapsed || done.Summary == nil || done.Validate() != nil {
		t.Errorf("ended: %s after %v (paused at %v), summary %+v: %v", done.Status, done.Elapsed, paused.Elapsed, done.Summary, done.Validate())
	}
}
