package audio

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// pulse is a private PulseAudio server with a null sink: a real output
// that keeps real time without a sound card. ALSA's default device reaches
// it through the pulse plugin, so beep's speaker plays into it as into any
// sound card, and parec records what comes out.
type pulse struct {
	dir    string
	server string
}

func startPulse(t *testing.T) *pulse {
	t.Helper()
	for _, tool := range []string{"pulseaudio", "parec"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (make test installs pulseaudio and pulseaudio-utils)", tool)
		}
	}
	if _, err := os.Stat("/etc/alsa/conf.d/99-pulse.conf"); err != nil {
		t.Skip("ALSA does not route to PulseAudio here (libasound2-plugins)")
	}
	dir, err := os.MkdirTemp("", "lull-pulse-") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p := &pulse{dir: dir, server: "unix:" + filepath.Join(dir, "native")}
	cmd := exec.Command("pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=true",
		"-L", "module-native-protocol-unix socket="+filepath.Join(dir, "native")+" auth-anonymous=1",
		"-L", "module-null-sink sink_name=lull_test rate=44100",
		"--log-target=stderr")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_RUNTIME_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start pulseaudio: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for range 100 {
		if _, err := os.Stat(filepath.Join(dir, "native")); err == nil {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Skip("pulseaudio did not come up")
	return nil
}

// recording is the sink's output as it arrives: samples, and for each
// chunk when it arrived and how many samples had come by then.
type recording struct {
	mu      sync.Mutex
	samples []float64
	marks   []mark
}

type mark struct {
	at    time.Time
	count int
}

func (p *pulse) record(t *testing.T) *recording {
	t.Helper()
	cmd := exec.Command("parec", "-d", "lull_test.monitor", "--raw", "--format=s16le", "--rate=44100",
		"--channels=1", "--latency-msec=5")
	cmd.Env = append(os.Environ(), "PULSE_SERVER="+p.server)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := &recording{}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := io.ReadAtLeast(out, buf, 2)
			now := time.Now()
			r.mu.Lock()
			for i := 0; i+1 < n; i += 2 {
				r.samples = append(r.samples, float64(int16(binary.LittleEndian.Uint16(buf[i:])))/32768)
			}
			r.marks = append(r.marks, mark{at: now, count: len(r.samples)})
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return r
}

// sounding reports whether the last 20 ms recorded are loud.
func (r *recording) sounding() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	const n = 882
	if len(r.samples) < n {
		return false
	}
	var sum float64
	for _, v := range r.samples[len(r.samples)-n:] {
		sum += v * v
	}
	return math.Sqrt(sum/n) > 0.05
}

// when is the latest moment sample k can have left the sink: every chunk
// arrived after its samples played, so each arrival, less the time the
// samples after k took, bounds it from above.
func (r *recording) when(k int) time.Time {
	var best time.Time
	for _, m := range r.marks {
		if m.count <= k {
			continue
		}
		t := m.at.Add(-time.Duration(m.count-k) * time.Second / 44100)
		if best.IsZero() || t.Before(best) {
			best = t
		}
	}
	return best
}

// Pause in a running session silences the output within 100 ms, measured
// at a real output (beep's speaker into a PulseAudio sink, recorded from
// its monitor), and resume continues at the same sample: the tone's
// length before and after the pause adds up to the clip, nothing lost or
// repeated.
func TestPauseSilencesTheRealOutputWithin100ms(t *testing.T) {
	p := startPulse(t)
	t.Setenv("PULSE_SERVER", p.server)
	rec := p.record(t)
	time.Sleep(300 * time.Millisecond)

	player, err := Open(Options{Voice: "none", Soundscape: "none", Quiet: quietStderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = player.Close() })
	if len(player.Notices()) > 0 {
		t.Fatal("the speaker did not open on the PulseAudio sink")
	}
	const clipLength = 3 * time.Second
	tone := make([]float32, Rate.N(clipLength))
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*441*float64(i)/float64(Rate)))
	}
	done := make(chan error, 1)
	go func() { done <- player.hold(context.Background(), &segment{clip: tone, done: make(chan struct{})}) }()

	// Pause what is heard: wait until the tone comes out of the sink (the
	// speaker's start can take a while on a busy machine), then a moment.
	deadline := time.Now().Add(5 * time.Second)
	for !rec.sounding() {
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

	rec.mu.Lock()
	defer rec.mu.Unlock()
	// The tone in 5 ms frames: loud or silent.
	const frame = 44100 / 200
	loud := func(i int) bool {
		var sum float64
		for _, v := range rec.samples[i : i+frame] {
			sum += v * v
		}
		return math.Sqrt(sum/frame) > 0.05
	}
	var frames []bool
	for i := 0; i+frame <= len(rec.samples); i += frame {
		frames = append(frames, loud(i))
	}
	// Runs of tone, joined across dropouts shorter than 60 ms (an underrun
	// on a busy machine inserts silence; it loses nothing): the pause is
	// the one long gap.
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
	if len(runs) != 2 {
		t.Fatalf("want the tone, a pause, the tone; got %d runs of 5 ms frames: %v", len(runs), runs)
	}
	silentAt := rec.when(runs[0][1] * frame)
	latency := silentAt.Sub(paused)
	heard := 0
	for _, f := range frames {
		if f {
			heard++
		}
	}
	heardTime := time.Duration(heard) * 5 * time.Millisecond
	t.Logf("the output fell silent %v after Pause; %v of a %v tone heard across the pause (runs %v, %d chunks recorded)",
		latency.Round(time.Millisecond), heardTime, clipLength, runs, len(rec.marks))
	if latency > 100*time.Millisecond {
		t.Errorf("the output went on %v after Pause", latency)
	}
	if (heardTime - clipLength).Abs() > 20*time.Millisecond {
		t.Errorf("heard %v of a %v clip: the resume did not continue at the same sample", heardTime, clipLength)
	}
}

// quietStderr keeps ALSA's complaints out of the test output.
func quietStderr() func() { return func() {} }
