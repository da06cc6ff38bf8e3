//go:build unix

package e2e

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkTUICost measures what the screen costs while a session plays:
// the same session with the TUI in tmux and with --no-tui, side by side,
// lull's own CPU time over the same span, in CPU-seconds per minute. Both
// play on the silent output, so no sound server is needed and the speaker
// costs the same in both; only the screen differs.
//
//	go test -run '^$' -bench TUICost -benchtime 1x .
func BenchmarkTUICost(b *testing.B) {
	session := []string{"new", "--length", "10", "--seed", "1", "--voice", "espeak-ng", "--soundscape", "rain"}
	silent := "PULSE_SERVER=unix:/nonexistent"

	s := newScreen(b, []string{silent, "LULL_HOME=" + b.TempDir()}, session...)
	headless := exec.Command(lullBin, append(session, "--no-tui")...)
	headless.Env = append(hermeticEnv(), silent, "LULL_HOME="+b.TempDir())
	if err := headless.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = headless.Process.Signal(syscall.SIGINT); _ = headless.Wait() }()
	s.waitFor("speaking", 60*time.Second)
	tui := s.lullPID()
	time.Sleep(3 * time.Second) // past the start: the first words, the soundscape's opening

	own := func(pid int) time.Duration { t, _ := cpuTime(b, pid); return t }
	tui0, plain0, at := own(tui), own(headless.Process.Pid), time.Now()
	time.Sleep(time.Minute)
	tui1, plain1, elapsed := own(tui), own(headless.Process.Pid), time.Since(at)
	perMin := func(d time.Duration) float64 { return d.Seconds() / elapsed.Minutes() }
	withTUI, without := perMin(tui1-tui0), perMin(plain1-plain0)
	b.ReportMetric(withTUI, "tui-cpu-s-per-min")
	b.ReportMetric(without, "notui-cpu-s-per-min")
	b.ReportMetric(withTUI-without, "screen-cpu-s-per-min")
	if without > 0 {
		b.ReportMetric(withTUI/without, "ratio")
	}
	s.send("q")
}
