package audio

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// silentPlayer is a Player on the silent output at the given time scale,
// with no voice and no soundscape.
func silentPlayer(t *testing.T, scale float64) *Player {
	t.Helper()
	p, err := Open(Options{Voice: "none", Soundscape: "none", TimeScale: scale, Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// Lines and silences queued one after another by one goroutine — as the
// engine does — follow each other on the timeline with no gap, however
// fast the clock runs: the time the engine takes between them is not
// counted.
func TestSilentOutputLeavesNoGapsBetweenSegments(t *testing.T) {
	p := silentPlayer(t, 500)
	ctx := context.Background()
	var segs []*segment
	for i := range 40 {
		var s *segment
		if i%2 == 0 {
			s = seg(constClip(Rate.N(1500*time.Millisecond), 0.1), 0)
		} else {
			s = seg(nil, Rate.N(2*time.Second))
		}
		segs = append(segs, s)
		if err := p.hold(ctx, s); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%3) * time.Millisecond) // an engine taking its time
	}
	for i := 1; i < len(segs); i++ {
		if gap := segs[i].start - segs[i-1].end; gap != 0 {
			t.Errorf("segment %d began %v after the one before ended", i, Rate.D(int(gap)))
		}
	}
	for _, s := range segs {
		if got := s.end - s.start; got != int64(s.length()) {
			t.Errorf("a segment of %d samples took %d on the timeline", s.length(), got)
		}
	}
}

func TestSilentOutputKeepsRealTime(t *testing.T) {
	p := silentPlayer(t, 1)
	start := time.Now()
	p0 := p.Position()
	time.Sleep(400 * time.Millisecond)
	played, real := p.Position()-p0, time.Since(start)
	// A generous band: this checks the clock's pace, not the machine's.
	if played < real/2 || played > real+100*time.Millisecond {
		t.Errorf("%v of output in %v of real time", played, real)
	}
}

func TestPauseStopsTheClockAndResumeGoesOn(t *testing.T) {
	p := silentPlayer(t, 20)
	ctx := context.Background()
	done := make(chan error, 1)
	clip := seg(constClip(Rate.N(10*time.Second), 0.1), 0)
	go func() { done <- p.hold(ctx, clip) }()
	time.Sleep(50 * time.Millisecond)
	p.Pause()
	at := p.Position()
	time.Sleep(200 * time.Millisecond) // four seconds of output at 20×
	if moved := p.Position() - at; moved != 0 {
		t.Fatalf("the clock moved %v while paused", moved)
	}
	select {
	case <-done:
		t.Fatal("the clip finished while paused")
	default:
	}
	p.Resume()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the clip never finished after resuming")
	}
	if got := clip.end - clip.start; got != int64(clip.length()) {
		t.Errorf("the paused clip took %d samples on the timeline, want %d", got, clip.length())
	}
}

func TestCancelledLineLeavesTheTrack(t *testing.T) {
	p := silentPlayer(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Rest(ctx, time.Hour) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Rest returned %v", err)
	}
	p.out.lock()
	left := len(p.m.voice.queue)
	p.out.unlock()
	if left != 0 {
		t.Errorf("%d segments left on the track", left)
	}
}

func TestCloseReleasesWaiters(t *testing.T) {
	p := silentPlayer(t, 1)
	done := make(chan error, 1)
	go func() { done <- p.Rest(context.Background(), time.Hour) }()
	time.Sleep(20 * time.Millisecond)
	p.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("got %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a waiter hung after Close")
	}
}

func TestTextOnlyLinesLastTheirEstimatedReading(t *testing.T) {
	p := silentPlayer(t, 1000)
	u, err := p.Prepare(context.Background(), lineOf("Breathe in slowly through your nose, and let the air fill you."))
	if err != nil {
		t.Fatal(err)
	}
	if d := u.Duration(); d < 2*time.Second || d > 8*time.Second {
		t.Errorf("a twelve-word line is estimated at %v", d)
	}
	before := p.Position()
	if err := p.Play(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	if played := p.Position() - before; played < u.Duration()-time.Millisecond {
		t.Errorf("played %v of a %v line", played, u.Duration())
	}
}

func TestConfigureRefusesUnknownNames(t *testing.T) {
	p := silentPlayer(t, 1)
	if err := p.Configure("none", "waterfall"); err == nil {
		t.Error("an unknown soundscape was accepted")
	}
	if err := p.Configure("robot", "none"); err == nil {
		t.Error("an unknown voice was accepted")
	}
}

// A silent output running flat out to catch up with a fast clock must
// still hear Pause and Resume at once.
func TestPauseAndResumeAnswerAtOnceWhenTheClockRunsFlatOut(t *testing.T) {
	p := silentPlayer(t, 5000)
	if err := p.Configure("none", "brown"); err != nil { // work for every sample
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	done := make(chan struct{})
	go func() {
		for range 50 {
			p.Pause()
			p.Resume()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Pause or Resume hung while the output caught up")
	}
}

// delayed is an output heard a while after the mix is pulled, as a
// device's buffer is.
type delayed struct {
	output
	by time.Duration
}

func (d delayed) delay() time.Duration { return d.by }

// The breathing animation shows the breath as heard: on a device that
// plays the mix a second late, 4.5 s into a 4-2-6 rhythm the listener
// still hears the inhale's tone, not yet the hold that the mix is at.
func TestTheBreathShownIsTheBreathHeard(t *testing.T) {
	p := silentPlayer(t, 1)
	p.Pause() // the clock stands still: played is set by hand
	pattern := engine.BreathPattern{Inhale: 4 * time.Second, Hold: 2 * time.Second, Exhale: 6 * time.Second}
	at := func(out output, mixAt time.Duration) engine.Breath {
		t.Helper()
		p.out = out
		p.Pace(0, pattern)
		p.out.lock()
		p.m.played = int64(Rate.N(mixAt))
		p.out.unlock()
		b, ok := p.Breath()
		if !ok {
			t.Fatal("the pacer is not sounding")
		}
		return b
	}
	silent := p.out
	if b := at(silent, 4500*time.Millisecond); b.Stage != engine.StageHold {
		t.Errorf("with nothing between the mix and the ear, 4.5 s in is %v, want hold", b.Stage)
	}
	if b := at(delayed{silent, time.Second}, 4500*time.Millisecond); b.Stage != engine.StageInhale {
		t.Errorf("a second behind the mix, 4.5 s in is heard as %v, want breathe in", b.Stage)
	}
	if b := at(delayed{silent, time.Second}, 500*time.Millisecond); b.Stage != engine.StageInhale || b.Cycle != 0 || b.Progress != 0 {
		t.Errorf("before the first sample is heard the breath is %+v, want the start of the first inhale", b)
	}
	p.out = silent
}
