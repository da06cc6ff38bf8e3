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

// The voice's pace and the soundscape's level a listener chose are saved
// with the session and come back on resume, beside the volume, and each
// is said once.
func TestPaceAndSoundscapeLevelAreRememberedAcrossResume(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	a.opts.TimeScale = 1 // at real time the session is still early when closed
	r, err := a.Start(engine.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	r.Slower()
	if got := r.Slower(); got != 0.9 {
		t.Fatalf("two steps slower: pace %v", got)
	}
	r.SoundscapeSofter()
	if got := r.SoundscapeSofter(); got != engine.DefaultVolume-2 {
		t.Fatalf("two steps softer: soundscape %d", got)
	}
	if got := r.Louder(); got != engine.DefaultVolume+1 {
		t.Fatalf("the volume, a step louder: %d", got)
	}
	if rate, scape := r.Tuning(); rate != 0.9 || scape != engine.DefaultVolume-2 || a.player.Volume() != engine.DefaultVolume+1 {
		t.Fatalf("playing at pace %v, soundscape %d, volume %d", rate, scape, a.player.Volume())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Store().Load(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.VoiceRate != 0.9 || st.SoundscapeVolume != -2 || st.Volume != 1 {
		t.Fatalf("saved pace %v, soundscape %d, volume %d", st.VoiceRate, st.SoundscapeVolume, st.Volume)
	}

	// Another session in between plays at the normal pace and level.
	other, err := a.Start(engine.Options{Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if rate, scape := other.Tuning(); rate != 1 || scape != engine.DefaultVolume {
		t.Errorf("a new session plays at pace %v, soundscape %d", rate, scape)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := a.Resume(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if rate, scape := again.Tuning(); rate != 0.9 || scape != engine.DefaultVolume-2 || a.player.Volume() != engine.DefaultVolume+1 {
		t.Errorf("resumed at pace %v, soundscape %d, volume %d", rate, scape, a.player.Volume())
	}
	notes := strings.Join(again.Notices(), " | ")
	for _, want := range []string{"Voice pace 0.90: slower, as you left it.", "Soundscape 8 of 12: -6 dB, as you left it."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notices %q lack %q", notes, want)
		}
	}
	if again.Faster() != 0.95 {
		t.Error("faster from the remembered pace")
	}
}

// A new session begins at the config's pace and soundscape level, and is
// not told they are "as you left it".
func TestNewSessionTakesTheConfigsPaceAndSoundscapeLevel(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	rate, level := 0.85, 6
	a.opts.Config.VoiceRate, a.opts.Config.SoundscapeVolume = &rate, &level
	r, err := a.Start(engine.Options{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, scape := r.Tuning(); got != 0.85 || scape != 6 {
		t.Errorf("a new session plays at pace %v, soundscape %d; the config says 0.85 and 6", got, scape)
	}
	if st := r.Snapshot(); st.VoiceRate != 0.85 || st.SoundscapeVolume != -4 {
		t.Errorf("the session keeps pace %v, soundscape %d", st.VoiceRate, st.SoundscapeVolume)
	}
	if notes := strings.Join(r.Notices(), " | "); strings.Contains(notes, "as you left it") {
		t.Errorf("a new session is told %q", notes)
	}
}
