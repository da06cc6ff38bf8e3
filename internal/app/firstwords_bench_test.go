package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// BenchmarkFirstWords starts sessions in real time on the silent output
// and reports how late the first line begins against its planned moment,
// the end of the opening hold (late-ms, on the output's clock): with no
// voice (the anchor: text is never late), with flite, and with flite
// behind a wait of a second and a half, as slow as piper on a small
// machine or a voice server; and a breathing practice's first cue with
// that slow voice.
//
//	go test -run '^$' -bench FirstWords -benchtime 3x ./app
func BenchmarkFirstWords(b *testing.B) {
	flite, err := exec.LookPath("flite")
	if err != nil {
		b.Skip("flite is not installed")
	}
	slow := b.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nsleep 1.5\nexec %q \"$@\"\n", flite)
	if err := os.WriteFile(filepath.Join(slow, "flite"), []byte(script), 0o755); err != nil {
		b.Fatal(err)
	}
	b.Setenv("PULSE_SERVER", "unix:/nonexistent") // no sound card: the silent output, in real time
	path := os.Getenv("PATH")
	slowPath := slow + string(os.PathListSeparator) + path
	session := engine.Options{Length: 5 * time.Minute, Soundscape: "none"}
	practice := engine.Options{Length: 2 * time.Minute, Soundscape: "none", Practice: engine.PracticeBreathe, Pattern: "4-7-8"}
	for _, tc := range []struct {
		name, voice, path string
		o                 engine.Options
	}{
		{"none", "none", path, session},
		{"flite", "flite", path, session},
		{"flite-slow", "flite", slowPath, session},
		{"breathe-flite-slow", "flite", slowPath, practice},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.Setenv("PATH", tc.path)
			var late time.Duration
			for i := range b.N {
				o := tc.o
				o.Voice, o.Seed = tc.voice, int64(i+1)
				late += firstWordsLate(b, o)
			}
			b.ReportMetric(float64(late.Milliseconds())/float64(b.N), "late-ms")
		})
	}
}

// firstWordsLate starts a session and returns how long after the opening
// hold's end its first line began.
func firstWordsLate(b *testing.B, o engine.Options) time.Duration {
	b.Helper()
	a, err := New(Options{Paths: Paths{Data: b.TempDir()}, Config: defaultConfig})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	r, err := a.Start(o)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		spans := r.Timeline()
		if len(spans) == 0 || spans[0].Speech() {
			continue
		}
		for _, s := range spans {
			if s.Speech() {
				return s.Start - spans[0].End // the hold is the first silence
			}
		}
	}
	b.Fatalf("%s: no line was spoken within a minute", o.Voice)
	return 0
}
