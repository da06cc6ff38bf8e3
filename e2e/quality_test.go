//go:build unix

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
	"github.com/lull-dev/lull/internal/prompts"
)

// The quality of the words, measured the way the issue measured it: whole
// sessions rendered by the real binary, one a day into one LULL_HOME, read
// back from the session files and the captions. Every figure is printed
// (go test -v -run TestQuality) and each target asserted.

// day is one rendered session as the listener heard it.
type day struct {
	st       engine.State
	captions []caption
}

// caption is one spoken line of a render, timed.
type caption struct {
	phase      string
	start, end time.Duration
	text       string
}

// renderDay renders one session into home and returns it; a FIFO drained
// here takes the WAV, so nothing large touches the disk.
func renderDay(t *testing.T, home string, captions bool, args ...string) day {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "session.wav")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	drained := make(chan error, 1)
	go func() {
		f, err := os.Open(fifo)
		if err == nil {
			_, err = io.Copy(io.Discard, f)
			f.Close()
		}
		drained <- err
	}()
	vtt := filepath.Join(dir, "session.vtt")
	args = append([]string{"render", "--out", fifo}, args...)
	if captions {
		args = append(args, "--captions", vtt)
	}
	out, err := runLull(home, "", args...)
	if err != nil {
		// Unblock the drain should lull have failed before opening the FIFO.
		if w, e := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); e == nil {
			w.Close()
		}
		t.Fatalf("lull %v: %v\n%s", args, err, out)
	}
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	d := day{st: load(t, home, savedAs(t, out))}
	if captions {
		d.captions = readCaptions(t, vtt)
	}
	return d
}

// liveDayAt plays one session without a voice on the silent output, the
// way a listener's session is played and saved, timed scale times faster.
// At 10000× a millisecond the machine spends elsewhere is ten seconds of
// session: a busy machine cut a 20-minute session to 16 sentences of its
// 45, and a freshness rate over such stumps measured the load. At 1000× it
// takes ten times that, and a 20-minute session still plays in about
// three seconds. (Its breathing phase may say a line more or less than a
// render of the same seed: a live output's clock is read as it runs.)
func liveDayAt(t *testing.T, home, scale string, args ...string) day {
	t.Helper()
	args = append([]string{"new", "--no-tui", "--voice", "none", "--soundscape", "none"}, args...)
	out, err := runLull(home, scale, args...)
	if err != nil {
		t.Fatalf("lull %v: %v\n%s", args, err, out)
	}
	return day{st: load(t, home, savedAs(t, out))}
}

func runLull(home, scale string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home)
	if scale != "" {
		cmd.Env = append(cmd.Env, "LULL_TIME_SCALE="+scale)
	}
	return cmd.CombinedOutput()
}

func savedAs(t *testing.T, out []byte) string {
	t.Helper()
	id := regexp.MustCompile(`Saved as (\S+?)\.`).FindSubmatch(out)
	if id == nil {
		t.Fatalf("no session id in %q", out)
	}
	return string(id[1])
}

var cueTime = regexp.MustCompile(`^(\d+):(\d+):(\d+)\.(\d+) --> (\d+):(\d+):(\d+)\.(\d+)$`)

func readCaptions(t testing.TB, path string) []caption {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []caption
	sc := bufio.NewScanner(f)
	var id string
	for sc.Scan() {
		line := sc.Text()
		if m := cueTime.FindStringSubmatch(line); m != nil {
			at := func(h, mi, s, ms string) time.Duration {
				var x [4]int
				for i, v := range []string{h, mi, s, ms} {
					x[i], _ = strconv.Atoi(v) // not Sscan: "08" would read as octal
				}
				return time.Duration(x[0])*time.Hour + time.Duration(x[1])*time.Minute +
					time.Duration(x[2])*time.Second + time.Duration(x[3])*time.Millisecond
			}
			sc.Scan()
			out = append(out, caption{phase: strings.SplitN(id, "-", 2)[0], start: at(m[1], m[2], m[3], m[4]),
				end: at(m[5], m[6], m[7], m[8]), text: sc.Text()})
			continue
		}
		id = line
	}
	return out
}

