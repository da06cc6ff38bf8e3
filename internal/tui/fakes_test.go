package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/practice"
)

// quickSpeaker plays each utterance in a millisecond of real time, so a
// whole session runs in moments, and freezes while paused.
type quickSpeaker struct {
	mu     sync.Mutex
	cond   *sync.Cond
	paused bool
	pos    time.Duration
	// holdAfter, when above 0, is how many utterances and rests play
	// before the speaker holds the last one until the run ends: a test
	// that pauses or cancels mid-session cannot lose the race to its end
	// however slowly the machine runs the screen.
	holdAfter, played int
}

type quickUtterance time.Duration

func (u quickUtterance) Duration() time.Duration { return time.Duration(u) }

func newQuickSpeaker() *quickSpeaker {
	s := &quickSpeaker{}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *quickSpeaker) Prepare(_ context.Context, l engine.Line) (engine.Utterance, error) {
	return quickUtterance(engine.EstimateSpeech(l.Text, l.Phase)), nil
}

func (s *quickSpeaker) advance(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.played++
	held := s.holdAfter > 0 && s.played > s.holdAfter
	s.mu.Unlock()
	if held {
		<-ctx.Done()
		return ctx.Err()
	}
	select {
	case <-time.After(time.Millisecond):
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer stop()
	for s.paused && ctx.Err() == nil {
		s.cond.Wait()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.pos += d
	return nil
}

func (s *quickSpeaker) Play(ctx context.Context, u engine.Utterance) error {
	return s.advance(ctx, u.Duration())
}
func (s *quickSpeaker) Rest(ctx context.Context, d time.Duration) error { return s.advance(ctx, d) }
func (s *quickSpeaker) Chime()                                          {}
func (s *quickSpeaker) Pause()                                          { s.mu.Lock(); s.paused = true; s.mu.Unlock() }
func (s *quickSpeaker) Resume() {
	s.mu.Lock()
	s.paused = false
	s.cond.Broadcast()
	s.mu.Unlock()
}
func (s *quickSpeaker) Position() time.Duration { s.mu.Lock(); defer s.mu.Unlock(); return s.pos }

// plainGuide says numbered, calm sentences.
type plainGuide struct{}

func (plainGuide) Name() string { return "plain" }

func (plainGuide) Stream(_ context.Context, req engine.Request) (engine.Stream, error) {
	var b strings.Builder
	from, to := req.Spoken, req.Budget.WindDownAt
	if req.WindDown {
		to = max(req.Budget.Sentences, from+1)
		if req.Phase == engine.Resolution {
			to = from + 2
		}
	}
	for k := from; k < to; k++ {
		fmt.Fprintf(&b, "Rest here in %s, breath %d, soft and slow. ", req.Phase, k+1)
	}
	return &textStream{text: b.String()}, nil
}

type textStream struct{ text string }

func (s *textStream) Next(context.Context) (string, error) {
	if s.text == "" {
		return "", io.EOF
	}
	t := s.text
	s.text = ""
	return t, nil
}
func (s *textStream) Close() error { return nil }

// testRun is a Run around a real engine with fakes.
type testRun struct {
	*engine.Engine
	id      string
	cancel  context.CancelFunc
	done    chan struct{}
	notices []string
	mu      sync.Mutex
	closed  bool
	volume  int
	voiceOn bool
	scape   string
	retried []string // "provider model", each RetryWith
	// The voice's pace and the soundscape's own level.
	rate       float64
	scapeLevel int
}

func startTestRun(st engine.State) *testRun { return startTestRunWith(st, plainGuide{}) }

// startHeldRun is a run that speaks a few sentences, then holds the next
// one until it is paused, cancelled or closed: it never completes.
func startHeldRun(st engine.State) *testRun {
	sp := newQuickSpeaker()
	sp.holdAfter = 12
	return startTestRunOn(st, plainGuide{}, sp)
}

// downGuide is a provider that is down.
type downGuide struct{}

func (downGuide) Name() string { return "openai" }
func (downGuide) Stream(context.Context, engine.Request) (engine.Stream, error) {
	return nil, errors.New("503 server_error: the server is down")
}

func startTestRunWith(st engine.State, g engine.Guide) *testRun {
	return startTestRunOn(st, g, newQuickSpeaker())
}

func startTestRunOn(st engine.State, g engine.Guide, sp engine.Speaker) *testRun {
	e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Speaker: sp})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &testRun{Engine: e, id: st.ID, volume: 10, voiceOn: true, scape: "brown", rate: 1, scapeLevel: 10}
	r.launch(ctx, cancel)
	return r
}

