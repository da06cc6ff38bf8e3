package audio

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/speaker"
)

// speakerBuffer is the device buffer. beep gives half to the device and
// half to its player; pausing suspends the device, so what is already in
// the device's half still plays. Where the device is ALSA's, 100 ms keeps
// a pause within about 50 ms, and costs a few percent of a core (at 20 ms
// it would cost three times that).
const speakerBuffer = 100 * time.Millisecond

// pulseBuffer is the device buffer on a PulseAudio server (PipeWire
// answers as one too), where the device's half is the stream's target
// length. The server wakes, and asks lull for more, in steps of a part of
// that length: at 100 ms the server's share and lull's wake-ups were more
// than lull's own mixing. 200 ms about halves both (measured into a null
// sink) and still pauses within 50–60 ms, the server holding less than its
// target length; 300 ms paused at about 80 ms, too near the 100 ms bound.
const pulseBuffer = 200 * time.Millisecond

// speakerStartWait bounds how long a new speaker may take to start taking
// sound. A device that works asks for its first buffers within
// milliseconds; beep's Init reports success even when no device could be
// opened at all (the sound library keeps that error to itself), and then
// nothing ever asks. A busy machine delays a working device by tens of
// milliseconds, so the bound is generous: it is only waited out in full
// where there is no sound device.
const speakerStartWait = 3 * time.Second

// errSpeakerSilent is a speaker that opened but never took any sound.
var errSpeakerSilent = errors.New("the sound device took no sound (no PulseAudio server, and ALSA found no device that plays)")

// speakerOut is beep's speaker: the sound card. audio is its only owner;
// beep allows it to be opened once per process.
type speakerOut struct {
	threads int // GOMAXPROCS before the speaker opened, given back at close
}

var speakerOnce struct {
	sync.Once
	buffer time.Duration // speakerBuffer or pulseBuffer
	err    error
}

// openSpeaker starts the sound card playing m. beep's Init reports success
// even when no device could be opened; an error the device reports at once
// surfaces on Resume, and one it keeps to itself shows as a speaker that
// never takes the mix past what beep's own buffer holds.
func openSpeaker(m *mix) (*speakerOut, error) {
	speakerOnce.Do(func() {
		speakerOnce.buffer = deviceBuffer()
		if err := speaker.Init(m.rate, m.rate.N(speakerOnce.buffer)); err != nil {
			speakerOnce.err = err
			return
		}
		if err := speaker.Resume(); err != nil {
			speaker.Close()
			speakerOnce.err = err
			return
		}
		taken := newStartSignal(m, m.rate.N(2*speakerOnce.buffer))
		speaker.Play(taken)
		select {
		case <-taken.started:
		case <-time.After(speakerStartWait):
			speaker.Close() // the speaker lets go of the mix: Clear, under its lock
			m.played = 0    // what beep buffered was heard by no one
			speakerOnce.err = errSpeakerSilent
		}
	})
	if speakerOnce.err != nil {
		return nil, speakerOnce.err
	}
	return &speakerOut{threads: oneThread()}, nil
}

// startSignal passes the mix to the speaker and closes started once the
// speaker has taken more of it than beep's player buffers on its own (half
// of the device buffer, filled whether or not a device reads it): from then
// on, a device is playing.
type startSignal struct {
	*mix
	left    int
	started chan struct{}
}

func newStartSignal(m *mix, after int) *startSignal {
	return &startSignal{mix: m, left: after, started: make(chan struct{})}
}

func (s *startSignal) Stream(samples [][2]float64) (int, bool) {
	n, ok := s.mix.Stream(samples)
	if s.left > 0 {
		if s.left -= n; s.left <= 0 {
			close(s.started)
		}
	}
	return n, ok
}

var _ beep.Streamer = (*startSignal)(nil)

// oneThread runs Go's scheduler on one thread while the speaker plays,
// unless the listener chose otherwise (GOMAXPROCS). The speaker's device
// thread spends most of its time blocked in ALSA's write, a C call; with
// more than one P, Go's monitor thread takes the blocked P back after
// 10 ms and then polls at 20 µs for a while, on every period: a bare
// speaker playing silence wakes ~1,200 times a second and costs 3.2 CPU-s
// a minute at a 100 ms buffer, against ~580 and 1.3 with one P (measured
// into a PulseAudio null sink, through ALSA). What lull does while
// playing — mixing, the screen, an HTTP call now and then — needs no
// second core. (PulseAudio's native stream, the default since the sound
// library speaks it in Go, blocks on a socket instead; one P costs it
// nothing either.)
func oneThread() (before int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0)
	}
	return runtime.GOMAXPROCS(1)
}

func (speakerOut) lock()   { speaker.Lock() }
func (speakerOut) unlock() { speaker.Unlock() }

// suspend stops feeding the device. Suspending also idles it: a paused
// session costs almost nothing.
func (speakerOut) suspend() { _ = speaker.Suspend() }
func (speakerOut) resume()  { _ = speaker.Resume() }
func (s *speakerOut) close() error {
	speaker.Close()
	runtime.GOMAXPROCS(s.threads)
	return nil
}

// delay is how far what is heard trails what the mix has given the
// speaker: beep's player keeps between a half and a whole of its half of
// the buffer (it refills by halves), and the device's half holds one or
// two periods of a quarter each — about the whole buffer on average, which
// the breathing animation allows for.
func (*speakerOut) delay() time.Duration { return speakerOnce.buffer }

// ProbeDevice opens the sound card as a session would and describes it,
// for lull doctor. quiet, when set, is called around the opening.
func ProbeDevice(quiet func() (restore func())) (string, error) {
	if quiet != nil {
		defer quiet()()
	}
	out, err := openSpeaker(newMix(Rate))
	if err != nil {
		return "", err
	}
	defer out.close()
	return fmt.Sprintf("%s, %d Hz, %v buffer", soundSystem(), Rate, speakerOnce.buffer), nil
}
