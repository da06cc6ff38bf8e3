package app

// What the listener hears when a model misbehaves the ways real models and
// servers do: whole sessions written by the LLM guide against the fake
// OpenAI server (internal/testutil/openaitest), read back from the output's own
// timeline — the words that were spoken and the silences between them.
// The lines are text only, each lasting its estimated reading, which keeps
// a dozen whole sessions cheap under the race detector; the voices have
// their own tests. Each case asserts that nothing of the markup,
// chatter, thinking, foreign text or unsafe sentences was heard, that no
// phase ended below 80 % of its plan, that the session kept its length
// within 1 %, and that no silence ran past the phase's longest planned
// pause by more than 10 s.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/lull-dev/lull/internal/speech"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// model writes the way a model that follows lull's format does — as many
// sentences as the input asks for, one a line, breath tags in breathing —
// and lets a case spoil its replies. Its own sentences end "soft as a"
// and two words no other line of a call shares (sign), so that a heard line
// can be told to be the model's; they read as plain guidance, as a real
// model's do, so the safety screen passes them.
type model struct {
	mu    sync.Mutex
	calls map[string]int // calls per phase
	spoil func(phase string, call int, lines []string) string
}

var (
	phaseNamed = regexp.MustCompile(`CURRENT PHASE: (\w+)`)
	wantsN     = regexp.MustCompile(`Write exactly (\d+) sentences`)
)

func (m *model) text(c openaitest.Call) string {
	phase := "ATMOSPHERE"
	if p := phaseNamed.FindStringSubmatch(c.Instructions); p != nil {
		phase = p[1]
	}
	n := 4
	for _, in := range c.Input {
		if w := wantsN.FindStringSubmatch(in.Text); w != nil {
			n, _ = strconv.Atoi(w[1])
		}
	}
	m.mu.Lock()
	m.calls[phase]++
	call := m.calls[phase]
	m.mu.Unlock()
	var lines []string
	for i := range n {
		lines = append(lines, calmLine(phase, c.N, i))
	}
	if m.spoil != nil {
		return m.spoil(phase, call, lines)
	}
	return strings.Join(lines, "\n")
}

func calmLine(phase string, call, i int) string {
	if phase == "BREATHING" {
		if i%2 == 0 {
			return "[in] Breathe in gently, " + sign(call, i) + "."
		}
		return "[out] And breathe out slowly, " + sign(call, i) + "."
	}
	return "Let the quiet hold you a little longer, " + sign(call, i) + "."
}

// signMark opens every sign: what tells a line to be the fake model's.
const signMark = "soft as a "

var (
	signHues   = []string{"russet", "silver", "golden", "pale", "deep", "warm", "misty", "clear", "mossy", "sandy", "dusky", "rosy", "still", "gentle", "slow", "calm", "broad", "wide", "low", "bright", "mild", "cool", "tender", "sunny", "hushed", "velvet", "willow", "cedar", "quiet", "lazy", "drowsy", "dewy", "woolly", "feathered", "grassy", "leafy", "snowy"}
	signPlaces = []string{"evening", "morning", "meadow", "harbour", "valley", "river", "garden", "orchard", "shoreline", "hillside", "woodland", "lakeside", "moorland"}
)

// sign is line i of call n's own ending: no two of the first few hundred
// lines share one, so lull's filter of a model's repeats keeps them all.
func sign(call, i int) string {
	k := call*16 + i
	return signMark + signHues[k%len(signHues)] + " " + signPlaces[k/len(signHues)%len(signPlaces)]
}

// heard is a session as its listener heard it.
type heard struct {
	st    engine.State
	spans []audio.Span
	srv   *openaitest.Server
}

func (h heard) lines() []string {
	var out []string
	for _, s := range h.spans {
		if s.Speech() {
			out = append(out, s.Text)
		}
	}
	return out
}

