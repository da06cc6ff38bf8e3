package audio

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Voice turns a line into speech in its phase's style at its delivery's
// pace (see paceOf): mono samples at rate, so the clip's duration is known
// before it plays. Its loudness is the Player's to set (see level).
type Voice interface {
	Name() string
	Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error)
}

// Voices are the names a listener can choose: auto picks the best one
// available; the engines follow best first; none is text only.
var Voices = []string{"auto", "openai", "piper", "say", "flite", "espeak-ng", "none"}

// CheckVoice refuses a voice name lull does not know.
func CheckVoice(name string) error {
	for _, v := range Voices {
		if v == name {
			return nil
		}
	}
	return fmt.Errorf("unknown voice %q (choose %s)%s", name, strings.Join(Voices, ", "), human.DidYouMean(name, Voices))
}

// VoiceConfig is what the voices need beyond their names: where piper and
// its model are, which OpenAI-compatible speech server to use, and which
// voice espeak-ng speaks with.
type VoiceConfig struct {
	Piper  PiperConfig
	Speech SpeechConfig
	Espeak EspeakConfig
}

// PiperConfig points at a piper binary (a path, or a name on PATH) and a
// voice model (.onnx, with its .onnx.json beside it).
type PiperConfig struct{ Binary, Model string }

// SpeechConfig is an OpenAI-compatible /v1/audio/speech endpoint. BaseURL
// includes the /v1; empty means OPENAI_BASE_URL, else OpenAI. The key may
// be empty for a local server, and is never written anywhere. Model and
// Voice default to gpt-4o-mini-tts and sage; Format is "wav" (the
// default) or "pcm".
type SpeechConfig struct{ BaseURL, APIKey, Model, Voice, Format string }

// VoiceInfo is a voice as lull doctor reports it.
type VoiceInfo struct {
	Name      string
	Available bool
	Where     string // a path or URL, never the key
	Default   bool   // what auto picks
	Note      string
}

// installHint is what a Debian or Ubuntu listener runs for a voice.
const installHint = "sudo apt-get install espeak-ng flite"

// DescribeVoices reports every voice engine, best first: whether it is
// available here, where, and whether auto would pick it.
func DescribeVoices(cfg VoiceConfig) []VoiceInfo {
	var infos []VoiceInfo
	chosen := false
	for _, f := range probeVoices(cfg) {
		info := VoiceInfo{Name: f.name, Available: f.voice != nil, Where: f.where, Note: f.note}
		if info.Available && !chosen {
			info.Default, chosen = true, true
		}
		infos = append(infos, info)
	}
	return infos
}

// findVoice resolves a voice name to the engines available: a chain of
// the chosen one, then the other local voices, best first. nil means text
// only; notices say why when the listener asked for more. notify is told
// later, mid-session, when a voice fails and another takes over.
func findVoice(name string, cfg VoiceConfig, notify func(string)) (v Voice, notices []string, err error) {
	if name == "" {
		name = "auto"
	}
	if err := CheckVoice(name); err != nil {
		return nil, nil, err
	}
	if name == "none" {
		return nil, nil, nil
	}
	all := probeVoices(cfg)
	first := -1
	if name == "auto" {
		first = firstAvailable(all, 0)
		if first < 0 {
			return nil, []string{"No voice is installed (install one: " + installHint + "); the session is text only."}, nil
		}
	} else {
		asked := indexOf(all, name)
		if all[asked].voice != nil {
			first = asked
		} else {
			// An unavailable choice gives way to the next local voice,
			// else the best one: never to a server nobody asked for.
			first = firstAvailable(all, max(asked+1, 1))
			if first < 0 {
				first = firstAvailable(all[:asked], 1)
			}
			if first < 0 {
				return nil, []string{fmt.Sprintf("%s; no other voice is installed either (install one: %s): the session is text only.",
					all[asked].note, installHint)}, nil
			}
			notices = append(notices, fmt.Sprintf("%s; using %s.", all[asked].note, all[first].name))
		}
	}
	voices := []Voice{all[first].voice}
	for i, f := range all {
		if i != first && f.voice != nil && !f.remote {
			voices = append(voices, f.voice)
		}
	}
	for _, f := range all {
		if f.warning != "" {
			notices = append(notices, f.warning)
		}
	}
	return newChain(voices, notify), notices, nil
}

// found is one voice engine as this machine has it.
type found struct {
	name   string
	voice  Voice // nil: not available
	remote bool  // sends the text elsewhere: never a fallback
	where  string
	note   string // why it is not available, or what it uses
	// warning is a setting of this voice that could not be followed, and
	// what it does instead: the listener is told when it may speak.
	warning string
	mbrola  bool // espeak-ng speaking through an mbrola voice
}