// spoken is what the guide said in a session, phase by phase.
func (d day) spoken(p engine.Phase) []string {
	var out []string
	for _, h := range d.st.History {
		if h.Role == engine.RoleGuide && h.Phase == p {
			out = append(out, h.Text)
		}
	}
	return out
}

func (d day) all() []string {
	var out []string
	for _, p := range engine.Phases {
		out = append(out, d.spoken(p)...)
	}
	return out
}

// freshness is the measure of a run of days: the share of each
// day's sentences heard on any earlier day (averaged over days 2 on), the
// largest share heard the day before, and the days whose first sentence
// was among the previous six days' first sentences.
type freshness struct {
	anyEarlier, dayBefore float64
	firstRepeats          int
}

func measureFreshness(days []day) freshness {
	var f freshness
	heard := map[string]bool{}
	var sum float64
	for i, d := range days {
		s := d.all()
		if i > 0 {
			before := map[string]bool{}
			for _, x := range days[i-1].all() {
				before[x] = true
			}
			var again, yesterday int
			for _, x := range s {
				if heard[x] {
					again++
				}
				if before[x] {
					yesterday++
				}
			}
			sum += float64(again) / float64(len(s))
			f.dayBefore = max(f.dayBefore, float64(yesterday)/float64(len(s)))
			for j := max(0, i-6); j < i; j++ {
				if days[j].all()[0] == s[0] {
					f.firstRepeats++
					break
				}
			}
		}
		for _, x := range s {
			heard[x] = true
		}
	}
	f.anyEarlier = sum / float64(len(days)-1)
	return f
}

// material is the built-in guide's material, for telling which step a
// line said.
func material(t *testing.T) *prompts.Guide {
	t.Helper()
	g, err := prompts.BuiltinGuide()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// stepLines are every variant of the named step of phase p, in the
// skeleton and the sleep script.
func stepLines(g *prompts.Guide, p engine.Phase, name string) []string {
	var out []string
	for _, s := range []prompts.Script{g.Skeleton, g.Sleep} {
		if ps := s[p]; ps != nil {
			for _, list := range [][]prompts.Step{ps.Steps, ps.Lead} {
				for _, st := range list {
					if st.Name == name {
						out = append(out, st.Say...)
					}
				}
			}
		}
	}
	return out
}

// sendOffs are every farewell line of the material.
func sendOffs(g *prompts.Guide) []string {
	var out []string
	for _, s := range []prompts.Script{g.Skeleton, g.Sleep} {
		if ps := s[engine.Resolution]; ps != nil {
			for _, st := range ps.Lead {
				if st.SendOff {
					out = append(out, st.Say...)
				}
			}
		}
	}
	return out
}

// sendOffWords are how a farewell sounds, for lines the material does not
// mark: no other line of resolution may sound like one.
var sendOffWords = regexp.MustCompile(`(?i)\b(goodbye|farewell|thank you|sleep well|until next time|take (this|it) with you|carry (this|it|some))\b`)

// wakingWords may never reach a sleep session.
var wakingWords = regexp.MustCompile(`(?i)open your eyes|\balert|energ|ready for|rest of your day`)

func checkSession(t *testing.T, g *prompts.Guide, d day) {
	t.Helper()
	at := d.spoken(engine.Atmosphere)
	for _, step := range []string{"posture", "eyes"} {
		if !slices.ContainsFunc(at, func(s string) bool { return slices.Contains(stepLines(g, engine.Atmosphere, step), s) }) {
			t.Errorf("seed %d: atmosphere has no %s invitation: %q", d.st.Seed, step, at)
		}
	}
	res := d.spoken(engine.Resolution)
	offs := sendOffs(g)
	n := 0
	for i, s := range res {
		if slices.Contains(offs, s) || sendOffWords.MatchString(s) {
			n++
			if i != len(res)-1 {
				t.Errorf("seed %d: a send-off before the close: %q", d.st.Seed, s)
			}
		}
	}
	if n > 1 {
		t.Errorf("seed %d: %d send-off lines in resolution", d.st.Seed, n)
	}
	if d.st.Sleep {
		for _, s := range d.all() {
			if wakingWords.MatchString(s) {
				t.Errorf("seed %d: a sleep session says %q", d.st.Seed, s)
			}
		}
	}
}

// TestQualityFreshEveryDay plays a 20-minute session a day for two weeks,
// seeds 1–14, into one home, with no intention and with "sleep".
func TestQualityFreshEveryDay(t *testing.T) {
	t.Parallel()
	g := material(t)
	for _, intention := range []string{"", "sleep"} {
		t.Run(fmt.Sprintf("intention=%q", intention), func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			var days []day
			for seed := 1; seed <= 14; seed++ {
				args := []string{"--length", "20", "--seed", fmt.Sprint(seed)}
				if intention != "" {
					args = append(args, "--intention", intention, "--sleep-after", "0")
				}
				d := liveDayAt(t, home, "1000", args...)
				checkSession(t, g, d)
				days = append(days, d)
			}
			if intention == "sleep" && !days[0].st.Sleep {
				t.Errorf("the intention %q did not make a sleep session", intention)
			}
			f := measureFreshness(days)
			var lens []int
			for _, d := range days {
				lens = append(lens, len(d.all()))
			}
			t.Logf("%q: heard on an earlier day %.1f %% (≤ 25), the day before ≤ %.1f %% (≤ 5), first sentence among the previous six days' on %d of 13 days (0); sentences a day %v",
				intention, 100*f.anyEarlier, 100*f.dayBefore, f.firstRepeats, lens)
			if f.anyEarlier > 0.25 {
				t.Errorf("%.1f %% of a day's sentences were heard on an earlier day, want ≤ 25 %%", 100*f.anyEarlier)
			}
			if f.dayBefore > 0.05 {
				t.Errorf("up to %.1f %% of a day's sentences were heard the day before, want ≤ 5 %%", 100*f.dayBefore)
			}
			if f.firstRepeats > 0 {
				t.Errorf("the first sentence repeated one of the previous six days' on %d days", f.firstRepeats)
			}
		})
	}
}