// llmApp is an app whose guide is the LLM at srv, with quick retries.
func llmApp(t *testing.T, srv *openaitest.Server, scale float64, modelName, voice string) *App {
	t.Helper()
	return llmAppWith(t, srv, scale, voice, llm.Config{Model: modelName})
}

// llmAppWith is llmApp with more of the guide's settings: the model, the
// private mode, the guard.
func llmAppWith(t *testing.T, srv *openaitest.Server, scale float64, voice string, l llm.Config) *App {
	t.Helper()
	l.APIKey, l.BaseURL = "sk-test", srv.URL
	l.Backoff, l.MaxWait, l.Watchdog = 10*time.Millisecond, time.Second, 20*time.Second
	a, err := New(Options{
		Paths:     Paths{Data: t.TempDir()},
		Config:    Config{Length: 5, Voice: voice, Soundscape: "none", Breathing: defaultConfig.Breathing},
		TimeScale: scale,
		Guide:     GuideChoice{Guide: "openai", LLM: l},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// render renders a session written by the model at srv, text only.
func render(t *testing.T, srv *openaitest.Server, length time.Duration) heard {
	t.Helper()
	return renderVoiced(t, srv, length, "none")
}

// renderVoiced renders it with a voice, whose clips' lengths the engine
// learns only as they are made.
func renderVoiced(t *testing.T, srv *openaitest.Server, length time.Duration, voice string) heard {
	t.Helper()
	return renderApp(t, llmApp(t, srv, 1, "gpt-4.1-mini", voice), srv, engine.Options{Seed: 3, Length: length})
}

// renderApp renders a session of a with o, to its end.
func renderApp(t *testing.T, a *App, srv *openaitest.Server, o engine.Options) heard {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "s.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := a.Render(o, f)
	if err != nil {
		t.Fatal(err)
	}
	<-r.Done()
	return readBack(t, a, r, srv)
}

// readBack is a run that has ended, as its listener heard it: its
// timeline and its session as saved, which completed.
func readBack(t *testing.T, a *App, r *Run, srv *openaitest.Server) heard {
	t.Helper()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	spans := r.Timeline()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Store().Load(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != engine.Completed {
		t.Fatalf("the session ended %s", st.Status)
	}
	return heard{st: st, spans: spans, srv: srv}
}

// checkHeard holds every case to the same bar: nothing in never was heard
// (case-insensitive), no markup or emoji, every phase at least 80 % of its
// plan, the session within 1 % of its length, and no silence longer than
// the phase's longest planned pause plus 10 s.
func checkHeard(t *testing.T, h heard, never ...string) {
	t.Helper()
	for _, l := range h.lines() {
		low := strings.ToLower(l)
		for _, n := range never {
			if strings.Contains(low, strings.ToLower(n)) {
				t.Errorf("heard %q (it holds %q)", l, n)
			}
		}
		if strings.ContainsAny(l, "*#<>[]{}()_`|~") {
			t.Errorf("heard markup: %q", l)
		}
		for _, r := range l {
			if r > 0x2000 && !unicode.IsLetter(r) && !strings.ContainsRune("’‘“”—–…", r) {
				t.Errorf("heard %q (it holds %U)", l, r)
				break
			}
		}
	}
	st := h.st
	least := 10.0
	for _, r := range st.Phases {
		if r.Budget.Target > 0 {
			least = min(least, float64(r.Elapsed)/float64(r.Budget.Target))
		}
	}
	t.Logf("%v session: %v (%+.2f %%), shortest phase %.0f %% of its plan, %d lines heard",
		st.Length, st.Elapsed.Round(time.Millisecond), 100*float64(st.Elapsed-st.Length)/float64(st.Length), 100*least, len(h.lines()))
	if off := (st.Elapsed - st.Length).Abs(); off > st.Length/100 {
		t.Errorf("a %v session lasted %v (%+.2f %%)", st.Length, st.Elapsed, 100*float64(st.Elapsed-st.Length)/float64(st.Length))
	}
	for _, r := range st.Phases {
		if r.Budget.Target > 0 && r.Elapsed*100 < r.Budget.Target*80 {
			t.Errorf("%s lasted %v of its planned %v (%.0f %%)", r.Phase, r.Elapsed, r.Budget.Target, 100*float64(r.Elapsed)/float64(r.Budget.Target))
		}
	}
	prevEnd, over := time.Duration(-1), time.Duration(-1<<62)
	defer func() { t.Logf("longest silence beyond its phase's longest pause: %v", over.Round(time.Millisecond)) }()
	for _, s := range h.spans {
		if !s.Speech() {
			continue
		}
		if prevEnd >= 0 {
			_, most := s.Phase.Rests(st.Sleep, st.Length)
			over = max(over, s.Start-prevEnd-most)
			if gap := s.Start - prevEnd; gap > most+10*time.Second {
				t.Errorf("before %q (%s): %v of silence, the phase plans at most %v", s.Text, s.Phase, gap.Round(time.Millisecond), most)
			}
		}
		prevEnd = s.End
	}
	if len(h.lines()) < 20 {
		t.Errorf("only %d lines heard", len(h.lines()))
	}
}

// modelLines counts the heard lines the model wrote (its signed lines).
func modelLines(h heard) int {
	n := 0
	for _, l := range h.lines() {
		if strings.Contains(l, signMark) {
			n++
		}
	}
	return n
}

func newModel(spoil func(phase string, call int, lines []string) string) (*openaitest.Server, *model) {
	srv := openaitest.New()
	m := &model{calls: map[string]int{}, spoil: spoil}
	srv.SetText(m.text)
	return srv, m
}

// Markup of every kind a model writes for a screen, not an ear.
func TestListenerHearsNoMarkup(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		body := strings.Join(lines[1:], "\n")
		return "## Settling In\n\n**Gently** now. " + lines[0] + " <break time=\"3s\"/>\n" +
			"1. Notice the *soft* weight of your hands.\n2. Feel the floor beneath you 🌿😊.\n" +
			"- Let the __jaw__ loosen.\n[pause 5 seconds] (soft music)\n" +
			"<speak><prosody rate=\"slow\">Rest in the stillness.</prosody></speak>\n" + body
	})
	defer srv.Close()
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h, "settling in", "break time", "pause 5", "soft music", "prosody", "asterisk", "smiling", "herb")
	// The words inside the markup are guidance: they are kept.
	heardAll := strings.Join(h.lines(), "\n")
	for _, kept := range []string{"Gently now.", "Notice the soft weight of your hands.", "Feel the floor beneath you.", "Let the jaw loosen.", "Rest in the stillness."} {
		if !strings.Contains(heardAll, kept) {
			t.Errorf("%q was never heard: the cleaner removed words of guidance; heard:\n%s", kept, heardAll)
		}
	}
}

// Chatter, meta lines, refusals and self-reference as an AI.
func TestListenerHearsNoChatter(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		return "Sure! Here is the " + strings.ToLower(phase) + " phase:\n\n" + strings.Join(lines, "\n") +
			"\n\nAs an AI language model, I do not have feelings, but I am glad to guide you." +
			"\nI hope this helps! Was this helpful?\nThank you for using this app!"
	})
	defer srv.Close()
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h, "sure", "here is", " phase", "language model", "as an ai", "helpful", "hope this helps", "this app")
	if h.st.Phases[engine.Atmosphere].Removed == 0 {
		t.Error("nothing counted as removed in atmosphere")
	}
}

