package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/speaker"

	"lull/internal/pulsetest"
)

// BenchmarkPlayingSession measures a session playing in real time — the
// lull process's share of one core and its memory — on the silent output,
// on a real speaker (a PulseAudio null sink), and paused on that speaker.
// The baseline, measured in the same run, is a bare beep speaker playing
// silence into the same sink: what any beep program pays to keep a device
// fed.
//
//	go test -run '^$' -bench PlayingSession -benchtime 1x .
func BenchmarkPlayingSession(b *testing.B) {
	srv := pulsetest.Start(b)
	session := []string{"new", "--no-tui", "--length", "10", "--seed", "1", "--voice", "espeak-ng", "--soundscape", "rain"}

	b.Run("beep-silence", func(b *testing.B) {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(hermeticEnv(), srv.Env, beepSilenceEnv+"=1")
		measureProcess(b, cmd)
	})
	b.Run("speaker", func(b *testing.B) {
		cmd := exec.Command(lullBin, session...)
		cmd.Env = append(hermeticEnv(), srv.Env, "LULL_HOME="+b.TempDir())
		measureProcess(b, cmd)
	})
	b.Run("silent-output", func(b *testing.B) {
		cmd := exec.Command(lullBin, session...)
		cmd.Env = append(hermeticEnv(), "PULSE_SERVER=unix:/nonexistent", "LULL_HOME="+b.TempDir())
		measureProcess(b, cmd)
	})
	b.Run("speaker-paused", func(b *testing.B) {
		s := newScreen(b, []string{srv.Env, "LULL_HOME=" + b.TempDir()}, "new", "--length", "10", "--voice", "espeak-ng", "--soundscape", "rain")
		s.waitFor("speaking", 20*time.Second)
		s.send("Space")
		s.waitFor("paused", 5*time.Second)
		pid := childOf(b, paneShell(s))
		time.Sleep(time.Second)
		cpu, rss, peak := sample(b, pid, 10*time.Second)
		report(b, cpu, rss, peak)
		s.send("q")
	})
}

// measureProcess starts cmd, lets it settle, and samples it for ten seconds.
func measureProcess(b *testing.B, cmd *exec.Cmd) {
	b.Helper()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGINT); _ = cmd.Wait() }()
	time.Sleep(3 * time.Second)
	cpu, rss, peak := sample(b, cmd.Process.Pid, 10*time.Second)
	report(b, cpu, rss, peak)
}

func report(b *testing.B, cpu, rss, peak float64) {
	b.ReportMetric(cpu, "%cpu")
	b.ReportMetric(rss, "MB_rss")
	b.ReportMetric(peak, "MB_peak")
}

// sample is a process's CPU share over span, from /proc (user + system
// time), and its resident and peak memory at the end, in MB.
func sample(b *testing.B, pid int, span time.Duration) (cpu, rss, peak float64) {
	b.Helper()
	t0, at := cpuTime(b, pid), time.Now()
	time.Sleep(span)
	t1, elapsed := cpuTime(b, pid), time.Since(at)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	kb := func(field string) float64 {
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, field+":"); ok {
				v, _ := strconv.ParseFloat(strings.Fields(rest)[0], 64)
				return v / 1024
			}
		}
		return 0
	}
	return float64(t1-t0) / float64(elapsed) * 100, kb("VmRSS"), kb("VmHWM")
}

// cpuTime is a process's user and system time so far.
func cpuTime(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("the process is gone: %v", err)
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, which /proc/*/stat counts in.
const clockTicks = 100

func paneShell(s *screen) int {
	pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("list-panes", "-t", "lull", "-F", "#{pane_pid}")))
	if err != nil {
		s.t.Fatal(err)
	}
	return pid
}

// childOf is the first child of process pid: lull, under tmux's shell.
func childOf(b *testing.B, pid int) int {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Split(bufio.ScanWords)
	if !sc.Scan() {
		b.Fatal("lull is not running under tmux's shell")
	}
	child, _ := strconv.Atoi(sc.Text())
	return child
}

// beepSilenceEnv makes the test binary a bare beep program playing silence.
const beepSilenceEnv = "LULL_BENCH_BEEP_SILENCE"

// beepSilence plays silence through beep's speaker until killed: the
// baseline cost of feeding a device, with the buffer lull uses (100 ms).
// It is test code measuring beep itself, so it calls beep directly.
func beepSilence() {
	if err := speaker.Init(44100, 4410); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	speaker.Play(beep.Silence(-1))
	select {}
}