// TestQualityIntentionsShapeTheSession: four intentions, one seed, four
// journeys and four resolutions; a long intention is never said whole.
func TestQualityIntentionsShapeTheSession(t *testing.T) {
	t.Parallel()
	intentions := []string{"sleep", "calm before a talk", "I can't stop worrying about work", "grief after losing my father"}
	long := "I want to let go of it all, the day, the work, the noise, and be at ease in my body and my mind for a bit now, ok thanks" // 30 words, within the 120 characters an intention may hold
	var days []day
	for _, in := range append(intentions, long) {
		args := []string{"--length", "20", "--seed", "5", "--intention", in}
		if guide.ProposesSleep(in) {
			args = append(args, "--sleep-after", "0") // a sleep session, its words alone
		}
		days = append(days, liveDayAt(t, t.TempDir(), "1000", args...))
	}
	if !days[0].st.Sleep || days[1].st.Sleep || days[2].st.Sleep || days[3].st.Sleep {
		t.Errorf("only %q should make a sleep session", intentions[0])
	}
	journeys := map[string]string{}
	resolutions := map[string]string{}
	for i, in := range intentions {
		body := strings.Join(append(days[i].spoken(engine.Sensory), days[i].spoken(engine.Relaxation)...), "\n")
		res := strings.Join(days[i].spoken(engine.Resolution), "\n")
		if other, ok := journeys[body]; ok {
			t.Errorf("%q and %q give the same sensory and relaxation", in, other)
		}
		if other, ok := resolutions[res]; ok {
			t.Errorf("%q and %q give the same resolution", in, other)
		}
		journeys[body], resolutions[res] = in, in
		b, _ := guide.DefaultBuiltin(guide.Memory{})
		t.Logf("%q → kind %s, journey %s, %d sentences", in, guide.KindOf(in),
			b.Journey(engine.Request{Intention: in, Seed: 5, Sleep: days[i].st.Sleep}), len(days[i].all()))
	}
	words := strings.Fields(strings.ToLower(long))
	for _, s := range days[len(days)-1].all() {
		low := strings.ToLower(s)
		for k := 0; k+4 <= len(words); k++ {
			if run := strings.Join(words[k:k+4], " "); strings.Contains(low, run) {
				t.Errorf("a 30-word intention is quoted (%q) in %q", run, s)
				break
			}
		}
	}
	for _, d := range days {
		for _, s := range d.all() {
			if strings.Contains(s, "father") || strings.Contains(s, "I can't") {
				t.Errorf("the listener's first-person words are said back: %q", s)
			}
		}
	}
}

