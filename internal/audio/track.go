package audio

import (
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// segment is one item on the voice track: a clip to voice or a silence to
// hold. done is closed once its last sample has been streamed.
type segment struct {
	clip    []float32 // mono, at the output rate; nil for a silence
	text    string    // what the clip says
	phase   engine.Phase
	silence int  // samples of silence when clip is nil
	strike  bool // the bowl is struck as the segment begins (Player.RestStriking)
	pos     int
	done    chan struct{}
	// start and end are the mix's clock at the segment's first sample and
	// just after its last: where it really fell on the timeline.
	start, end int64
}

func (s *segment) length() int {
	if s.clip != nil {
		return len(s.clip)
	}
	return s.silence
}

// track is the voice track: segments played back to back, in the order
// they were queued. It is only touched under the output's lock.
type track struct {
	queue  []*segment
	gain   float64 // the voice's level, gliding to target: muting never clicks
	target float64
	spans  []Span // every segment that has played, in order
}

// Span is a stretch of the voice track that played: a line, or a silence.
type Span struct {
	Text       string // empty for a silence
	Phase      engine.Phase
	Start, End time.Duration
}

// Speech reports whether the span is a spoken line.
func (s Span) Speech() bool { return s.Text != "" }

// speaking reports whether a clip is at the head of the track.
func (t *track) speaking() bool { return len(t.queue) > 0 && t.queue[0].clip != nil }

func (t *track) empty() bool { return len(t.queue) == 0 }

// striking reports whether the head segment begins now and strikes the
// bowl as it does; it strikes only once.
func (t *track) striking() bool {
	if len(t.queue) == 0 || t.queue[0].pos != 0 || !t.queue[0].strike {
		return false
	}
	t.queue[0].strike = false
	return true
}

// add queues a segment.
func (t *track) add(s *segment) { t.queue = append(t.queue, s) }

// drop takes a segment off the track, whether or not it has begun: its
// waiter has gone (the run was cancelled), and nothing of it must play later.
func (t *track) drop(s *segment) {
	for i, q := range t.queue {
		if q == s {
			t.queue = append(t.queue[:i], t.queue[i+1:]...)
			return
		}
	}
}

// stream adds up to len(out) samples of the head segment into out, the
// mix's clock reading now, and reports how many it covered and whether
// that segment ended there. A track with nothing queued covers out with
// silence.
func (t *track) stream(out [][2]float64, now int64) (n int, ended bool) {
	if len(t.queue) == 0 {
		return len(out), false
	}
	s := t.queue[0]
	if s.pos == 0 {
		s.start = now
	}
	n = min(len(out), s.length()-s.pos)
	if s.clip != nil {
		for i, v := range s.clip[s.pos : s.pos+n] {
			t.gain = approach(t.gain, t.target, voiceGlide)
			x := float64(v) * t.gain
			out[i][0] += x
			out[i][1] += x
		}
	} else {
		t.gain = approach(t.gain, t.target, voiceGlide*float64(n))
	}
	s.pos += n
	if s.pos >= s.length() {
		s.end = now + int64(n)
		t.queue = t.queue[1:]
		t.spans = append(t.spans, Span{Text: s.text, Phase: s.phase, Start: samplesToTime(s.start), End: samplesToTime(s.end)})
		close(s.done)
		return n, true
	}
	return n, false
}

// clear ends every queued segment, releasing their waiters.
func (t *track) clear() {
	for _, s := range t.queue {
		close(s.done)
	}
	t.queue = nil
}

// samplesToTime is a position on the mix's clock as time.
func samplesToTime(n int64) time.Duration {
	return time.Duration(n) * time.Second / time.Duration(Rate)
}
