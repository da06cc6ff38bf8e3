//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/testutil/pulsetest"
)

// BenchmarkPlaying is what playing a session costs, beside mpv playing
// lull's own render of the same session into the same PulseAudio null
// sink, in the same run: CPU seconds per minute of the player (with the
// voice engines it runs) and of the sound server on its behalf, and peak
// memory. mpv is measured before and after lull, and the two averaged.
// The targets (max-ratio) are issue 13's: playing costs no more than mpv,
// the screen adds at most a fifth, a paused session next to nothing, and
// lull's peak memory is at most half mpv's.
//
//	go test -run '^$' -bench Playing -benchtime 1x .
func BenchmarkPlaying(b *testing.B) {
	if _, err := exec.LookPath("mpv"); err != nil {
		b.Skip("mpv is not installed (make bench installs it)")
	}
	srv := pulsetest.Start(b)
	session := []string{"--length", "10", "--seed", "1", "--voice", "espeak-ng", "--soundscape", "rain"}
	wav := filepath.Join(b.TempDir(), "session.wav")
	render := exec.Command(lullBin, append([]string{"render", "--out", wav}, session...)...)
	render.Env = append(hermeticEnv(), "LULL_HOME="+b.TempDir())
	if out, err := render.CombinedOutput(); err != nil {
		b.Fatalf("rendering the session for mpv: %v\n%s", err, out)
	}
	mpv := func() playCost {
		cmd := exec.Command("mpv", "--no-video", "--no-terminal", "--ao=pulse", wav)
		cmd.Env = append(hermeticEnv(), srv.Env, "HOME="+b.TempDir())
		return measureProcess(b, srv, cmd)
	}
	before := mpv()

	cmd := exec.Command(lullBin, append([]string{"new", "--no-tui"}, session...)...)
	cmd.Env = append(hermeticEnv(), srv.Env, "LULL_HOME="+b.TempDir())
	noTUI := measureProcess(b, srv, cmd)

	s := newScreen(b, []string{srv.Env, "LULL_HOME=" + b.TempDir()}, append([]string{"new"}, session...)...)
	s.waitFor("speaking", 30*time.Second)
	pid := s.lullPID()
	time.Sleep(settle)
	tui := sample(b, srv, pid)
	s.send("Space")
	s.waitFor("paused", 10*time.Second)
	time.Sleep(time.Second)
	paused := sample(b, srv, pid)
	s.send("q")

	anchor := before.mean(mpv())
	b.Logf("mpv: %v", anchor)
	for _, c := range []struct {
		name   string
		cost   playCost
		target float64
	}{{"no-tui", noTUI, 1.0}, {"tui", tui, 1.2}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(c.cost.total(), "cpu-s/min")
			b.ReportMetric(anchor.total(), "mpv-cpu-s/min")
			b.ReportMetric(c.cost.total()/anchor.total(), "ratio")
			b.ReportMetric(c.target, "max-ratio")
			b.Logf("lull %s: %v", c.name, c.cost)
		})
	}
	b.Run("paused", func(b *testing.B) {
		b.Logf("lull paused: %v", paused)
		b.ReportMetric(paused.total(), "cpu-s/min")
		b.ReportMetric(pausedBound, "limit-cpu-s/min")
		b.ReportMetric(paused.total()/pausedBound, "ratio")
		b.ReportMetric(1, "max-ratio")
	})
	b.Run("peak-rss", func(b *testing.B) {
		b.ReportMetric(noTUI.peak, "MB")
		b.ReportMetric(anchor.peak, "mpv-MB")
		b.ReportMetric(noTUI.peak/anchor.peak, "ratio")
		b.ReportMetric(0.5, "max-ratio")
	})
}

// pausedBound is what a paused session may cost: next to nothing.
const pausedBound = 0.3

// settle is how long a player runs before it is measured; span is how
// long it is measured for.
const (
	settle = 5 * time.Second
	span   = 20 * time.Second
)

// playCost is CPU seconds per minute — the player's own, the voice
// engine runs it waited for, the sound server's on its behalf — and peak
// memory in MB.
type playCost struct{ cpu, voice, server, peak float64 }

func (c playCost) total() float64 { return c.cpu + c.voice + c.server }

func (c playCost) mean(d playCost) playCost {
	return playCost{(c.cpu + d.cpu) / 2, (c.voice + d.voice) / 2, (c.server + d.server) / 2, (c.peak + d.peak) / 2}
}

func (c playCost) String() string {
	return fmt.Sprintf("%.2f CPU-s/min (%.2f its own, %.2f its voice engine's, %.2f the sound server's), peak %.0f MB",
		c.total(), c.cpu, c.voice, c.server, c.peak)
}

// measureProcess starts cmd, lets it settle and samples it.
func measureProcess(b *testing.B, srv *pulsetest.Server, cmd *exec.Cmd) playCost {
	b.Helper()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGINT); _ = cmd.Wait() }()
	time.Sleep(settle)
	return sample(b, srv, cmd.Process.Pid)
}

// sample is a process's CPU per minute over span, from /proc (user and
// system time, its reaped children's included), the sound server's over
// the same span, and the process's peak memory at the end.
func sample(b *testing.B, srv *pulsetest.Server, pid int) playCost {
	b.Helper()
	t0, c0 := cpuTime(b, pid)
	s0, _ := cpuTime(b, srv.Pid)
	at := time.Now()
	time.Sleep(span)
	t1, c1 := cpuTime(b, pid)
	s1, _ := cpuTime(b, srv.Pid)
	elapsed := time.Since(at)
	perMinute := func(d time.Duration) float64 { return d.Seconds() / elapsed.Minutes() }
	return playCost{perMinute(t1 - t0), perMinute(c1 - c0), perMinute(s1 - s0), peakMB(b, pid)}
}

// cpuTime is a process's user and system time so far, and that of the
// children it has waited for (a voice engine's runs).
func cpuTime(b *testing.B, pid int) (own, children time.Duration) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("the process is gone: %v", err)
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	tick := func(i int) time.Duration {
		n, _ := strconv.ParseInt(fields[i], 10, 64)
		return time.Duration(n) * time.Second / clockTicks
	}
	return tick(11) + tick(12), tick(13) + tick(14) // utime+stime, cutime+cstime
}

// peakMB is a process's peak resident memory.
func peakMB(b *testing.B, pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatalf("the process is gone: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
			return kb / 1024
		}
	}
	return 0
}

// clockTicks is the kernel's USER_HZ, which /proc/*/stat counts in.
const clockTicks = 100
