package main

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"lull/audio"
)

// writeCaptions writes the spoken lines of a render as WebVTT, each cue
// where its voice begins and ends in the file, named by its phase: the
// words for anyone who reads along, and an exact account of the timeline.
func writeCaptions(path string, spans []audio.Span) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "WEBVTT\n")
	counts := map[string]int{}
	for _, s := range spans {
		if !s.Speech() {
			continue
		}
		phase := s.Phase.String()
		counts[phase]++
		fmt.Fprintf(w, "\n%s-%d\n%s --> %s\n%s\n", phase, counts[phase], vttTime(s.Start), vttTime(s.End), s.Text)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// vttTime is hh:mm:ss.mmm.
func vttTime(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