// breathConfig writes a config file with a breathing rhythm.
func breathConfig(t *testing.T, home string, in, hold, out float64) {
	t.Helper()
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("breathing:\n  inhale: %v\n  hold: %v\n  exhale: %v\n", in, hold, out)
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// phaseSpans are each phase's extent in a render: from its first word to
// the next phase's first word (the last phase to the end).
func phaseSpans(cs []caption, end time.Duration) map[string][2]time.Duration {
	out := map[string][2]time.Duration{}
	var order []string
	for _, c := range cs {
		if _, ok := out[c.phase]; !ok {
			order = append(order, c.phase)
			out[c.phase] = [2]time.Duration{c.start, end}
		}
	}
	for i := 0; i+1 < len(order); i++ {
		s := out[order[i]]
		s[1] = out[order[i+1]][0]
		out[order[i]] = s
	}
	return out
}

type pacing struct {
	wpm, speech float64
	medianGap   time.Duration
}

func measurePacing(cs []caption, end time.Duration) map[string]pacing {
	spans := phaseSpans(cs, end)
	out := map[string]pacing{}
	for phase, span := range spans {
		var words int
		var talk time.Duration
		var gaps []time.Duration
		var prev *caption
		for i := range cs {
			c := &cs[i]
			if c.phase != phase {
				continue
			}
			words += len(strings.Fields(c.text))
			talk += c.end - c.start
			if prev != nil {
				gaps = append(gaps, c.start-prev.end)
			}
			prev = c
		}
		sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
		p := pacing{wpm: float64(words) / talk.Minutes(), speech: float64(talk) / float64(span[1]-span[0])}
		if len(gaps) > 0 {
			p.medianGap = gaps[len(gaps)/2]
		}
		out[phase] = p
	}
	return out
}

// TestQualityPacingAndBreath renders 20-minute sessions with espeak-ng for
// three rhythms: the counts are the configured ones, said early; every
// tagged breathing line begins in its part of the breath; the pace is
// unhurried and the silences long; the render ends on time.
func TestQualityPacingAndBreath(t *testing.T) {
	t.Parallel()
	needVoice(t)
	g := material(t)
	for _, rhythm := range []struct {
		in, hold, out float64
		words         [3]string
	}{{4, 2, 6, [3]string{"four", "two", "six"}}, {4, 7, 8, [3]string{"four", "seven", "eight"}}, {5, 0, 7, [3]string{"five", "", "seven"}}} {
		name := fmt.Sprintf("%v-%v-%v", rhythm.in, rhythm.hold, rhythm.out)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			breathConfig(t, home, rhythm.in, rhythm.hold, rhythm.out)
			d := renderDay(t, home, true, "--length", "20", "--seed", "3", "--voice", "espeak-ng", "--soundscape", "none")
			checkSession(t, g, d)

			br := d.spoken(engine.Breathing)
			first := strings.ToLower(strings.Join(br[:min(4, len(br))], " "))
			for i, w := range rhythm.words {
				if w != "" && !regexp.MustCompile(`\b`+w+`\b`).MatchString(first) {
					t.Errorf("the count %q (part %d) is not stated in the first four breathing lines: %q", w, i, br[:min(4, len(br))])
				}
			}
			if rhythm.hold == 0 && regexp.MustCompile(`(?i)\bhold`).MatchString(strings.Join(br, " ")) {
				t.Errorf("a rhythm with no hold hears of one: %q", br)
			}

			seconds := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
			pattern := engine.BreathPattern{Inhale: seconds(rhythm.in), Hold: seconds(rhythm.hold), Exhale: seconds(rhythm.out)}
			tags := guide.BreathTags(pattern)
			var breathing []caption
			for _, c := range d.captions {
				if c.phase == "breathing" {
					breathing = append(breathing, c)
				}
			}
			if len(breathing) == 0 {
				t.Fatal("no breathing captions")
			}
			stage0, ok := tags[breathing[0].text]
			if !ok {
				t.Fatalf("the first breathing line is not tagged: %q", breathing[0].text)
			}
			anchor := breathing[0].start - pattern.Offset(stage0)
			tagged, off := 0, 0
			for _, c := range breathing {
				stage, ok := tags[c.text]
				if !ok {
					t.Errorf("an untagged breathing line: %q", c.text)
					continue
				}
				tagged++
				at := pattern.At(c.start - anchor + 50*time.Millisecond) // a sample's rounding
				if at.Stage != stage {
					off++
					t.Errorf("%q (%v) begins %v into the breath, in its %v", c.text, stage, (c.start-anchor)%pattern.Period(), at.Stage)
				}
			}
			t.Logf("%s: %d tagged breathing lines, %d outside their part of the breath; first four: %q", name, tagged, off, br[:min(4, len(br))])

			if name != "4-2-6" {
				return
			}
			end := d.st.Elapsed
			if off := d.st.Elapsed - d.st.Length; off < -d.st.Length/100 || off > d.st.Length/100 {
				t.Errorf("a 20-minute render lasted %v", d.st.Elapsed)
			}
			pace := measurePacing(d.captions, end)
			for _, phase := range prompts.PhaseNames {
				p := pace[phase]
				t.Logf("%-10s %5.1f wpm while speaking, speech %4.1f %% of the phase, median gap %v", phase, p.wpm, 100*p.speech, p.medianGap.Round(100*time.Millisecond))
				if p.wpm > 125 {
					t.Errorf("%s: %.1f words a minute while speaking, want ≤ 125", phase, p.wpm)
				}
			}
			if p := pace["relaxation"]; p.wpm > 105 || p.speech > 0.30 || p.medianGap < 8*time.Second {
				t.Errorf("relaxation: %.1f wpm (≤ 105), speech %.1f %% (≤ 30), median gap %v (≥ 8 s)", p.wpm, 100*p.speech, p.medianGap)
			}
			for _, phase := range []string{"atmosphere", "resolution"} {
				if p := pace[phase]; p.speech > 0.40 {
					t.Errorf("%s: speech is %.1f %% of the phase, want ≤ 40 %%", phase, 100*p.speech)
				}
			}
		})
	}
}

