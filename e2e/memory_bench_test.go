//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkPeakMemory plays a session (espeak-ng, rain) on the silent
// output for twenty seconds and reports where its memory is: the peak
// resident size (VmHWM), and the highest anonymous (the Go heap, stacks,
// the C libraries' heaps) and file-backed (the lull binary's pages, the
// shared libraries) parts seen while sampling, in MB. file-pmd is how much
// of the file-backed part was mapped in whole 2 MB pages: the kernel maps a
// large page-cache folio at once, so one touched byte of the binary may
// count 2 MB. The lead's BenchmarkPlayingSession sets the peak beside mpv's.
//
//	go test -run '^$' -bench PeakMemory -benchtime 1x .
func BenchmarkPeakMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skipf("no /proc to read memory from: %v", err)
	}
	for range b.N {
		cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "10", "--seed", "1", "--voice", "espeak-ng", "--soundscape", "rain")
		cmd.Env = append(hermeticEnv(), "PULSE_SERVER=unix:/nonexistent", "LULL_HOME="+b.TempDir())
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var anon, file float64
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			st := procMemory(b, cmd.Process.Pid, "status")
			anon, file = max(anon, st["RssAnon"]), max(file, st["RssFile"])
		}
		hwm := procMemory(b, cmd.Process.Pid, "status")["VmHWM"]
		pmd := procMemory(b, cmd.Process.Pid, "smaps_rollup")["FilePmdMapped"]
		_ = cmd.Process.Signal(syscall.SIGINT)
		_ = cmd.Wait()
		b.ReportMetric(hwm, "MB-hwm")
		b.ReportMetric(anon, "MB-anon")
		b.ReportMetric(file, "MB-file")
		b.ReportMetric(pmd, "MB-file-pmd")
	}
}

// procMemory reads the "Name: N kB" lines of /proc/PID/name, in MB.
func procMemory(b *testing.B, pid int, name string) map[string]float64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, name))
	if err != nil {
		b.Fatalf("lull is gone before its memory was read (did the session fail to start?): %v", err)
	}
	m := map[string]float64{}
	for _, line := range strings.Split(string(data), "\n") {
		k, rest, ok := strings.Cut(line, ":")
		f := strings.Fields(rest)
		if !ok || len(f) != 2 || f[1] != "kB" {
			continue
		}
		if v, err := strconv.ParseFloat(f[0], 64); err == nil {
			m[k] = v / 1024
		}
	}
	return m
}