// probeVoices finds every engine, in the order auto prefers them: a
// server, then by how natural they sound — piper's neural voices, macOS's
// say, espeak-ng through an mbrola voice (recorded human diphones), flite's
// slt (a statistical voice, warmer than espeak-ng's formants) and
// espeak-ng's own voice.
func probeVoices(cfg VoiceConfig) []found {
	es := probeEspeak(cfg.Espeak)
	all := []found{
		probeSpeech(cfg.Speech),
		probePiper(cfg.Piper),
		probeCommand("say", "say is not installed (it comes with macOS)",
			func(path string) (Voice, string) { return &say{path: path}, "voice " + sayVoice }),
		probeCommand("flite", "flite is not installed",
			func(path string) (Voice, string) { return &flite{path: path}, "voice " + fliteVoice }),
	}
	if es.mbrola {
		return slices.Insert(all, 3, es)
	}
	return append(all, es)
}

// probeEspeak finds espeak-ng and the voice it will speak with.
func probeEspeak(cfg EspeakConfig) found {
	path, err := exec.LookPath("espeak-ng")
	if err != nil {
		return found{name: "espeak-ng", note: "espeak-ng is not installed"}
	}
	f := found{name: "espeak-ng", where: path}
	choice, err := chooseEspeakVoice(path, cfg)
	if err != nil {
		// Like a voice that is not installed: said, and spoken past.
		choice = espeakChoice{voice: espeakVoice, name: espeakVoice}
		f.warning = err.Error() + "; espeak-ng speaks with " + espeakVoice + "."
	}
	f.voice = &espeak{path: path, voice: choice.voice, mbrola: choice.mbrola}
	f.note, f.mbrola = "voice "+choice.name, choice.mbrola
	if choice.mbrola {
		f.note += " (mbrola)"
	}
	if f.warning != "" {
		f.note = f.warning
	}
	return f
}

func probeSpeech(cfg SpeechConfig) found {
	f := found{name: "openai", remote: true}
	s := newSpeech(cfg)
	f.where = s.where
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		// Nothing is set up: OPENAI_BASE_URL is the guide's server, and a
		// key never goes in the config.
		f.where = ""
		f.note = "openai is not set up: give a speech server of your own (Kokoro, say) as speech.base_url in the config, or set OPENAI_API_KEY for OpenAI's"
		if os.Getenv("OPENAI_BASE_URL") != "" {
			f.note = "openai is not set up: OPENAI_BASE_URL is the guide's server; for speech give speech.base_url in the config (a key, if the server wants one, in LULL_SPEECH_API_KEY)"
		}
		return f
	}
	f.voice = s
	f.note = "model " + s.model + ", voice " + s.voice
	if u, err := url.Parse(s.where); err == nil && u.Host == "api.openai.com" {
		f.note += "; OpenAI shuts its Speech API models down on 2027-01-06"
	}
	if cfg.APIKey == "" {
		f.note += "; no API key is sent"
	}
	return f
}

func probePiper(cfg PiperConfig) found {
	f := found{name: "piper", where: cfg.Binary}
	if cfg.Binary == "" || cfg.Model == "" {
		f.note = "piper is not set up: it needs a piper binary and a .onnx voice model"
		return f
	}
	path, err := exec.LookPath(cfg.Binary)
	if err != nil {
		f.note = "piper was not found at " + cfg.Binary
		return f
	}
	f.where = path
	for _, file := range []string{cfg.Model, cfg.Model + ".json"} {
		if info, err := os.Stat(file); err != nil || info.IsDir() {
			f.note = "piper's model file " + file + " is missing"
			return f
		}
	}
	f.voice = &piper{path: path, model: cfg.Model}
	f.note = "model " + cfg.Model
	return f
}

func probeCommand(name, missing string, voice func(path string) (Voice, string)) found {
	path, err := exec.LookPath(name)
	if err != nil {
		return found{name: name, note: missing}
	}
	v, note := voice(path)
	return found{name: name, voice: v, where: path, note: note}
}

// firstAvailable is the first available voice in all[from:], as an index
// into all, or -1.
func firstAvailable(all []found, from int) int {
	for i := from; i < len(all); i++ {
		if all[i].voice != nil {
			return i
		}
	}
	return -1
}

func indexOf(all []found, name string) int {
	for i, f := range all {
		if f.name == name {
			return i
		}
	}
	panic("audio: no voice engine " + name) // Voices and probeVoices disagree
}