// rmsDB is the loudness of a stretch of a WAV, in dBFS.
//
//go:norace
func rmsDB(w wavFile, from, to time.Duration) float64 {
	at := func(d time.Duration) int { return int(d.Seconds()*float64(w.rate)) * w.channels }
	var sum float64
	s := w.samples[at(from):min(at(to), len(w.samples))]
	for _, x := range s {
		sum += float64(x) * float64(x)
	}
	return 20 * math.Log10(math.Sqrt(sum/float64(max(len(s), 1)))/32768+1e-12)
}

// TestQualitySleepSoundPlaysOn: a sleep session's WAV goes on with the
// soundscape for the chosen time after the last word, fading at the end
// (the engine's tests hold that no chime sounds).
func TestQualitySleepSoundPlaysOn(t *testing.T) {
	t.Parallel()
	path, out := renderWAV(t, "--length", "5", "--seed", "4", "--voice", "none", "--soundscape", "rain",
		"--sleep", "--sleep-after", "2")
	w := readWAV(t, path)
	if d := w.duration(); d < 7*time.Minute-time.Second || d > 7*time.Minute+time.Second {
		t.Errorf("a 5-minute sleep session with 2 minutes after its words lasts %v", d)
	}
	if !strings.Contains(out, "2:00 of sound after them") {
		t.Errorf("the render does not say the sound goes on: %q", out)
	}
	early, late, end := rmsDB(w, 5*time.Minute+10*time.Second, 5*time.Minute+40*time.Second),
		rmsDB(w, 6*time.Minute, 6*time.Minute+20*time.Second), rmsDB(w, 7*time.Minute-3*time.Second, 7*time.Minute)
	t.Logf("the rain after the words: %.1f dBFS, then %.1f while it fades, %.1f at the end", early, late, end)
	if early < -50 {
		t.Errorf("the soundscape is not heard after the words (%.1f dBFS)", early)
	}
	if !(late < early-1 && end < late-6) {
		t.Errorf("the sound does not fade away: %.1f, %.1f, %.1f dBFS", early, late, end)
	}
}
