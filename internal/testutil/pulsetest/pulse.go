// Package pulsetest runs a private PulseAudio server with a null sink for
// tests and benchmarks: a real output that keeps real time without a
// sound card. lull's speaker speaks PulseAudio's protocol itself (the
// sound library's native client, no C), so it plays into the server as
// into any sound card when PULSE_SERVER names it, and Record hears what
// comes out.
package pulsetest

import (
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

// Server is a running PulseAudio server.
type Server struct {
	// Env points a process at the server: PULSE_SERVER=…
	Env string
	// Pid is the server's process, whose CPU is its clients' share.
	Pid int
}

// Sink is the null sink's name.
const Sink = "lull_test"

// Start starts a server for the test, or skips the test when PulseAudio
// is not installed (make test installs it).
func Start(tb testing.TB) *Server {
	tb.Helper()
	for _, tool := range []string{"pulseaudio", "parec"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Skipf("%s is not installed (make test installs pulseaudio and pulseaudio-utils)", tool)
		}
	}
	dir, err := os.MkdirTemp("", "lull-pulse-") // short: a socket path has a length limit
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "native")
	cmd := exec.Command("pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=true",
		"-L", "module-native-protocol-unix socket="+socket+" auth-anonymous=1",
		"-L", "module-null-sink sink_name="+Sink+" rate=44100",
		"--log-target=stderr")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_RUNTIME_DIR="+dir)
	if err := cmd.Start(); err != nil {
		tb.Skipf("cannot start pulseaudio: %v", err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for range 100 {
		if _, err := os.Stat(socket); err == nil {
			return &Server{Env: "PULSE_SERVER=unix:" + socket, Pid: cmd.Process.Pid}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Skip("pulseaudio did not come up")
	return nil
}

// Recording is the sink's output as it arrives, mono at 44.1 kHz.
type Recording struct {
	mu      sync.Mutex
	samples []float64
	marks   []mark
}

type mark struct {
	at    time.Time
	count int
}

// Record starts recording the sink's monitor.
func (s *Server) Record(tb testing.TB) *Recording {
	tb.Helper()
	cmd := exec.Command("parec", "-d", Sink+".monitor", "--raw", "--format=s16le", "--rate=44100",
		"--channels=1", "--latency-msec=5")
	cmd.Env = append(os.Environ(), s.Env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := &Recording{}
	first := make(chan struct{})
	go func() {
		defer closeOnce(first)
		buf := make([]byte, 4096)
		for {
			n, err := io.ReadAtLeast(out, buf, 2)
			closeOnce(first)
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
	// The monitor sends silence from the moment it is connected: what is
	// played after the first of it is recorded. (A fixed wait for parec
	// was too short on a busy machine, and a short tone went unheard.)
	select {
	case <-first:
	case <-time.After(30 * time.Second):
		tb.Fatal("parec recorded nothing in 30 s")
	}
	return r
}

// closeOnce closes ch unless it is closed already; one goroutine calls it.
func closeOnce(ch chan struct{}) {
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// Samples is a copy of everything recorded so far.
func (r *Recording) Samples() []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]float64(nil), r.samples...)
}

// Chunks is how many pieces the recording arrived in.
func (r *Recording) Chunks() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.marks)
}

// Sounding reports whether the last 20 ms recorded are loud.
func (r *Recording) Sounding() bool {
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

// When is the latest moment sample k can have left the sink: every chunk
// arrived after its samples played, so each arrival, less the time the
// samples after k took, bounds it from above.
func (r *Recording) When(k int) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
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
