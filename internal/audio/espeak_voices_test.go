package audio

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// fakeEspeakScript is an espeak-ng that lists a few voices as the real
// one does and, asked to speak through an mbrola voice (-v mb-… --stdout),
// speaks only when an mbrola program is on PATH and the voice is one of
// $FAKE_MBROLA_VOICES. PATH holds nothing else: it uses only the shell.
const fakeEspeakScript = `list() { while IFS= read -r line; do printf '%s\n' "$line"; done; }
case "$1" in
--voices) list <<'LIST'
Pty Language       Age/Gender VoiceName          File                 Other Languages
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 5  en-gb-x-rp      --/M      English_(Received_Pronunciation) gmw/en-GB-x-rp       (en-gb 4)(en 5)
 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  en-us-nyc       --/M      English_(America,_New_York_City) gmw/en-US-nyc
 5  fr-fr           --/M      French_(France)    roa/fr               (fr 5)
LIST
;;
--voices=mb) list <<'LIST'
Pty Language       Age/Gender VoiceName          File                 Other Languages
 9  en              --/F      en-german-1        mb/mb-de1-en
 3  en-uk           --/M      english-mb-en1     mb/mb-en1            (en-gb 3)(en 2)
 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)
 5  en-us           --/M      us-mbrola-2        mb/mb-us2            (en 7)
LIST
;;
--voices=variant) list <<'LIST'
Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  variant         --/F      Andrea             !v/Andrea
 5  variant         --/F      female2            !v/f2
 5  variant         --/M      klatt              !v/klatt
LIST
;;
-v)
  voice=${2#mb/}
  case " $FAKE_MBROLA_VOICES " in *" $voice "*) ;; *) echo "Cannot find MBROLA voice file" >&2; exit 1;; esac
  command -v mbrola >/dev/null || { echo "mbrola executable was not found" >&2; exit 1; }
  printf '%0200d' 0
;;
esac`

// fakeEspeak puts the fake espeak-ng (and, with mbrola, a program named
// mbrola) on a PATH of its own with the others named; mbrolaVoices are the
// mbrola voices it can speak through.
func fakeEspeak(t *testing.T, mbrola bool, mbrolaVoices string, others ...string) string {
	t.Helper()
	dir := onlyOnPath(t, others...)
	path := installScript(t, dir, "espeak-ng", fakeEspeakScript)
	if mbrola {
		installScript(t, dir, "mbrola", "exit 0")
	}
	t.Setenv("FAKE_MBROLA_VOICES", mbrolaVoices)
	return path
}

func TestTheEspeakVoiceSettingTakesAnyVoiceEspeakNgLists(t *testing.T) {
	path := fakeEspeak(t, true, "mb-us2")
	for _, c := range []struct {
		setting, voice string
		mbrola         bool
	}{
		{"", "mb-us2", true},     // as auto
		{"auto", "mb-us2", true}, // us1 is not installed: the next English one
		{"en-us", "gmw/en-US", false},
		{"EN-GB-X-RP", "gmw/en-GB-x-rp", false},
		{"English_(America)", "gmw/en-US", false},
		{"en-us+andrea", "gmw/en-US+Andrea", false},
		{"en-gb+f2", "gmw/en+f2", false},
		{"mb-us2", "mb/mb-us2", true},
		{"us-mbrola-2", "mb/mb-us2", true},
		{"fr-fr", "roa/fr", false},
	} {
		got, err := chooseEspeakVoice(path, EspeakConfig{Voice: c.setting})
		if err != nil {
			t.Errorf("%q: %v", c.setting, err)
			continue
		}
		if got.voice != c.voice || got.mbrola != c.mbrola {
			t.Errorf("%q: voice %q (mbrola %v), want %q (mbrola %v)", c.setting, got.voice, got.mbrola, c.voice, c.mbrola)
		}
	}
}

func TestAWrongEspeakVoiceSaysWhatIsCloseAndHowToMendIt(t *testing.T) {
	path := fakeEspeak(t, false, "")
	for setting, want := range map[string][]string{
		"en-uss":    {`espeak.voice "en-uss" is not a voice espeak-ng knows`, "did you mean", "en-us", "espeak-ng --voices"},
		"frensh":    {`"frensh" is not a voice`, "espeak-ng --voices"},
		"en-us+f9":  {`no variant "f9"`, "did you mean f2", "--voices=variant"},
		"mb-us1":    {`"mb-us1" is an mbrola voice that is not installed`, "sudo apt-get install mbrola mbrola-us1", "contrib", "non-free"},
		"mb-de1-en": {"sudo apt-get install mbrola mbrola-de1"},
		"--help":    {`"--help" is not a voice`},
	} {
		_, err := chooseEspeakVoice(path, EspeakConfig{Voice: setting})
		if err == nil {
			t.Errorf("%q: accepted", setting)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %q does not say %q", setting, err, w)
			}
		}
	}
}