func (r *testRun) Louder() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.volume = min(r.volume+1, 12)
	return r.volume
}

func (r *testRun) Softer() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.volume = max(r.volume-1, 0)
	return r.volume
}

func (r *testRun) Slower() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rate = engine.ClampVoiceRate(r.rate - engine.VoiceRateStep)
	return r.rate
}

func (r *testRun) Faster() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rate = engine.ClampVoiceRate(r.rate + engine.VoiceRateStep)
	return r.rate
}

func (r *testRun) SoundscapeSofter() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scapeLevel = max(r.scapeLevel-1, 0)
	return r.scapeLevel
}

func (r *testRun) SoundscapeLouder() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scapeLevel = min(r.scapeLevel+1, 12)
	return r.scapeLevel
}

func (r *testRun) Tuning() (float64, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rate, r.scapeLevel
}

func (r *testRun) ToggleVoice() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.voiceOn = !r.voiceOn
	return r.voiceOn
}

func (r *testRun) NextSoundscape() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scape = map[string]string{"brown": "drone", "drone": "none", "none": "rain", "rain": "brown"}[r.scape]
	return r.scape
}

func (r *testRun) Sound() (string, bool, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "espeak-ng", r.voiceOn, r.volume
}

// launch runs the engine once more; done closes when it returns.
func (r *testRun) launch(ctx context.Context, cancel context.CancelFunc) {
	done := make(chan struct{})
	r.mu.Lock()
	r.cancel, r.done = cancel, done
	r.mu.Unlock()
	go func() {
		defer close(done)
		_ = r.Engine.Run(ctx)
	}()
}

func (r *testRun) finished() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Done is closed when the engine's run returns.
func (r *testRun) Done() <-chan struct{} { return r.finished() }

func (r *testRun) Retry() error { return r.again(nil) }

func (r *testRun) ContinueBuiltin() error { return r.again(plainGuide{}) }

func (r *testRun) again(g engine.Guide) error {
	<-r.finished()
	if st := r.Snapshot().Status; st != engine.Interrupted {
		return fmt.Errorf("the session is %s", st)
	}
	if g != nil {
		if err := r.SwitchGuide(g); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.launch(ctx, cancel)
	return nil
}

// Unsaved words the engine's last failed save as the app does, with a
// fixed account of the disk.
func (r *testRun) Unsaved() error {
	if err := r.LastSave(); err != nil {
		return fmt.Errorf("session %s was not saved: %w.\nOn disk it is still at Atmosphere, 0:00 of 5:00.\nFree some space on its disk, then resume it with:\n  lull resume %s", r.id, err, r.id)
	}
	return nil
}

func (r *testRun) ID() string        { return r.id }
func (r *testRun) Notices() []string { return r.notices }
func (r *testRun) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.Snapshot().Status == engine.Running {
		_ = r.Pause()
	}
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	cancel()
	<-done
	r.mu.Lock()
	return r.Unsaved()
}

// fakeBackend keeps sessions in memory.
type fakeBackend struct {
	mu       sync.Mutex
	infos    []SessionInfo
	problems []Problem
	salvaged Salvaged
	restored []engine.Phase
	started  []engine.Options
	resumed  []string
	deleted  []string
	ended    []string // "summarized id", "discarded id", "cleaned id"
	runs     []*testRun
	fail     error
	servers  []string // Choices.Providers
	// choicesAsked counts calls of Choices, which probes voices in lull.
	choicesAsked atomic.Int32
	remarks      map[string]Remark // what Remark kept, by session
	practice     practice.Report   // what Practice returns
	rereads      map[string]Reread // what Reread finds, by id
	replayed     []string
}

// end marks a listed session ended as it would be saved.
func (b *fakeBackend) end(verb, id string, status engine.Status) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	b.ended = append(b.ended, verb+" "+id)
	for i, in := range b.infos {
		if in.ID == id {
			b.infos[i].Status, b.infos[i].LastActive = status, testNow
			if status == engine.Completed {
				b.infos[i].Progress = 1
			}
			return nil
		}
	}
	return errors.New("no such session")
}

func (b *fakeBackend) Summarize(id string) (engine.Summary, error) {
	if err := b.end("summarized", id, engine.Completed); err != nil {
		return engine.Summary{}, err
	}
	return engine.Summary{Partial: true, Sentences: 23, Duration: 3*time.Minute + 42*time.Second}, nil
}

