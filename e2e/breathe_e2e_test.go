//go:build unix

package e2e

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// p478 is 4-7-8 as lull breathe names it.
var p478 = engine.NamedBreaths[2]

// rms is the loudness of each window of w, mono, as a fraction of full
// scale.
//
//go:norace
func rms(w wavFile, window time.Duration) []float64 {
	n := int(window.Seconds()*float64(w.rate)) * w.channels
	var out []float64
	for i := 0; i+n <= len(w.samples); i += n {
		var sum float64
		for _, s := range w.samples[i : i+n] {
			sum += float64(s) * float64(s)
		}
		out = append(out, math.Sqrt(sum/float64(n))/32768)
	}
	return out
}

// Issue 12: lull breathe 4-7-8 --minutes 2 renders a WAV of two minutes,
// give or take a breath, whose loudness follows 4-7-8 half a second at a
// time — the tone through the inhale, quieter through the 7-second hold,
// the tone through the 8-second exhale — and ends with the chime.
func TestBreatheRendersTheRhythm(t *testing.T) {
	t.Parallel()
	if p478.Name != "4-7-8" {
		t.Fatalf("NamedBreaths[2] is %s", p478.Name)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "breathe.wav")
	out, errOut, err := lull(t, filepath.Join(dir, "home"), "1", "breathe", "4-7-8", "--minutes", "2", "--voice", "none", "--out", path)
	if err != nil {
		t.Fatalf("lull breathe --out: %v\n%s%s", err, out, errOut)
	}
	w := readWAV(t, path)
	b := p478.Pattern
	period := b.Period()
	if d := w.duration(); d < 2*time.Minute-period || d > 2*time.Minute+period {
		t.Fatalf("the WAV lasts %v, want 2:00 ± one breath (%v)", d, period)
	}

	const win = 500 * time.Millisecond
	env := rms(w, win)
	tone := 0.0
	for _, e := range env {
		tone = max(tone, e)
	}
	// Where the breaths begin: the offset at which the stages, read off
	// the pattern, best explain the loudness. Each window whose whole
	// half second lies inside the middle of a stage is classed.
	classify := func(anchor time.Duration) (in, hold []float64) {
		for i, e := range env {
			at := time.Duration(i) * win
			if at < anchor || at+win > w.duration()-10*time.Second {
				continue // before the first breath, or in the closing chime's ring
			}
			br := b.At(at - anchor)
			inStage := time.Duration(br.Progress * float64(b.Length(br.Stage)))
			if inStage < 500*time.Millisecond || b.Length(br.Stage)-inStage < win+500*time.Millisecond {
				continue // near a stage's edge, where the tone fades
			}
			switch br.Stage {
			case engine.StageInhale, engine.StageExhale:
				in = append(in, e)
			case engine.StageHold:
				hold = append(hold, e)
			}
		}
		return in, hold
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(max(len(xs), 1))
	}
	best, bestScore := time.Duration(-1), 0.0
	for a := time.Duration(0); a < period; a += win {
		in, hold := classify(a)
		if score := mean(in) - mean(hold); score > bestScore {
			best, bestScore = a, score
		}
	}
	if best < 0 {
		t.Fatalf("no offset makes the loudness follow 4-7-8: %v", env)
	}
	in, hold := classify(best)
	if len(in) < 40 || len(hold) < 20 {
		t.Fatalf("only %d breathing and %d holding windows at offset %v", len(in), len(hold), best)
	}
	// Every window of an inhale or exhale carries the tone; every window
	// of a hold is quieter, yet not silent: the tone rests there.
	for _, e := range in {
		if e < 0.8*mean(in) {
			t.Errorf("a breathing window at %.4f, the breaths' mean %.4f: the tone does not follow 4-7-8", e, mean(in))
			break
		}
	}
	for _, e := range hold {
		if e > 0.7*mean(in) || e < 0.2*mean(in) {
			t.Errorf("a holding window at %.4f, the breaths' mean %.4f: the hold is not heard as a hold", e, mean(in))
			break
		}
	}
	t.Logf("breaths begin at %v; breathing %.4f, holding %.4f of full scale over %d and %d half seconds",
		best, mean(in), mean(hold), len(in), len(hold))
	// The chime: the last ring is louder than any tone, and comes after the breaths.
	lastBreath := 0
	for i, e := range env {
		if e > 0.5*mean(in) && time.Duration(i)*win < w.duration()-10*time.Second {
			lastBreath = i
		}
	}
	chime := 0.0
	for _, e := range env[lastBreath:] {
		chime = max(chime, e)
	}
	if chime < 1.5*mean(in) {
		t.Errorf("no chime after the last breath: its loudest half second is %.4f, the tone %.4f", chime, mean(in))
	}
	if tail := env[len(env)-1]; tail > 0.1*chime {
		t.Errorf("the file ends at %.4f, not rung out", tail)
	}
}

