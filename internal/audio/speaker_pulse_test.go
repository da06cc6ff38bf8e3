package audio

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/testutil/pulsetest"
)

// Pause in a running session silences a real output (beep's speaker into
// a PulseAudio sink, recorded from its monitor), and resume continues at
// the same sample: the tone's length before and after the pause adds up
// to the clip, nothing lost or repeated. How soon it falls silent is a
// speed, measured by BenchmarkPauseLatency (within 100 ms on a quiet
// machine); here a second is the bound, far short of the 2.5 s the tone
// would go on for if Pause did not stop it, however busy the machine.
func TestPauseSilencesTheRealOutput(t *testing.T) {
	latency, heard, runs := pauseAtARealOutput(t)
	if latency > time.Second {
		t.Errorf("the output went on %v after Pause", latency)
	}
	// Heard is counted in 5 ms frames: each end of a run of tone may
	// count a frame the tone only began or ended in. A resume that lost
	// or repeated a buffer (50 ms) shows beyond that.
	if (heard - clipLength).Abs() > 20*time.Millisecond+time.Duration(runs)*10*time.Millisecond {
		t.Errorf("heard %v of a %v clip: the resume did not continue at the same sample", heard, clipLength)
	}
}

// BenchmarkPauseLatency is how long a real output goes on after Pause,
// beside the speaker's buffer, the most it should take.
// One measure per process: beep's speaker is opened once, on the first
// sink, and a test's sink goes with the test.
func BenchmarkPauseLatency(b *testing.B) {
	latency, _, _ := pauseAtARealOutput(b)
	b.ReportMetric(float64(latency.Milliseconds()), "ms-to-silence")
	b.ReportMetric(float64(latency)/float64(speakerOnce.buffer), "×buffer")
}

const clipLength = 3 * time.Second

// pauseAtARealOutput plays a tone, pauses it half a second after it is
// heard, resumes a second later, and returns how long the output went on
// after Pause, how much of the tone was heard in all, and in how many runs
// (a busy machine's underruns split it beyond the pause's two).
func pauseAtARealOutput(t testing.TB) (latency, heard time.Duration, tones int) {
	p := pulsetest.Start(t)
	server, _ := strings.CutPrefix(p.Env, "PULSE_SERVER=")
	t.Setenv("PULSE_SERVER", server)
	rec := p.Record(t)

	player, err := Open(Options{Voice: "none", Soundscape: "none", Quiet: quietStderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = player.Close() })
	if len(player.Notices()) > 0 {
		t.Fatal("the speaker did not open on the PulseAudio sink")
	}
	tone := make([]float32, Rate.N(clipLength))
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*441*float64(i)/float64(Rate)))
	}
	done := make(chan error, 1)
	go func() { done <- player.hold(context.Background(), &segment{clip: tone, done: make(chan struct{})}) }()

	// Pause what is heard: wait until the tone comes out of the sink (the
	// speaker's start can take a while on a busy machine), then a moment.
	deadline := time.Now().Add(30 * time.Second) // a bound on failure, not a speed
	for !rec.Sounding() {
		if time.Now().After(deadline) {
			t.Fatal("the tone never reached the sink")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	paused := time.Now()
	player.Pause()
	time.Sleep(time.Second)
	player.Resume()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the clip never finished")
	}
	time.Sleep(500 * time.Millisecond)

	samples := rec.Samples()
	// The tone in 5 ms frames: loud or silent.
	const frame = 44100 / 200
	loud := func(i int) bool {
		var sum float64
		for _, v := range samples[i : i+frame] {
			sum += v * v
		}
		return math.Sqrt(sum/frame) > 0.05
	}
	var frames []bool
	for i := 0; i+frame <= len(samples); i += frame {
		frames = append(frames, loud(i))
	}
	// Runs of tone, joined across dropouts shorter than 60 ms (an underrun
	// on a busy machine inserts silence; it loses nothing). The pause is
	// the one long gap: a second, where a busy machine's dropouts last
	// tens of milliseconds, rarely a few hundred.
	var runs [][2]int
	for i := 0; i < len(frames); i++ {
		if !frames[i] {
			continue
		}
		if n := len(runs); n > 0 && i-runs[n-1][1] < 12 {
			runs[n-1][1] = i + 1
			continue
		}
		runs = append(runs, [2]int{i, i + 1})
	}
	pause, long := -1, 0 // the run the pause follows; gaps of half a second or more
	for i := 1; i < len(runs); i++ {
		gap := runs[i][0] - runs[i-1][1]
		if gap >= 100 { // 5 ms frames
			long++
		}
		if pause < 0 || gap > runs[pause+1][0]-runs[pause][1] {
			pause = i - 1
		}
	}
	if pause < 0 || long != 1 {
		t.Fatalf("want the tone, one pause, the tone; got %d runs of 5 ms frames, %d gaps of half a second or more: %v", len(runs), long, runs)
	}
	silentAt := rec.When(runs[pause][1] * frame)
	latency = silentAt.Sub(paused)
	for _, f := range frames {
		if f {
			heard += 5 * time.Millisecond
		}
	}
	t.Logf("the output fell silent %v after Pause; %v of a %v tone heard across the pause (runs %v, %d chunks recorded)",
		latency.Round(time.Millisecond), heard, clipLength, runs, rec.Chunks())
	return latency, heard, len(runs)
}

// quietStderr would keep a sound library's complaints out of the test
// output; the PulseAudio client makes none.
func quietStderr() func() { return func() {} }