// Thinking inline, closed, and a reply that opens it and never closes.
func TestListenerHearsNoThinking(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		if phase == "SENSORY" && call == 1 {
			return "<think>\nThe user wants a body scan. I should start at the feet.\nMaybe mention warmth."
		}
		return "<think>\nOkay, the user wants calm lines now. I should avoid anything medical.\n</think>\n\n" + strings.Join(lines, "\n")
	})
	defer srv.Close()
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h, "the user", "i should", "maybe mention", "think")
}

// A reply in another language, every other call.
func TestListenerHearsNoOtherLanguage(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		if call%2 == 0 {
			return "Laissez votre corps se détendre doucement.\nRespirez lentement, sans effort.\nVous êtes en sécurité ici, tout est calme."
		}
		return strings.Join(lines, "\n") + "\nDéjate llevar por la calma de este momento."
	})
	defer srv.Close()
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h, "laissez", "respirez", "vous", "déjate", "calma")
	removed := 0
	for _, r := range h.st.Phases {
		removed += r.Removed
	}
	if removed == 0 {
		t.Error("nothing counted as removed")
	}
}

// unsafeSentences are the issue's, as a model wrote them.
var unsafeSentences = []string{
	"Hold the breath until you feel dizzy, and stay there.",
	"Hold your breath now for a full sixty seconds.",
	"Breathe faster and faster, letting each breath come quicker.",
	"This practice is a proven treatment for depression.",
	"You will never need your pills again after tonight.",
	"Your doctor does not understand what your body truly needs.",
	"You might welcome death as a gentle friend.",
	"Imagine never waking again, drifting on forever.",
	"Feel your bare skin, sensual and warm beneath the sheets.",
	"Imagine a lover's touch tracing slowly along your thighs.",
	"Slowly open your eyes and come back to the room.",
}