// breatheScale is the time scale of the practices whose length is
// asserted within a breath (19 s of 4-7-8). Whatever holds the engine
// up in real time, the silent output waits a quarter of a second for it
// and then lets time run on at the scale: at 50×, lull held up for a
// second on a machine busy with two other processes beside make test ran
// a 2-minute practice 42 s long. At 10× that second is 8 s of the
// practice's time, and the practice holds to its breath through two.
const breatheScale = "10"

// Issue 12: lull breathe 4-7-8 --minutes 2 --no-tui runs headless, prints
// a line per breath, and is saved as a completed two-minute practice of
// 4-7-8 that the sessions list names as one.
func TestBreatheRunsHeadless(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, breatheScale, "breathe", "4-7-8", "--minutes", "2", "--no-tui", "--voice", "none")
	if err != nil {
		t.Fatalf("lull breathe --no-tui: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{"paced breathing 4-7-8 · 2 min", "Breath 1 of ", "Breathing complete"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Breathe in") {
		t.Errorf("--voice none, yet cues were given:\n%s", out)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	period := p478.Pattern.Period()
	if st.Status != engine.Completed || st.Practice != engine.PracticeBreathe || st.Pattern != "4-7-8" || st.Length != 2*time.Minute {
		t.Errorf("saved as %s, practice %q, pattern %q, %v; want a completed 2-minute breathe practice of 4-7-8", st.Status, st.Practice, st.Pattern, st.Length)
	}
	if st.Elapsed < 2*time.Minute-period || st.Elapsed > 2*time.Minute+period {
		t.Errorf("it lasted %v, want 2:00 ± one breath", st.Elapsed)
	}
	breaths := strings.Count(out, "Breath ")
	if want := int(math.Round(float64(st.Elapsed) / float64(period))); breaths < want-1 || breaths > want {
		t.Errorf("%d breath lines for %v of 4-7-8", breaths, st.Elapsed)
	}

	list, errOut, err := lull(t, home, "1", "sessions", "list")
	if err != nil {
		t.Fatalf("lull sessions list: %v\n%s", err, errOut)
	}
	row := ""
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, id) {
			row = l
		}
	}
	if !strings.Contains(row, "breathe 4-7-8") || !strings.Contains(row, "100%") || !strings.Contains(row, "2 min") || strings.Contains(row, "atmosphere") {
		t.Errorf("the list does not name the practice:\n%s", list)
	}
	show, _, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil || !strings.Contains(show, "paced breathing, 4-7-8") {
		t.Errorf("lull sessions show: %v\n%s", err, show)
	}
}

