//go:build unix

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Rendering beside the tools it stands on, in the same run: lull's CPU
// (its rusage as reaped, which on Linux includes the espeak-ng processes
// it waited for) against espeak-ng alone speaking the same sentences with
// the same arguments, and against sox making the same length of noise.
//
//	go test -run '^$' -bench 'RenderEspeak|RenderNoVoice' -benchtime 3x .

// BenchmarkRenderEspeak renders ten minutes with espeak-ng, rain and
// captions; the anchor is espeak-ng run once per sentence, as lull runs
// it, on the sentences read back from the captions.
func BenchmarkRenderEspeak(b *testing.B) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		b.Skip("espeak-ng is not installed")
	}
	render := []string{"render", "--length", "10", "--seed", "1", "--voice", "espeak-ng", "--soundscape", "rain"}
	calls := recordEspeak(b, render)
	var lullCPU, espeakCPU time.Duration
	for range b.N {
		dir := b.TempDir()
		vtt := filepath.Join(dir, "c.vtt")
		lullCPU += processCPU(b, dir, lullBin, append(render, "--captions", vtt, "--out", filepath.Join(dir, "s.wav"))...)
		os.Remove(filepath.Join(dir, "s.wav"))
		for i, c := range calls.spoke(b, readCaptions(b, vtt)) {
			wav := filepath.Join(dir, fmt.Sprintf("%d.wav", i))
			espeakCPU += processCPUIn(b, c.text+"\n", dir, "espeak-ng", c.withOut(wav)...)
			os.Remove(wav)
		}
	}
	reportRatio(b, "lull-cpu-s", lullCPU, "espeak-cpu-s", espeakCPU, 2.0)
}

// BenchmarkRenderNoVoice renders ten minutes of brown noise and no voice
// beside sox synthesizing 600 s of brown noise into a WAV file.
func BenchmarkRenderNoVoice(b *testing.B) {
	if _, err := exec.LookPath("sox"); err != nil {
		b.Skip("sox is not installed")
	}
	var lullCPU, soxCPU time.Duration
	for range b.N {
		dir := b.TempDir()
		out := filepath.Join(dir, "s.wav")
		lullCPU += processCPU(b, dir, lullBin, "render", "--voice", "none", "--length", "10", "--soundscape", "brown", "--out", out)
		os.Remove(out)
		soxCPU += processCPU(b, dir, "sox", "-n", "-r", "44100", "-c", "2", "-b", "16", out, "synth", "600", "brownnoise")
		os.Remove(out)
	}
	reportRatio(b, "lull-cpu-s", lullCPU, "sox-cpu-s", soxCPU, 1.2)
}

// reportRatio reports a figure, its anchor, their ratio and the ratio
// issue 13 set as the target (max-ratio).
func reportRatio(b *testing.B, name string, cpu time.Duration, anchorName string, anchor time.Duration, target float64) {
	b.ReportMetric(cpu.Seconds()/float64(b.N), name)
	b.ReportMetric(anchor.Seconds()/float64(b.N), anchorName)
	b.ReportMetric(cpu.Seconds()/anchor.Seconds(), "ratio")
	b.ReportMetric(target, "max-ratio")
}

// processCPU runs a program to its end, with a private LULL_HOME in dir,
// and returns its user and system time, children it reaped included.
func processCPU(b *testing.B, dir, name string, args ...string) time.Duration {
	return processCPUIn(b, "", dir, name, args...)
}

func processCPUIn(b *testing.B, stdin, dir, name string, args ...string) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+filepath.Join(dir, "home"))
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// espeakCall is one run of espeak-ng as lull made it: its arguments and
// the sentence it read on stdin.
type espeakCall struct {
	args []string
	text string
}

type espeakCalls []espeakCall

// spoke is the run that made each caption's sound, in the captions'
// order. lull sometimes speaks a breathing cue again at another pace so
// it fits the breath; the last run of a sentence is the one heard, and
// the anchor speaks each caption once.
func (cs espeakCalls) spoke(b *testing.B, captions []caption) espeakCalls {
	b.Helper()
	runs, said := map[string][]espeakCall{}, map[string]int{}
	for _, c := range cs {
		runs[c.text] = append(runs[c.text], c)
	}
	for _, c := range captions {
		said[c.text]++
	}
	var out espeakCalls
	for _, c := range captions {
		r := runs[c.text]
		if len(r) < said[c.text] {
			b.Fatalf("the render said %q %d times; espeak-ng was given it %d", c.text, said[c.text], len(r))
		}
		i := len(r) - said[c.text] // the last runs, in order
		out = append(out, r[i])
		runs[c.text] = append(r[:i], r[i+1:]...)
		said[c.text]--
	}
	return out
}

// withOut is the call's arguments writing to wav instead of lull's file.
func (c espeakCall) withOut(wav string) []string {
	args := slices.Clone(c.args)
	if i := slices.Index(args, "-w"); i >= 0 && i+1 < len(args) {
		args[i+1] = wav
	}
	return args
}

// recordEspeak renders once, unmeasured, through a stand-in espeak-ng
// that writes down each run's arguments and sentence before handing over
// to the real one: the anchor then speaks with lull's own arguments
// (audio's espeakArgs), not a copy of the rule.
func recordEspeak(b *testing.B, render []string) espeakCalls {
	b.Helper()
	real, _ := exec.LookPath("espeak-ng")
	dir := b.TempDir()
	bin, log := filepath.Join(dir, "bin"), filepath.Join(dir, "calls")
	for _, d := range []string{bin, log} {
		if err := os.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	shim := fmt.Sprintf(`#!/bin/sh
n=%[1]s/$(date +%%s%%N)-$$
printf '%%s\n' "$@" > "$n.args"
cat > "$n.text"
exec %[2]s "$@" < "$n.text"
`, log, real)
	if err := os.WriteFile(filepath.Join(bin, "espeak-ng"), []byte(shim), 0o755); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(lullBin, append(render, "--out", filepath.Join(dir, "s.wav"))...)
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+filepath.Join(dir, "home"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("recording espeak-ng's runs: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(dir, "s.wav"))
	names, err := filepath.Glob(filepath.Join(log, "*.args"))
	if err != nil || len(names) == 0 {
		b.Fatalf("lull ran no espeak-ng (%v)", err)
	}
	slices.Sort(names) // by the time each run started
	var calls espeakCalls
	for _, n := range names {
		args, err1 := os.ReadFile(n)
		text, err2 := os.ReadFile(strings.TrimSuffix(n, ".args") + ".text")
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		calls = append(calls, espeakCall{
			args: strings.Split(strings.TrimSuffix(string(args), "\n"), "\n"),
			text: strings.TrimSuffix(string(text), "\n"),
		})
	}
	return calls
}