// Unsafe sentences among safe ones, one in every reply.
func TestListenerHearsNothingUnsafe(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		if phase == "RESOLUTION" {
			return strings.Join(lines, "\n") // opening the eyes belongs here
		}
		bad := unsafeSentences[(call*7+len(phase))%len(unsafeSentences)]
		return strings.Join(append(lines[:len(lines)/2:len(lines)/2], append([]string{bad}, lines[len(lines)/2:]...)...), "\n")
	})
	defer srv.Close()
	h := render(t, srv, 5*time.Minute)
	var never []string
	for _, s := range unsafeSentences {
		never = append(never, strings.TrimSuffix(s, "."))
	}
	checkHeard(t, h, never...)
	dropped := 0
	for _, r := range h.st.Phases[:engine.Resolution] {
		dropped += r.Dropped
	}
	if dropped == 0 {
		t.Error("nothing counted as dropped")
	}
}

// A refusal, then an empty reply, at the start of breathing: the phase is
// not cut short, the built-in guide says its share.
func TestARefusedPhaseIsNotCutShort(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		if phase == "BREATHING" && call == 1 {
			return "I'm sorry, but I can't help with that request."
		}
		if phase == "BREATHING" && call == 2 {
			return ""
		}
		return strings.Join(lines, "\n")
	})
	defer srv.Close()
	h := render(t, srv, 10*time.Minute)
	checkHeard(t, h, "sorry", "can't help")
	if h.st.Phases[engine.Breathing].Filled == 0 {
		t.Error("breathing was not filled by the built-in guide")
	}
}

// A model that writes one sentence too many every call, a sentence of
// forty words now and then, and a long close: the session keeps its time,
// with a real voice whose clips the engine cannot know in advance.
func TestAWordyModelKeepsTime(t *testing.T) {
	t.Parallel()
	long := "Let the whole of your body rest here now, the heels heavy on the floor, the calves soft, the knees easy, the hips settled and wide, the belly rising and falling on its own, the hands open, the shoulders low"
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		lines = append(lines, calmLine(phase, call, len(lines)))
		if phase != "BREATHING" {
			for i := 2; i < len(lines); i += 3 {
				lines[i] = long + ", " + sign(call, i) + "."
			}
		}
		if phase == "RESOLUTION" {
			for i := range 6 {
				lines = append(lines, "Feel the room around you once more, "+sign(call, 8+i)+".")
			}
			lines = append(lines, "Thank you for this time, and go gently.")
		}
		return strings.Join(lines, "\n")
	})
	defer srv.Close()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
	for _, length := range []time.Duration{10 * time.Minute} {
		h := renderVoiced(t, srv, length, "espeak-ng")
		checkHeard(t, h)
		if ls := h.lines(); ls[len(ls)-1] != "Thank you for this time, and go gently." {
			t.Errorf("%v: the farewell was not the last line heard: %q", length, ls[len(ls)-1])
		}
	}
}

