package audio

import (
	"fmt"
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

// speakerOut is beep's speaker: the sound card. audio is its only owner;
// beep allows it to be opened once per process.
type speakerOut struct{}

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
	return &speakerOut{}, nil
}

func (speakerOut) lock()   { speaker.Lock() }
func (speakerOut) unlock() { speaker.Unlock() }

// suspend stops feeding the device. Suspending also idles it: a paused
// session costs almost nothing.
func (speakerOut) suspend()     { _ = speaker.Suspend() }
func (speakerOut) resume()      { _ = speaker.Resume() }
func (speakerOut) close() error { speaker.Close(); return nil }

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
