package audio

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// commaPauseAt1 is the silence at a comma at a pace of 1: espeak-ng
// leaves about this much on its own at lull's pace; flite only 80–120 ms,
// which hurries the listener through the clause. Slower lines pause
// longer.
const commaPauseAt1 = 250 * time.Millisecond

func commaPause(l engine.Line) time.Duration {
	return time.Duration(float64(commaPauseAt1) / paceOf(l))
}

// widenPauses lengthens the pauses inside each utterance of flite's
// speech to at least pause, by adding silence in their middle, where the
// speech is already silent. psdur is what flite -psdur printed: a line
// per utterance of "segment:end" pairs, the end in seconds from the
// utterance's start; the utterances follow one another in the WAV. The
// first and last pause of an utterance are its edges, not commas. If the
// account does not match the samples, the speech is left as it came.
func widenPauses(mono []float32, rate int, psdur []byte, pause time.Duration) []float32 {
	type gap struct{ at, add int } // in samples
	var gaps []gap
	offset := 0.0 // the utterance's start, in seconds
	sc := bufio.NewScanner(bytes.NewReader(psdur))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		prev := 0.0
		for i, f := range fields {
			seg, end, ok := strings.Cut(f, ":")
			t, err := strconv.ParseFloat(end, 64)
			if !ok || err != nil || t < prev {
				return mono // not flite's account
			}
			if seg == "pau" && i > 0 && i < len(fields)-1 {
				if short := pause.Seconds() - (t - prev); short > 0 {
					gaps = append(gaps, gap{at: int(math.Round((offset + (prev+t)/2) * float64(rate))), add: int(short * float64(rate))})
				}
			}
			prev = t
		}
		offset += prev
	}
	// The utterances' ends must add up to the WAV's length (to 20 ms),
	// else the times would cut into words.
	if sc.Err() != nil || len(gaps) == 0 || math.Abs(offset*float64(rate)-float64(len(mono))) > 0.02*float64(rate) {
		return mono
	}
	added := 0
	for _, g := range gaps {
		added += g.add
	}
	out := make([]float32, 0, len(mono)+added)
	from := 0
	for _, g := range gaps {
		at := min(max(g.at, from), len(mono))
		out = append(out, mono[from:at]...)
		out = append(out, make([]float32, g.add)...)
		from = at
	}
	return append(out, mono[from:]...)
}