// The recorded insufficient_quota error event: one request, no retries,
// plain words in the history, and the session ends on the built-in guide.
func TestQuotaErrorEventHandsOverWithPlainWords(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(nil)
	defer srv.Close()
	srv.Push(openaitest.QuotaExhausted())
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h)
	var gens int
	for _, r := range srv.Requests() {
		if r.Path == "/v1/responses" {
			gens++
		}
	}
	if gens != 1 {
		t.Errorf("%d generation requests; the quota error is not worth a retry", gens)
	}
	var said string
	for _, e := range h.st.History {
		if e.Role == engine.RoleSystem {
			said += e.Text + "\n"
		}
	}
	if !strings.Contains(said, "credit") || strings.ContainsAny(said, "{}") {
		t.Errorf("the history says: %s", said)
	}
}

// A terse 400 to previous_response_id: the call goes again without the
// chain, and the model writes the whole session.
func TestTerse400ToTheChainKeepsTheModel(t *testing.T) {
	t.Parallel()
	srv, _ := newModel(nil)
	defer srv.Close()
	srv.SetTersePrevious(true)
	h := render(t, srv, 5*time.Minute)
	checkHeard(t, h)
	for _, r := range h.st.Runs {
		if r.Guide != "openai" {
			t.Errorf("a run on %s: the model was abandoned", r.Guide)
		}
	}
	if modelLines(h) < len(h.lines())*3/4 {
		t.Errorf("%d of %d lines heard were the model's", modelLines(h), len(h.lines()))
	}
}

// A model whose first text takes 15 s: the built-in guide speaks in the
// meantime, the screen says it is waiting, and the model's words follow.
func TestASlowModelIsNeverSilence(t *testing.T) {
	t.Parallel()
	p := playLive(t, 5*time.Minute, "gpt-4.1-mini", "none", func(s *openaitest.Server, _ *model) { s.SetLatency(15*time.Second, 0) })
	checkHeard(t, p.heard)
	if !p.waited {
		t.Error("the session never said it was waiting for the guide")
	}
	if first := p.lines()[0]; strings.Contains(first, signMark) {
		t.Errorf("the first line heard was the slow model's: %q", first)
	}
	if modelLines(p.heard) == 0 {
		t.Error("none of the slow model's lines was heard")
	}
}

// A reasoning model that thinks for 35 s before its first text: asked
// for low effort, not cut off, and never silence meanwhile.
func TestAThinkingModelIsNeverSilence(t *testing.T) {
	t.Parallel()
	p := playLive(t, 5*time.Minute, "o4-mini", "none", func(s *openaitest.Server, _ *model) {
		s.SetReasoning(&openaitest.Reasoning{Think: 35 * time.Second})
	})
	checkHeard(t, p.heard)
	if modelLines(p.heard) == 0 {
		t.Error("none of the thinking model's lines was heard: it was cut off")
	}
	first := p.srv.Requests()[0]
	if !strings.Contains(string(first.Body), `"effort":"low"`) {
		t.Errorf("the request did not ask for low effort: %s", first.Body)
	}
}

// A stream that opens and then sends nothing: the watchdog cuts it and the
// call is tried again, while the built-in guide keeps the listener company
// and the screen says it is waiting.
func TestAHungStreamIsNeverSilence(t *testing.T) {
	t.Parallel()
	p := playLive(t, 5*time.Minute, "gpt-4.1-mini", "none", func(s *openaitest.Server, _ *model) { s.Push(openaitest.Hang()) })
	checkHeard(t, p.heard)
	if !p.waited {
		t.Error("the session never said it was waiting for the guide")
	}
	if n := len(p.srv.Requests()); n < 2 {
		t.Errorf("%d requests: the hung call was not tried again", n)
	}
}