// With a voice, the first breaths are taught in words; then only the tone
// leads. A cue made after its part began waits for that part of a later
// breath (on the clock, engine's TestPracticeCueTooLateForItsPartWaitsFor
// TheNextBreath), so a slow voice, as a busy machine's espeak-ng is for a
// part of 400 ms, moves cues to later breaths but never adds one, never
// drops one and never breaks a breath's order. The real binary and voice
// are held to that as espeak-ng comes and a second slow, longer than a
// part: the test asserts nothing that depends on the voice's speed (ten
// breaths leave room for a voice three seconds slow to teach its cues).
func TestBreatheCuesTheFirstBreaths(t *testing.T) {
	t.Parallel()
	needVoice(t)
	voice, _ := exec.LookPath("espeak-ng")
	slow := t.TempDir()
	script := "#!/bin/sh\nsleep 1\nexec " + voice + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(slow, "espeak-ng"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
	}{
		{"espeak-ng", os.Getenv("PATH")},
		{"espeak-ng a second slow", slow + string(os.PathListSeparator) + os.Getenv("PATH")},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			cmd := exec.Command(lullBin, "breathe", "box", "--minutes", "3", "--no-tui", "--voice", "espeak-ng")
			cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=10", "PATH="+c.path)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("lull breathe: %v\n%s", err, out)
			}
			if strings.Contains(string(out), "resumed") {
				t.Errorf("a new practice is called resumed:\n%s", out)
			}
			id, _ := onlySession(t, home)
			st := load(t, home, id)
			if st.Status != engine.Completed {
				t.Fatalf("the practice ended %s", st.Status)
			}
			// Box breathing: in, hold, out, hold; a breath of 16 s, long
			// enough that two breaths' worth of cues teach it.
			order := []string{"Breathe in…", "Hold…", "And breathe out…", "Hold…"}
			said := st.Said()
			if len(said) != 2*len(order) {
				t.Errorf("%d cues said, want two breaths' worth (%d): %q", len(said), 2*len(order), said)
			}
			// Within each breath the cues shown follow the breath's order,
			// some perhaps left for a later breath.
			var heard []string
			breath, next := 0, 0
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				l := sc.Text()
				switch {
				case strings.HasPrefix(l, "Breath "):
					breath, next = breath+1, 0
				case strings.HasSuffix(l, "…"):
					heard = append(heard, l)
					for next < len(order) && order[next] != l {
						next++
					}
					if breath == 0 || next == len(order) {
						t.Errorf("%q out of its part of breath %d:\n%s", l, breath, out)
						break
					}
					next++
				}
			}
			if strings.Join(heard, "|") != strings.Join(said, "|") {
				t.Errorf("the screen showed the cues %q, the history holds %q", heard, said)
			}
			t.Logf("%d breaths, cues %q", breath, heard)
		})
	}
}

// A bad pattern or length is refused with what would do; --help lists
// the named patterns.
func TestBreatheRefusesWhatItCannotBreathe(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"breathe", "square"}, []string{`"square"`, "box", "4-7-8", "coherent", "4-2-6", "IN-HOLD-OUT"}},
		{[]string{"breathe", "4-12-8"}, []string{"hold", "0 to 7 seconds"}},
		{[]string{"breathe", "box", "--minutes", "61"}, []string{"--minutes 61", "1 to 60"}},
		{[]string{"breathe", "box", "--minutes", "soon"}, []string{"--minutes", "give minutes"}},
	} {
		out, errOut, err := lull(t, home, "1", c.args...)
		if err == nil {
			t.Errorf("lull %v succeeded:\n%s", c.args, out)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("lull %v says %q, not %q", c.args, strings.TrimSpace(errOut), w)
			}
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) > 0 {
		t.Errorf("a refused practice left %d session folders", len(entries))
	}
	help, _, err := lull(t, home, "1", "breathe", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range engine.NamedBreaths {
		if !strings.Contains(help, n.Name) {
			t.Errorf("--help does not list %s", n.Name)
		}
	}
}