func (b *fakeBackend) Discard(id string) error { return b.end("discarded", id, engine.Abandoned) }

func (b *fakeBackend) CleanUp(ids []string) (int, error) {
	n := 0
	for _, id := range ids {
		if err := b.end("cleaned", id, engine.Abandoned); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (b *fakeBackend) List() ([]SessionInfo, []Problem) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]SessionInfo(nil), b.infos...), b.problems
}

// Salvage finds what the test put in salvaged.
func (b *fakeBackend) Salvage(id string) (Salvaged, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.salvaged.ID != id {
		return Salvaged{}, errors.New("no such session")
	}
	return b.salvaged, nil
}

// Restore starts the session afresh at the phase asked for.
func (b *fakeBackend) Restore(id string, at engine.Phase) (Run, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.restored = append(b.restored, at)
	b.problems = nil
	st, _ := engine.NewState(id, engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRun(st)
	b.runs = append(b.runs, r)
	return r, nil
}

func (b *fakeBackend) Delete(id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.deleted = append(b.deleted, id)
	for i, p := range b.problems {
		if p.ID == id {
			b.problems = append(b.problems[:i], b.problems[i+1:]...)
			return nil
		}
	}
	for i, in := range b.infos {
		if in.ID == id {
			b.infos = append(b.infos[:i], b.infos[i+1:]...)
			return nil
		}
	}
	return errors.New("no such session")
}

func (b *fakeBackend) Start(opts engine.Options) (Run, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return nil, b.fail
	}
	b.started = append(b.started, opts)
	st, err := engine.NewState("2026-11-23-0930-abcd", opts, testNow)
	if err != nil {
		return nil, err
	}
	r := startTestRun(st)
	b.runs = append(b.runs, r)
	return r, nil
}

func (b *fakeBackend) Resume(id string) (Run, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.resumed = append(b.resumed, id)
	if b.fail != nil {
		return nil, b.fail
	}
	st, _ := engine.NewState(id, engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRun(st)
	b.runs = append(b.runs, r)
	return r, nil
}

func (b *fakeBackend) Models() (string, []string) { return "gpt-4.1-mini", b.servers }

func (b *fakeBackend) Choices() Choices {
	b.choicesAsked.Add(1)
	return Choices{
		Lengths: []int{5, 10, 15, 20, 30, 45, 60}, Length: 10,
		Voices: []string{"auto", "espeak-ng", "none"}, Voice: "auto",
		Soundscapes: []string{"brown", "none"}, Soundscape: "brown",
		Guides: []string{"openai", "builtin"}, Guide: "openai", Model: "gpt-4.1-mini",
		SleepTail: 30 * time.Minute, Providers: b.servers,
		// The guide's rule, as far as these tests need it.
		ProposesSleep: func(intention string) bool { return strings.Contains(strings.ToLower(intention), "sleep") },
	}
}

var testNow = time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)

func sampleSessions() []SessionInfo {
	return []SessionInfo{
		{ID: "2026-11-23-1200-k3f9", Intention: "calm before a talk", Status: engine.Paused, Phase: engine.Sensory, Progress: 0.42, Length: 10 * time.Minute, LastActive: testNow.Add(-2 * time.Hour), ResumesOn: "gpt-4.1-mini at OpenAI"},
		{ID: "2026-11-22-2210-p0qa", Intention: "", Status: engine.Interrupted, Phase: engine.Breathing, Progress: 0.18, Length: 20 * time.Minute, ResumesOn: "built-in guide", Created: time.Date(2026, 11, 22, 22, 10, 0, 0, time.Local), LastActive: testNow.Add(-16 * time.Hour)},
		{ID: "2026-11-20-0700-zz12", Intention: "sleep", Status: engine.Completed, Phase: engine.Resolution, Progress: 1, Length: 15 * time.Minute, LastActive: testNow.Add(-3 * 24 * time.Hour)},
	}
}

// Remark keeps what was said in remarks and on the listed session.
func (b *fakeBackend) Remark(id string, r Remark) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	if b.remarks == nil {
		b.remarks = map[string]Remark{}
	}
	b.remarks[id] = r
	for i, in := range b.infos {
		if in.ID == id {
			if r.MoodAfter != 0 {
				b.infos[i].MoodAfter = r.MoodAfter
			}
			b.infos[i].MoodAsked = b.infos[i].MoodAsked || r.Asked
		}
	}
	return nil
}
