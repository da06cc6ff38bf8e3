package cli

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/lull-dev/lull/internal/audio"
)

// writeCaptions writes the spoken lines of a render as WebVTT, each cue
// where its voice begins and ends in the file, named by its phase: the
// words for anyone who reads along, and an exact account of the timeline.
func writeCaptions(w io.Writer, spans []audio.Span) error {
	bw := bufio.NewWriter(w)
	fmt.Fprint(bw, "WEBVTT\n")
	counts := map[string]int{}
	for _, s := range spans {
		if !s.Speech() {
			continue
		}
		phase := s.Phase.String()
		counts[phase]++
		fmt.Fprintf(bw, "\n%s-%d\n%s --> %s\n%s\n", phase, counts[phase], vttTime(s.Start), vttTime(s.End), s.Text)
	}
	return bw.Flush()
}

// vttTime is hh:mm:ss.mmm.
func vttTime(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