// A practice killed mid-breath is left running; lull resume carries it
// on from where the file stood, and it completes on time.
func TestKilledPracticeResumes(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cmd := exec.Command(lullBin, "breathe", "coherent", "--minutes", "3", "--no-tui", "--voice", "none")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=10")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed once the third breath has begun: something has been saved.
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "Breath 3 of") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill()
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the practice ended before the kill:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Breath 3 of") {
		t.Fatalf("no third breath within a minute:\n%s", out.String())
	}
	id, _ := onlySession(t, home)
	killed := load(t, home, id)
	if killed.Status != engine.Running || killed.Phase != engine.Breathing || killed.Elapsed < 2*engine.NamedBreaths[0].Pattern.Period() {
		t.Fatalf("after the kill: %s in %s, %v", killed.Status, killed.Phase, killed.Elapsed)
	}
	list, _, _ := lull(t, home, "1", "sessions", "list")
	if !strings.Contains(list, "left running") || !strings.Contains(list, "breathe coherent") {
		t.Errorf("the list does not offer the killed practice:\n%s", list)
	}
	resumed, errOut, err := lull(t, home, breatheScale, "resume", id, "--no-tui")
	if err != nil {
		t.Fatalf("lull resume: %v\n%s%s", err, resumed, errOut)
	}
	st := load(t, home, id)
	period := engine.NamedBreaths[0].Pattern.Period()
	if st.Status != engine.Completed || st.Elapsed < 3*time.Minute-period || st.Elapsed > 3*time.Minute+period {
		t.Errorf("resumed: %s after %v, want completed at 3:00 ± a breath\n%s", st.Status, st.Elapsed, resumed)
	}
	if !strings.Contains(resumed, "resumed at") || !strings.Contains(resumed, "Breathing complete") {
		t.Errorf("the resumed run does not say so:\n%s", resumed)
	}
}

// In a real terminal lull breathe opens the breathing mode — the breath,
// the pattern, the time left, the practice's keys; no phases — where
// space pauses and q saves it paused; lull resume completes it.
func TestTmuxBreatheMode(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=5"}
	s := newScreen(t, env, "breathe", "box", "--minutes", "1", "--voice", "none")
	screen := s.waitFor("● breathing", 30*time.Second)
	for _, want := range []string{"paced breathing · box", "remaining", "space pause/resume", "+ louder"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the breathing mode does not show %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Atmosphere") || strings.Contains(screen, "Resolution") {
		t.Errorf("the breathing mode shows the phases:\n%s", screen)
	}
	s.send("Space")
	s.waitFor("❚❚ paused", 30*time.Second)
	id, _ := onlySession(t, home)
	waitStatus(t, home, id, engine.Paused, 30*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	paused := load(t, home, id)
	if paused.Status != engine.Paused || paused.Practice != engine.PracticeBreathe || paused.Elapsed >= time.Minute {
		t.Fatalf("after q the practice is %s (%q) at %v, want paused partway", paused.Status, paused.Practice, paused.Elapsed)
	}

	again := newScreen(t, env, "resume", id)
	again.waitFor("● breathing", 30*time.Second)
	again.waitFor("The practice is complete.", 120*time.Second)
	again.send("q")
	again.waitFor("__EXIT=0", 30*time.Second)
	done := load(t, home, id)
	if period := engine.NamedBreaths[1].Pattern.Period(); done.Status != engine.Completed || done.Elapsed < time.Minute-period || done.Elapsed > time.Minute+period {
		t.Errorf("resumed: %s after %v, want completed at 1:00 ± a breath", done.Status, done.Elapsed)
	}
}

// A practice never calls a model, even where the LLM guide is the
// default: its only words are its cues.
func TestBreatheCallsNoModel(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "breathe", "coherent", "--minutes", "1", "--no-tui", "--voice", "none")
	if err != nil {
		t.Fatalf("lull breathe: %v\n%s%s", err, out, errOut)
	}
	if reqs := srv.Requests(); len(reqs) > 0 {
		t.Errorf("a practice made %d requests to the model server, the first %s %s", len(reqs), reqs[0].Method, reqs[0].Path)
	}
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Completed || st.Guide != "builtin" || st.Model != "" {
		t.Errorf("the practice is %s on guide %q (model %q), want completed on the built-in guide", st.Status, st.Guide, st.Model)
	}
}