// runOn is a 120-word sentence as a model writes it when it forgets the
// listener's ear: one breath of commas and "and", no full stop until the
// end. Each phase has its own (%[1]s is a word of its own), as a model
// writes afresh: a sentence said twice is not said again.
const runOn = "Let your attention drift down %[1]s through the body now, from the crown of the head, " +
	"past the forehead and the brow that %[1]s no longer need to hold anything, down over the eyes resting heavy in their sockets, " +
	"and the cheeks and the jaw that %[1]s loosen as the teeth part a little, and on into the throat, " +
	"across the shoulders that settle %[1]s lower with every out-breath, along the arms to the elbows and the wrists and the open hands, " +
	"and then into the chest that %[1]s rises and falls on its own, the belly soft and warm, the hips wide and heavy on what holds them, " +
	"the legs long and %[1]s still, and the feet, quiet and warm and done with the day"

// runOnWords are the words each phase's run-on is written with.
var runOnWords = map[string]string{"ATMOSPHERE": "slowly", "SENSORY": "softly", "RELAXATION": "gently", "RESOLUTION": "quietly"}

func TestARunOnIsHeardInSpeakablePieces(t *testing.T) {
	t.Parallel()
	word := regexp.MustCompile(`[a-z][a-z'-]*`)
	if n := len(word.FindAllString(fmt.Sprintf(runOn, "softly"), -1)); n != 126 {
		t.Fatalf("the run-on has %d words", n)
	}
	srv, _ := newModel(func(phase string, call int, lines []string) string {
		if phase == "BREATHING" || call != 1 {
			return strings.Join(lines, "\n")
		}
		return strings.Join(append([]string{fmt.Sprintf(runOn, runOnWords[phase]) + "."}, lines[1:]...), "\n")
	})
	defer srv.Close()
	h := render(t, srv, 10*time.Minute)
	checkHeard(t, h)
	// piece reads a heard line as the run-on's words from j on; a split may
	// drop the "and" it was made at, and nothing else.
	var runWords []string
	piece := func(line string, j int) (int, bool) {
		for _, w := range word.FindAllString(strings.ToLower(line), -1) {
			for j < len(runWords) && runWords[j] != w && runWords[j] == "and" {
				j++
			}
			if j == len(runWords) || runWords[j] != w {
				return j, false
			}
			j++
		}
		return j, true
	}
	lines, groups, most := h.lines(), 0, 0
	for i, l := range lines {
		if n := len(strings.Fields(l)); n > speech.MaxSpokenWords {
			t.Errorf("heard a sentence of %d words: %q", n, l)
		}
		if !strings.HasPrefix(l, "Let your attention drift") {
			continue
		}
		for _, w := range runOnWords {
			if strings.HasPrefix(l, "Let your attention drift down "+w) {
				runWords = word.FindAllString(strings.ToLower(fmt.Sprintf(runOn, w)), -1)
			}
		}
		groups++
		j, n := 0, 0
		for _, next := range lines[i:] {
			k, ok := piece(next, j)
			if !ok {
				break
			}
			j, n = k, n+1
		}
		t.Logf("heard %d of its %d words in %d pieces", j, len(runWords), n)
		if n < 2 {
			t.Errorf("the run-on was heard as %d piece: %q", n, l)
		}
		most = max(most, j)
	}
	if groups < 3 {
		t.Errorf("the run-on opened %d phases, want atmosphere, sensory, relaxation and resolution", groups)
	}
	if most < 3*speech.MaxSpokenWords {
		t.Errorf("at most %d of the run-on's words were heard in order; heard:\n%s", most, strings.Join(lines, "\n"))
	}
}
