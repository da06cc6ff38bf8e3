package audio

import (
	"io"
	"sync"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/wav"
)

// render is an output that writes the mix to a 16-bit WAV file as fast as
// the session can be made. It only ever streams while the voice track
// holds something: while the engine fetches or synthesizes the next line
// the timeline waits for it, so however slow the voice, the file's pauses
// are exactly the planned ones.
type render struct {
	mu   sync.Mutex
	m    *mix
	stop chan struct{}
	once sync.Once
	done chan error // what the encoder returned
}

func newRender(m *mix, w io.WriteSeeker) *render {
	r := &render{m: m, stop: make(chan struct{}), done: make(chan error, 1)}
	format := beep.Format{SampleRate: m.rate, NumChannels: 2, Precision: 2}
	go func() { r.done <- wav.Encode(w, r, format) }()
	return r
}

func (r *render) lock()   { r.mu.Lock() }
func (r *render) unlock() { r.mu.Unlock() }

// A render has no listener to pause for.
func (r *render) suspend() {}
func (r *render) resume()  {}

// close ends the file where the session ended and waits for the encoder
// to finish it.
func (r *render) close() error {
	r.once.Do(func() { close(r.stop) })
	err := <-r.done
	r.done <- err // a second close gets the same answer
	return err
}

// Stream is what the encoder pulls: the mix, whenever there is a voice
// segment to play; otherwise it waits for one, or for the end.
func (r *render) Stream(samples [][2]float64) (int, bool) {
	for {
		select {
		case <-r.stop:
			return 0, false
		default:
		}
		r.mu.Lock()
		if !r.m.voice.empty() {
			n, _ := r.m.fill(samples)
			r.mu.Unlock()
			return n, true
		}
		drain(r.m.wake)
		r.mu.Unlock()
		select {
		case <-r.m.wake:
		case <-r.stop:
			return 0, false
		}
	}
}

func (r *render) Err() error { return nil }
