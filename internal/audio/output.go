package audio

import (
	"sync"
	"sync/atomic"
	"time"
)

// output is where the mix goes: the speaker, or a silent output that keeps
// time without a device. Every change to the playing mix happens under
// its lock.
type output interface {
	lock()
	unlock()
	// suspend stops pulling from the mix at once; resume goes on.
	suspend()
	resume()
	// close stops the output; a file output finishes its file and says
	// whether that worked.
	close() error
	// delay is how long what the output has pulled from the mix takes to
	// be heard: a device's buffer; nothing for a clock or a file.
	delay() time.Duration
}

// Paced outputs ask for the mix in steps this long (in output time), so a
// voice segment's end is noticed promptly even when time runs fast.
const paceStep = 20 * time.Millisecond

// starveWait is how long a paced output waits, in real time, for the
// engine to queue the next segment once the voice track runs dry, before
// letting time flow on without it. The engine queues within a millisecond
// or two, and the wait ends the moment it does; the bound is generous so
// that a busy machine's scheduling never opens a gap in the timeline.
const starveWait = 250 * time.Millisecond

// silent is an output with no device: it pulls the mix at the pace of a
// clock — real time, or LULL_TIME_SCALE times faster — and discards it.
// (An ALSA null device does not pace, and beep's speaker spins on it: the
// clock has to be our own.)
type silent struct {
	mu    sync.Mutex // the output's lock: held while the mix is pulled
	m     *mix
	scale float64

	// held says whether the output is suspended. It is set without waiting
	// for the pulling goroutine, which may be busy catching up; poke wakes
	// it if it sleeps.
	held    atomic.Bool
	poke    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func newSilent(m *mix, scale float64) *silent {
	s := &silent{
		m: m, scale: scale,
		poke:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	go s.run()
	return s
}

func (s *silent) lock()   { s.mu.Lock() }
func (s *silent) unlock() { s.mu.Unlock() }

func (s *silent) suspend() { s.held.Store(true); signal(s.poke) }
func (s *silent) resume()  { s.held.Store(false); signal(s.poke) }

func (s *silent) delay() time.Duration { return 0 }

func (s *silent) close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.stopped
	return nil
}

// run pulls the mix to keep up with the clock. pulled counts output
// samples since the clock was last (re)started at base.
func (s *silent) run() {
	defer close(s.stopped)
	rate := float64(s.m.rate)
	step := s.m.rate.N(paceStep)
	buf := make([][2]float64, step)
	base, pulled := time.Now(), int64(0)
	timer := time.NewTimer(0)
	defer timer.Stop()
	// sleep waits for d, a poke or the end; false means stop.
	sleep := func(d time.Duration, wake <-chan struct{}) bool {
		timer.Reset(d)
		select {
		case <-timer.C:
		case <-wake:
		case <-s.poke:
		case <-s.stop:
			return false
		}
		timer.Stop()
		return true
	}
	for {
		if s.held.Load() {
			select {
			case <-s.poke:
			case <-s.stop:
				return
			}
			base, pulled = time.Now(), 0 // the pause is not owed
			continue
		}
		due := int64(time.Since(base).Seconds() * s.scale * rate)
		if due-pulled < int64(step) {
			// Ahead of the clock, or behind by less than a step: sleep until
			// a whole step is due. (Pulling whatever was due at once spun on
			// slivers of a few samples when time ran a thousand times fast.)
			wait := time.Duration(float64(pulled+int64(step)-due) / rate / s.scale * float64(time.Second))
			if !sleep(max(wait, time.Millisecond), nil) {
				return
			}
			continue
		}
		s.mu.Lock()
		n, starved := s.m.fill(buf[:min(int64(step), due-pulled)])
		if starved {
			drain(s.m.wake)
		}
		s.mu.Unlock()
		pulled += int64(n)
		if starved {
			// The engine is about to queue the next line: give it the moment
			// it needs, in real time, before the clock runs on.
			if !sleep(starveWait, s.m.wake) {
				return
			}
			base, pulled = time.Now(), 0 // time spent waiting is not owed
		}
		select {
		case <-s.stop:
			return
		default:
		}
	}
}

// signal wakes whoever waits on ch, without ever blocking.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// drain empties a wake-up channel of a stale signal.
func drain(ch chan struct{}) {
	select {
	case <-ch:
	default:
	}
}
