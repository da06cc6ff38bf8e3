package audio

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// EspeakConfig chooses espeak-ng's voice. Voice is "" or "auto" (an
// installed mbrola English voice, else en-us+f2), or any voice espeak-ng
// lists (espeak-ng --voices, --voices=mb), with a +variant if wished:
// "en-gb", "en-us+klatt", "mb-us2".
type EspeakConfig struct{ Voice string }

// mbrolaEnglish are the mbrola voices that speak English natively, the
// one auto picks first: us1 is a calm female voice like lull's espeak-ng
// default; en1 lacks some diphones (it drops the /ɒ/ of "soften").
var mbrolaEnglish = []string{"mb-us1", "mb-us2", "mb-us3", "mb-en1"}

// espeakProbeTimeout bounds asking espeak-ng what it has: it answers in
// milliseconds.
const espeakProbeTimeout = 10 * time.Second

// espeakChoice is the voice espeak-ng will use, as -v takes it and as the
// listener named it, and whether it is an mbrola voice (recorded
// diphones: more natural than espeak-ng's own).
type espeakChoice struct {
	voice, name string
	mbrola      bool
}

// chooseEspeakVoice resolves the espeak.voice setting against what the
// espeak-ng at path has: an error says what is wrong and how to mend it.
func chooseEspeakVoice(path string, cfg EspeakConfig) (espeakChoice, error) {
	name := strings.TrimSpace(cfg.Voice)
	if name == "" || name == "auto" {
		for _, v := range mbrolaEnglish {
			if mbrolaWorks(path, v) {
				return espeakChoice{voice: v, name: v, mbrola: true}, nil
			}
		}
		return espeakChoice{voice: espeakVoice, name: espeakVoice}, nil
	}
	cat, err := listEspeakVoices(path)
	if err != nil {
		return espeakChoice{}, err
	}
	base, variant, hasVariant := strings.Cut(strings.ToLower(name), "+")
	v, ok := cat.voices[base]
	if !ok {
		return espeakChoice{}, fmt.Errorf("the config's espeak.voice %q is not a voice espeak-ng knows%s: espeak-ng --voices lists them all, --voices=mb the mbrola ones",
			name, closeMatches(base, cat.names()))
	}
	voice := v.file
	if hasVariant {
		vv, ok := cat.variants[variant]
		if !ok {
			return espeakChoice{}, fmt.Errorf("the config's espeak.voice %q: espeak-ng has no variant %q%s: espeak-ng --voices=variant lists them",
				name, variant, closeMatches(variant, sortedKeys(cat.variants)))
		}
		voice += "+" + vv
	}
	if v.mbrola && !mbrolaWorks(path, voice) {
		return espeakChoice{}, fmt.Errorf("the config's espeak.voice %q is an mbrola voice that is not installed here: %s", name, mbrolaInstall(v.file))
	}
	return espeakChoice{voice: voice, name: name, mbrola: v.mbrola}, nil
}

// mbrolaInstall is how a Debian or Ubuntu listener installs an mbrola
// voice: mb-us1 comes in mbrola-us1.
func mbrolaInstall(file string) string {
	db, _, _ := strings.Cut(strings.TrimPrefix(file[strings.LastIndex(file, "/")+1:], "mb-"), "-")
	return "sudo apt-get install mbrola mbrola-" + db + " (on Debian mbrola is in contrib and its voices in non-free; on Ubuntu in universe and multiverse)"
}

// mbrolaWorks reports whether espeak-ng speaks a word through an mbrola
// voice: it lists every mbrola voice whether installed or not, and needs
// both the mbrola program and the voice's data to speak.
func mbrolaWorks(path, voice string) bool {
	if _, err := exec.LookPath("mbrola"); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), espeakProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-v", voice, "--stdout")
	cmd.Stdin = strings.NewReader("calm")
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	return err == nil && len(out) > 44 // more than a WAV header
}

// espeakEntry is one voice espeak-ng lists.
type espeakEntry struct {
	file   string // as listed, which -v always takes: "gmw/en-US", "mb/mb-us1"
	mbrola bool
}

// espeakCatalog is what espeak-ng --voices lists, by every name a
// listener may give it in lower case (its file, the file's base name, its
// voice name, its language), and its variants' files by name likewise.
type espeakCatalog struct {
	voices   map[string]espeakEntry
	variants map[string]string
}

func (c *espeakCatalog) names() []string { return sortedKeys(c.voices) }

func listEspeakVoices(path string) (*espeakCatalog, error) {
	cat := &espeakCatalog{voices: map[string]espeakEntry{}, variants: map[string]string{}}
	for _, which := range []string{"--voices", "--voices=mb", "--voices=variant"} {
		ctx, cancel := context.WithTimeout(context.Background(), espeakProbeTimeout)
		cmd := exec.CommandContext(ctx, path, which)
		killGroup(cmd)
		cmd.WaitDelay = time.Second
		out, err := cmd.Output()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("espeak-ng could not list its voices (%s): %w", which, err)
		}
		parseEspeakVoices(out, cat)
	}
	if len(cat.voices) == 0 {
		return nil, fmt.Errorf("espeak-ng at %s lists no voices", path)
	}
	return cat, nil
}

// parseEspeakVoices reads espeak-ng's table: Pty, Language, Age/Gender,
// VoiceName, File, Other Languages. A name two voices share (a language)
// stays with the first listed: espeak-ng's own voices come before mbrola's.
func parseEspeakVoices(out []byte, cat *espeakCatalog) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) < 5 || f[0] == "Pty" {
			continue
		}
		file := f[4]
		base := file[strings.LastIndex(file, "/")+1:]
		names := []string{strings.ToLower(base), strings.ToLower(file), strings.ToLower(f[3]), strings.ToLower(f[1])}
		if f[1] == "variant" {
			for _, n := range names[:3] {
				if _, taken := cat.variants[n]; !taken {
					cat.variants[n] = base
				}
			}
			continue
		}
		e := espeakEntry{file: file, mbrola: strings.HasPrefix(file, "mb/")}
		for _, n := range names {
			if _, taken := cat.voices[n]; !taken {
				cat.voices[n] = e
			}
		}
	}
}

// closeMatches names the few known names nearest to a mistyped one, as
// " (did you mean a, b or c?)" — or nothing when none is near
// (human.Near says what is near).
func closeMatches(name string, known []string) string {
	near := human.Near(name, known)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + human.OrList(near[:min(len(near), 5)]) + "?)"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mbrolaReady reports whether espeak-ng here can speak through one of the
// mbrola English voices.
func mbrolaReady() bool {
	path, err := exec.LookPath("espeak-ng")
	if err != nil {
		return false
	}
	for _, v := range mbrolaEnglish {
		if mbrolaWorks(path, v) {
			return true
		}
	}
	return false
}
