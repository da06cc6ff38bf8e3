package app

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
)

func testApp(t *testing.T) *App {
	t.Helper()
	home := t.TempDir()
	a, err := New(Options{
		Paths:     Paths{Data: home},
		Config:    Config{Length: 5, Voice: "none", Soundscape: "brown", Breathing: defaultConfig.Breathing},
		TimeScale: 2000, // the silent output, fast
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// However soon after starting a session is closed, it is saved resumable:
// paused, or not yet begun — never left "running" as if lull had crashed.
func TestCloseAtAnyMomentLeavesTheSessionResumable(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	for i := range 30 {
		r, err := a.Start(engine.Options{Seed: int64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%5) * time.Millisecond)
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		st, _, err := a.Store().Load(r.ID())
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != engine.Paused && st.Status != engine.Created {
			t.Fatalf("closed %d ms after starting, the session was saved %s", i%5, st.Status)
		}
	}
}

func TestPausedSessionResumesToCompletion(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	r, err := a.Start(engine.Options{Seed: 7, Intention: "rest"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Snapshot().Phase < engine.Sensory && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	// The run knows it began a new session once the engine has run on:
	// the CLI's header never calls a new session "resumed".
	if st := r.AtStart().Status; st != engine.Created {
		t.Errorf("a new session's run began at %s, want created", st)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	paused := r.Snapshot()
	if paused.Status != engine.Paused {
		t.Fatalf("closed mid-session: %s", paused.Status)
	}

	// A second lull cannot take it while this one holds it.
	again, err := a.Resume(paused.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Resume(paused.ID); err == nil {
		t.Fatal("the session was opened twice")
	}
	if st := again.AtStart(); st.Status != engine.Paused || st.Spoken() != paused.Spoken() {
		t.Errorf("the resume began at %s after %d sentences, want paused after %d", st.Status, st.Spoken(), paused.Spoken())
	}
	select {
	case <-again.Done():
	case <-time.After(90 * time.Second): // bounds a failure only
		t.Fatal("the resumed session never finished")
	}
	if err := again.Err(); err != nil {
		t.Fatal(err)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	done, _, err := a.Store().Load(paused.ID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != engine.Completed || done.Spoken() <= paused.Spoken() {
		t.Fatalf("after resuming: %s, %d sentences (were %d)", done.Status, done.Spoken(), paused.Spoken())
	}
	if _, err := a.Resume(paused.ID); err == nil {
		t.Error("a completed session was resumed")
	}
}

// The breathing animation draws Progress.Breath; the pacer's tone reads
// the breath off the mix's sample clock. Paused — the clock frozen — at
// any moment of the breathing phase, the two are the same breath.
func TestAnimationAndToneReadOneClock(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	a.opts.TimeScale = 20
	r, err := a.Start(engine.Options{Seed: 3, Length: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	deadline := time.Now().Add(60 * time.Second) // bounds a failure only: at scale 20 it takes a few seconds
	for r.Progress().Breath == nil {
		if time.Now().After(deadline) {
			t.Fatal("the breathing phase never began")
		}
		time.Sleep(5 * time.Millisecond)
	}
	stages := map[engine.BreathStage]bool{}
	for i := range 25 {
		if err := r.Pause(); err != nil {
			t.Fatal(err)
		}
		shown := r.Progress().Breath
		tone, sounding := r.PacerBreath()
		if shown == nil || !sounding {
			break // the phase ended between two looks
		}
		if shown.Stage != tone.Stage || shown.Cycle != tone.Cycle || math.Abs(shown.Fill-tone.Fill) > 1e-6 {
			t.Fatalf("look %d: the animation shows %+v, the tone is at %+v", i, *shown, tone)
		}
		stages[tone.Stage] = true
		if err := r.Resume(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(17+i*7%23) * time.Millisecond)
	}
	if len(stages) < 2 {
		t.Errorf("the looks saw only %v: too few to show anything", stages)
	}
}

// slowEspeak puts an espeak-ng on PATH that takes delay before it speaks:
// a voice far slower than real time for short lines.
func slowEspeak(t *testing.T, delay time.Duration) {
	t.Helper()
	real, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
	dir := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nsleep %.3f\nexec %s \"$@\"\n", delay.Seconds(), real)
	if err := os.WriteFile(filepath.Join(dir, "espeak-ng"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// In a render, the time a voice takes to synthesize never enters the
// timeline: between two lines there is exactly the silence the engine
// asked for, and the file lasts exactly as long as the session counted.
func TestRenderTimelineHasOnlyPlannedPauses(t *testing.T) {
	// Not in parallel: slowEspeak changes PATH for the process.
	slowEspeak(t, 120*time.Millisecond)
	a := testApp(t)
	f, err := os.Create(filepath.Join(t.TempDir(), "s.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	began := time.Now()
	r, err := a.Render(engine.Options{Seed: 5, Length: 5 * time.Minute, Voice: "espeak-ng", Soundscape: "none"}, f)
	if err != nil {
		t.Fatal(err)
	}
	<-r.Done()
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	spans := r.Timeline()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	st, _, err := a.Store().Load(r.ID())
	if err != nil {
		t.Fatal(err)
	}

	lines, prevEnd, planned := 0, time.Duration(-1), time.Duration(0)
	for _, s := range spans {
		if !s.Speech() {
			planned += s.End - s.Start
			continue
		}
		if prevEnd >= 0 {
			if gap := s.Start - prevEnd; (gap - planned).Abs() > 50*time.Millisecond {
				t.Errorf("before %q: a gap of %v where %v was planned", s.Text, gap, planned)
			}
		}
		lines++
		prevEnd, planned = s.End, 0
	}
	synthesis := time.Duration(lines) * 120 * time.Millisecond
	t.Logf("%d lines, %v of synthesis delay, rendered in %v", lines, synthesis, took)
	if lines < 20 || took < synthesis {
		t.Fatalf("%d lines in %v: the slow voice was not used", lines, took)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	audioBytes := info.Size() - 44
	fileLength := time.Duration(audioBytes/4) * time.Second / time.Duration(audio.Rate)
	if (fileLength - st.Elapsed).Abs() > 10*time.Millisecond {
		t.Errorf("the file lasts %v, the session counted %v", fileLength, st.Elapsed)
	}
	if off := (st.Elapsed - st.Length).Abs(); off > st.Length/100 {
		t.Errorf("a %v render lasts %v", st.Length, st.Elapsed)
	}
}