// A setting that cannot be followed is said once, and espeak-ng speaks
// with its own voice: like a chosen voice that is not installed.
func TestAWrongEspeakVoiceIsSaidAndSpokenPast(t *testing.T) {
	fakeEspeak(t, false, "", "flite")
	v, notices, err := findVoice("auto", VoiceConfig{Espeak: EspeakConfig{Voice: "en-uss"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := chainNames(t, v); !slices.Equal(got, []string{"flite", "espeak-ng"}) {
		t.Errorf("voices %q", got)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], `"en-uss"`) || !strings.Contains(notices[0], "en-us") ||
		!strings.Contains(notices[0], "espeak-ng speaks with en-us+f2.") {
		t.Errorf("notices %q", notices)
	}
	if es := v.(*chain).voices[1].(*espeak); es.voice != espeakVoice {
		t.Errorf("espeak-ng speaks with %q", es.voice)
	}
}

// auto prefers piper, then espeak-ng through an installed mbrola English
// voice, then flite, then espeak-ng's own voice.
func TestAutoPrefersAnMbrolaVoiceToFliteAndPiperToBoth(t *testing.T) {
	for _, c := range []struct {
		name         string
		mbrola       bool
		mbrolaVoices string
		piper        bool
		espeak       string
		want         []string
		voice        string
	}{
		{"no mbrola", false, "mb-us1", false, "", []string{"flite", "espeak-ng"}, espeakVoice},
		{"mbrola without an English voice", true, "mb-fr1", false, "", []string{"flite", "espeak-ng"}, espeakVoice},
		{"mbrola us1", true, "mb-us1 mb-us2", false, "", []string{"espeak-ng", "flite"}, "mb-us1"},
		{"mbrola en1 only", true, "mb-en1", false, "auto", []string{"espeak-ng", "flite"}, "mb-en1"},
		{"piper first", true, "mb-us1", true, "", []string{"piper", "espeak-ng", "flite"}, "mb-us1"},
		{"an espeak voice of one's own", true, "mb-us1", false, "en-gb", []string{"flite", "espeak-ng"}, "gmw/en"},
		{"an mbrola voice of one's own", true, "mb-us2", false, "mb-us2", []string{"espeak-ng", "flite"}, "mb/mb-us2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fakeEspeak(t, c.mbrola, c.mbrolaVoices, "flite")
			cfg := VoiceConfig{Espeak: EspeakConfig{Voice: c.espeak}}
			if c.piper {
				cfg.Piper = piperSetUp(t)
			}
			v, notices, err := findVoice("auto", cfg, nil)
			if err != nil || len(notices) > 0 {
				t.Fatal(err, notices)
			}
			if got := chainNames(t, v); !slices.Equal(got, c.want) {
				t.Errorf("voices %q, want %q", got, c.want)
			}
			for _, voice := range v.(*chain).voices {
				if es, ok := voice.(*espeak); ok && es.voice != c.voice {
					t.Errorf("espeak-ng speaks with %q, want %q", es.voice, c.voice)
				}
			}
		})
	}
}

func TestDoctorsAdviceNamesTheBetterVoicesAndHowToInstallThem(t *testing.T) {
	names := func(advice []Advice) []string {
		var n []string
		for _, a := range advice {
			n = append(n, a.Voice)
		}
		return n
	}
	t.Run("espeak-ng alone", func(t *testing.T) {
		fakeEspeak(t, false, "")
		advice := AdviseVoices(VoiceConfig{})
		if got, want := names(advice), []string{"piper", "Kokoro", "espeak-ng with mbrola", "flite"}; !slices.Equal(got, want) {
			t.Fatalf("advice %q, want %q", got, want)
		}
		if !strings.Contains(advice[2].Install, "sudo apt-get install espeak-ng mbrola mbrola-us1") ||
			!strings.Contains(advice[2].Install, "contrib") || advice[3].Install != "sudo apt-get install flite" {
			t.Errorf("install lines %q", advice)
		}
		// piper and Kokoro say what to put in the config.
		if !strings.Contains(advice[0].Config, "piper:\n  binary: ") || !strings.Contains(advice[0].Config, "\n  model: ") ||
			!strings.Contains(advice[1].Config, "speech:\n  base_url: http://localhost:8880/v1\n  model: kokoro") {
			t.Errorf("config snippets %q", advice)
		}
	})
	t.Run("nothing", func(t *testing.T) {
		onlyOnPath(t)
		got := names(AdviseVoices(VoiceConfig{}))
		if want := []string{"piper", "Kokoro", "espeak-ng with mbrola", "flite", "espeak-ng"}; !slices.Equal(got, want) {
			t.Errorf("advice %q, want %q", got, want)
		}
	})
	t.Run("mbrola installed but not chosen", func(t *testing.T) {
		fakeEspeak(t, true, "mb-us1", "flite")
		advice := AdviseVoices(VoiceConfig{Espeak: EspeakConfig{Voice: "en-us"}})
		if got := names(advice); !slices.Equal(got, []string{"piper", "Kokoro", "espeak-ng with mbrola"}) {
			t.Fatalf("advice %q", got)
		}
		if !strings.Contains(advice[2].Install, "set espeak.voice to auto") {
			t.Errorf("install %q", advice[2].Install)
		}
	})
	t.Run("mbrola in use", func(t *testing.T) {
		fakeEspeak(t, true, "mb-us1", "flite")
		if got := names(AdviseVoices(VoiceConfig{})); !slices.Equal(got, []string{"piper", "Kokoro"}) {
			t.Errorf("advice %q", got)
		}
		// A speech server set up already: Kokoro is not offered.
		if got := names(AdviseVoices(VoiceConfig{Speech: SpeechConfig{BaseURL: "http://localhost:8880/v1"}})); !slices.Equal(got, []string{"piper"}) {
			t.Errorf("advice %q with a speech server", got)
		}
	})
	t.Run("piper in use", func(t *testing.T) {
		fakeEspeak(t, false, "", "flite")
		if got := AdviseVoices(VoiceConfig{Piper: piperSetUp(t)}); len(got) != 0 {
			t.Errorf("advice %q with piper set up", names(got))
		}
	})
}

func TestCloseMatchesAreNearAndFew(t *testing.T) {
	known := []string{"en", "en-gb", "en-us", "en-us-nyc", "fr-fr", "mb-us1", "mb-us2", "mb-us3"}
	for name, want := range map[string]string{
		"en-uss":  " (did you mean en-us or en-us-nyc?)",
		"en-":     " (did you mean en, en-gb, en-us or en-us-nyc?)",
		"mb-us":   " (did you mean mb-us1, mb-us2, mb-us3 or en-us?)",
		"klingon": "",
	} {
		if got := closeMatches(name, known); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}

// The real espeak-ng's own list, where it is installed.
func TestRealEspeakVoicesAreChecked(t *testing.T) {
	path, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
	if got, err := chooseEspeakVoice(path, EspeakConfig{Voice: "en-gb"}); err != nil || got.mbrola {
		t.Errorf("en-gb: %+v, %v", got, err)
	}
	if _, err := chooseEspeakVoice(path, EspeakConfig{Voice: "en-uss"}); err == nil || !strings.Contains(err.Error(), "en-us") {
		t.Errorf("en-uss: %v", err)
	}
}

// Through an mbrola voice, where one is installed, espeak-ng speaks at
// the same unhurried pace, with the same pauses and loudness as the others.
func TestEspeakThroughMbrolaSpeaksLikeTheOthers(t *testing.T) {
	if !mbrolaReady() {
		t.Skip("no mbrola English voice is installed (" + mbrolaPackages + ")")
	}
	pr := needVoice(t, "espeak-ng", VoiceConfig{Espeak: EspeakConfig{Voice: "auto"}})
	if name := pr.v.(*espeak).voice; !strings.HasPrefix(name, "mb-") {
		t.Fatalf("auto chose %q with mbrola installed", name)
	}
	checkUnhurried(t, pr)
	checkCommaPauses(t, pr)
	checkLoudness(t, pr, loudnessLines)
}

// espeak-ng's own voice, whether or not mbrola is installed.
func TestEspeaksOwnVoiceSpeaksLikeTheOthers(t *testing.T) {
	pr := needVoice(t, "espeak-ng", VoiceConfig{Espeak: EspeakConfig{Voice: espeakVoice}})
	checkUnhurried(t, pr)
	checkCommaPauses(t, pr)
	checkLoudness(t, pr, loudnessLines)
}
