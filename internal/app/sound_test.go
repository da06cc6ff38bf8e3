package app

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
)

// The volume and voice-off a listener chose are saved with the session
// and come back on resume, with a word about it, even after another
// session in the same process played at lull's own level.
func TestSoundIsRememberedAcrossResume(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	a.opts.TimeScale = 1 // at real time the session is still early when closed
	r, err := a.Start(engine.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	r.Softer()
	if got := r.Softer(); got != engine.DefaultVolume-2 {
		t.Fatalf("two steps softer: level %d", got)
	}
	if r.ToggleVoice() {
		t.Fatal("the voice is still on")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Store().Load(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Volume != -2 || !st.VoiceOff {
		t.Fatalf("saved volume %d, voice off %v", st.Volume, st.VoiceOff)
	}

	// Another session in between plays at lull's own level, voice on.
	other, err := a.Start(engine.Options{Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	if v, on := a.player.Volume(), a.player.VoiceOn(); v != audio.DefaultVolume || !on {
		t.Errorf("a new session plays at level %d, voice on %v", v, on)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := a.Resume(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if v, on := a.player.Volume(), a.player.VoiceOn(); v != engine.DefaultVolume-2 || on {
		t.Errorf("resumed at level %d, voice on %v; left at %d, off", v, on, engine.DefaultVolume-2)
	}
	notes := strings.Join(again.Notices(), " | ")
	for _, want := range []string{"Volume 8 of 12: -6 dB, as you left it.", "The voice is off, as you left it"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notices %q lack %q", notes, want)
		}
	}
	if again.Louder() != engine.DefaultVolume-1 {
		t.Error("louder from the remembered level")
	}
}

// The audio plays the engine's scale: one source for the levels.
func TestVolumeScaleIsTheEngines(t *testing.T) {
	t.Parallel()
	if audio.DefaultVolume != engine.DefaultVolume || audio.MaxVolume != engine.MaxVolume {
		t.Errorf("audio %d/%d, engine %d/%d", audio.DefaultVolume, audio.MaxVolume, engine.DefaultVolume, engine.MaxVolume)
	}
}

// The latest session begun on the form is the one whose choices come
// back; a breathing practice is not.
func TestLatestIsTheLastSessionBegun(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	if _, ok := a.Latest(); ok {
		t.Fatal("a latest session in an empty store")
	}
	first, err := a.Start(engine.Options{Seed: 1, Length: 25 * time.Minute, Soundscape: "none"})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	in, ok := a.Latest()
	if !ok || in.ID != first.ID() || in.Length != 25*time.Minute || in.Soundscape != "none" || in.Voice != "none" {
		t.Errorf("latest %+v", in)
	}
}
