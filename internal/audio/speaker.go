package audio

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/gopxl/beep/v2/speaker"
)

// speakerBuffer is the device buffer. beep gives half to ALSA and half to
// its player; pausing suspends the device, so what is already in ALSA's
// half still plays: 100 ms keeps a pause within about 50 ms, and costs a
// few percent of a core (at 20 ms it would cost three times that).
const speakerBuffer = 100 * time.Millisecond

// speakerDelay is how far what is heard trails what the mix has given
// the speaker: beep's player keeps between a half and a whole of its half
// of the buffer (it refills by halves), and ALSA's half holds one or two
// periods of a quarter each — about the whole buffer on average, which
// the breathing animation allows for.
const speakerDelay = speakerBuffer

// speakerOut is beep's speaker: the sound card. audio is its only owner;
// beep allows it to be opened once per process.
type speakerOut struct {
	threads int // GOMAXPROCS before the speaker opened, given back at close
}

var speakerOnce struct {
	sync.Once
	err error
}

// openSpeaker starts the sound card playing m. beep's Init reports success
// even when ALSA found no device; the device's error surfaces on the first
// call that touches it, so Resume is asked at once.
func openSpeaker(m *mix) (*speakerOut, error) {
	speakerOnce.Do(func() {
		if err := speaker.Init(m.rate, m.rate.N(speakerBuffer)); err != nil {
			speakerOnce.err = err
			return
		}
		if err := speaker.Resume(); err != nil {
			speaker.Close()
			speakerOnce.err = err
			return
		}
		speaker.Play(m)
	})
	if speakerOnce.err != nil {
		return nil, speakerOnce.err
	}
	return &speakerOut{threads: oneThread()}, nil
}

// oneThread runs Go's scheduler on one thread while the speaker plays,
// unless the listener chose otherwise (GOMAXPROCS). The speaker's device
// thread spends most of its time blocked in ALSA's write, a cgo call; with
// more than one P, Go's monitor thread takes the blocked P back after
// 10 ms and then polls at 20 µs for a while, on every period: a bare
// speaker playing silence wakes ~1,200 times a second and costs 3.2 CPU-s
// a minute at a 100 ms buffer, against ~580 and 1.3 with one P (measured
// into a PulseAudio null sink). What lull does while playing — mixing,
// the screen, an HTTP call now and then — needs no second core.
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

func (*speakerOut) delay() time.Duration { return speakerDelay }

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
	system := "ALSA's default device"
	if runtime.GOOS == "darwin" {
		system = "CoreAudio"
	}
	return fmt.Sprintf("%s, %d Hz, %v buffer", system, Rate, speakerBuffer), nil
}
