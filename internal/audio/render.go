package audio

import (
	"io"
	"sync"
	"time"

	"github.com/lull-dev/lull/internal/human"
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

// newRender starts encoding the mix into w. A write that fails ends the
// encoder for good, and failed is told at once: nothing pulls the mix any
// more, so whatever waits for the sound to play must stop waiting.
func newRender(m *mix, w io.Writer, failed func(error)) *render {
	r := &render{m: m, stop: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		err := encodeWAV(w, r, m.rate)
		if err != nil {
			err = &OutputError{Err: human.Bare(err)}
			failed(err)
		}
		r.done <- err
	}()
	return r
}

// OutputError says the sound could not be written: a full disk, a reader
// that went away. Err is the cause, without the file's name (the caller
// knows what it called the file).
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return "the sound could not be written: " + e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

func (r *render) lock()   { r.mu.Lock() }
func (r *render) unlock() { r.mu.Unlock() }

// A render has no listener to pause for.
func (r *render) suspend() {}
func (r *render) resume()  {}

func (r *render) delay() time.Duration { return 0 }

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
