package audio

import (
	"os/exec"
	"runtime"
)

// Advice is a local voice that would sound better than the best one this
// machine has, and how to get it.
type Advice struct {
	Voice   string
	Why     string
	Install string
	// Config is what to add to config.yaml for it, as YAML; "" when the
	// install is all there is to do.
	Config string
}

// Local voices by how natural they sound, best first, by how they make
// speech: a neural model (piper), Apple's own (say), recorded human
// diphones joined by mbrola, flite's statistical slt voice, and
// espeak-ng's formant synthesis. auto prefers them in this order.
const (
	rankPiper = iota
	rankSay
	rankMbrola
	rankFlite
	rankEspeak
	rankNone
)

// mbrolaPackages is what brings espeak-ng an mbrola English voice on
// Debian and Ubuntu.
const mbrolaPackages = "sudo apt-get install espeak-ng mbrola mbrola-us1 (Debian: mbrola is in contrib and its voices in non-free, so enable both; Ubuntu: universe and multiverse)"

// AdviseVoices lists the local voices that would sound better than the
// best one installed, best first, each with how to install it. Nothing
// when lull already has the best it knows of.
func AdviseVoices(cfg VoiceConfig) []Advice {
	best := rankNone
	installed := map[string]bool{}
	explicitEspeak := false
	for _, f := range probeVoices(cfg) {
		if f.remote {
			continue
		}
		installed[f.name] = f.where != "" && f.name != "piper"
		if f.voice == nil {
			continue
		}
		best = min(best, rankOf(f))
		if f.name == "espeak-ng" && !f.mbrola {
			explicitEspeak = cfg.Espeak.Voice != "" && cfg.Espeak.Voice != "auto"
		}
	}
	var out []Advice
	add := func(rank int, a Advice) {
		if rank < best {
			out = append(out, a)
		}
	}
	add(rankPiper, Advice{Voice: "piper", Why: "a neural voice: the most natural local voice lull knows",
		Install: "install piper (https://github.com/rhasspy/piper) and an English voice model (.onnx with its .onnx.json, such as en_US-amy-medium), then add to the config:",
		Config:  piperSnippet(cfg.Piper)})
	if cfg.Speech.BaseURL == "" && cfg.Speech.APIKey == "" {
		// A neural voice on this machine too, through the speech adapter
		// OpenAI's voice uses; auto prefers a speech server once it is set.
		add(rankPiper, Advice{Voice: "Kokoro", Why: "a neural voice served on this machine, spoken to as OpenAI's speech API is",
			Install: "run Kokoro-FastAPI (docker run -p 8880:8880 ghcr.io/remsky/kokoro-fastapi-cpu), then add to the config:",
			Config:  kokoroSnippet})
	}
	if runtime.GOOS == "darwin" {
		return out // say is always there; the rest sound worse
	}
	mbrola := Advice{Voice: "espeak-ng with mbrola", Why: "recorded human diphones instead of espeak-ng's formants", Install: mbrolaPackages}
	if explicitEspeak && mbrolaReady() {
		mbrola.Install = "mbrola is installed: set espeak.voice to auto (or mb-us1) in the config"
	}
	add(rankMbrola, mbrola)
	if !installed["flite"] {
		add(rankFlite, Advice{Voice: "flite", Why: "its slt voice is warmer than espeak-ng's own", Install: "sudo apt-get install flite"})
	}
	if !installed["espeak-ng"] {
		add(rankEspeak, Advice{Voice: "espeak-ng", Why: "plain, but everywhere", Install: "sudo apt-get install espeak-ng"})
	}
	return out
}

// rankOf is where an available local voice stands.
func rankOf(f found) int {
	switch f.name {
	case "piper":
		return rankPiper
	case "say":
		return rankSay
	case "flite":
		return rankFlite
	case "espeak-ng":
		if f.mbrola {
			return rankMbrola
		}
		return rankEspeak
	}
	return rankNone
}

// kokoroSnippet sets up Kokoro-FastAPI as the speech server: its default
// port, its model and one of its voices (af_bella, af_heart, bf_emma…).
const kokoroSnippet = `speech:
  base_url: http://localhost:8880/v1
  model: kokoro
  voice: af_sky
  format: wav`

// piperSnippet is the config that points at piper: the binary as set, or
// as found on PATH, and a model for the listener to fill in.
func piperSnippet(cfg PiperConfig) string {
	binary := cfg.Binary
	if binary == "" {
		binary = "/path/to/piper"
		if path, err := exec.LookPath("piper"); err == nil {
			binary = path
		}
	}
	model := cfg.Model
	if model == "" {
		model = "/path/to/en_US-amy-medium.onnx"
	}
	return "piper:\n  binary: " + binary + "\n  model: " + model
}
