package audio

import "runtime"

// Advice is a local voice that would sound better than the best one this
// machine has, and how to get it.
type Advice struct {
	Voice   string
	Why     string
	Install string
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
		Install: "install piper (https://github.com/rhasspy/piper) and an English voice model (.onnx with its .onnx.json), then set piper.binary and piper.model in the config"})
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
