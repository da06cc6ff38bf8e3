package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// The LLM guide's prompt material, as files a reviewer can read:
// llm/safety.md and llm/persona.md are sent to the model as written;
// llm/phases.yaml and llm/messages.yaml explain themselves in comments.
//
//go:embed llm/safety.md llm/persona.md llm/phases.yaml llm/messages.yaml
var llmFiles embed.FS

// LLM is the LLM guide's prompt material.
type LLM struct {
	Safety  string     // the safety rules, first in every call's instructions
	Persona string     // who the guide is and how it writes for the ear
	Phases  []LLMPhase // in session order, one per PhaseNames

	// User inputs and instruction lines, with placeholders for Fill.
	Begin     string // the session's first call
	Enter     string // the first call of a later phase: {phase}
	Continue  string // a further call within a phase: {phase}
	Recap     string // what the listener last heard: {recap}
	Intention string // the listener's intention: {intention}
	Length    string // how much one call writes: {sentences}
}

// LLMPhase is one phase's instructions.
type LLMPhase struct {
	Name     string
	Focus    string // one line: what the phase is about
	Tone     string
	Pacing   string
	Guidance string // several lines: what to do
	Avoid    string // what belongs to other phases ("Do NOT …")
	// WindDown is sent for the phase's last few sentences: it leads toward
	// the next phase's focus (already filled in), and in resolution it is
	// the session's close.
	WindDown string
}

// Phase returns the instructions for the phase called name.
func (l *LLM) Phase(name string) (LLMPhase, bool) {
	for _, p := range l.Phases {
		if p.Name == name {
			return p, true
		}
	}
	return LLMPhase{}, false
}

// Fill replaces each {name} in template with vars[name]: {phase},
// {intention}, {recap}, {sentences}. Placeholders without a value and all
// other text stay as they are, and a value is never itself filled in, so
// an intention that happens to hold "{recap}" is said as written.
func Fill(template string, vars map[string]string) string {
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// nextFocus stands, in a wind_down, for the next phase's focus.
const nextFocus = "{next_focus}"

var llmMaterial = sync.OnceValues(func() (*LLM, error) { return loadLLM(llmFiles) })

// LoadLLM returns the embedded LLM prompts, parsed and checked once.
func LoadLLM() (*LLM, error) { return llmMaterial() }

// llmPhaseFile is one entry of llm/phases.yaml.
type llmPhaseFile struct {
	Name     string `yaml:"name"`
	Focus    string `yaml:"focus"`
	Tone     string `yaml:"tone"`
	Pacing   string `yaml:"pacing"`
	Guidance string `yaml:"guidance"`
	Avoid    string `yaml:"avoid"`
	WindDown string `yaml:"wind_down"`
}

// messagesFile is the shape of llm/messages.yaml.
type messagesFile struct {
	Begin     string `yaml:"begin"`
	Enter     string `yaml:"enter"`
	Continue  string `yaml:"continue"`
	Recap     string `yaml:"recap"`
	Intention string `yaml:"intention"`
	Length    string `yaml:"length"`
}

// loadLLM reads the material from fsys, laid out as under llm/.
func loadLLM(fsys fs.FS) (*LLM, error) {
	l := &LLM{}
	for _, md := range []struct {
		path string
		dst  *string
	}{{"llm/safety.md", &l.Safety}, {"llm/persona.md", &l.Persona}} {
		data, err := fs.ReadFile(fsys, md.path)
		if err != nil {
			return nil, err
		}
		if *md.dst = strings.TrimSpace(string(data)); *md.dst == "" {
			return nil, fmt.Errorf("prompts: %s is empty", md.path)
		}
	}

	var msgs messagesFile
	if err := decodeStrict(fsys, "llm/messages.yaml", &msgs); err != nil {
		return nil, err
	}
	l.Begin, l.Enter, l.Continue = tidyBlock(msgs.Begin), tidyBlock(msgs.Enter), tidyBlock(msgs.Continue)
	l.Recap, l.Intention, l.Length = tidyBlock(msgs.Recap), tidyBlock(msgs.Intention), tidyBlock(msgs.Length)
	if err := l.checkMessages(); err != nil {
		return nil, fmt.Errorf("prompts: llm/messages.yaml: %w", err)
	}

	var phases []llmPhaseFile
	if err := decodeStrict(fsys, "llm/phases.yaml", &phases); err != nil {
		return nil, err
	}
	if err := checkPhases(phases); err != nil {
		return nil, fmt.Errorf("prompts: llm/phases.yaml: %w", err)
	}
	for i, f := range phases {
		p := LLMPhase{Name: f.Name, Focus: tidyBlock(f.Focus), Tone: tidyBlock(f.Tone), Pacing: tidyBlock(f.Pacing),
			Guidance: tidyBlock(f.Guidance), Avoid: tidyBlock(f.Avoid), WindDown: tidyBlock(f.WindDown)}
		if i+1 < len(phases) {
			p.WindDown = strings.Replace(p.WindDown, nextFocus, tidyBlock(phases[i+1].Focus), 1)
		}
		l.Phases = append(l.Phases, p)
	}
	return l, nil
}

func decodeStrict(fsys fs.FS, path string, v any) error {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a misspelt key must not silently empty a field
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("prompts: %s: %w", path, err)
	}
	return nil
}

// checkMessages holds what the guide relies on: every message is there and
// carries the placeholder it is filled with.
func (l *LLM) checkMessages() error {
	for _, m := range []struct{ key, text, placeholder string }{
		{"begin", l.Begin, ""},
		{"enter", l.Enter, "{phase}"},
		{"continue", l.Continue, "{phase}"},
		{"recap", l.Recap, "{recap}"},
		{"intention", l.Intention, "{intention}"},
		{"length", l.Length, "{sentences}"},
	} {
		switch {
		case m.text == "":
			return fmt.Errorf("%s is missing or empty", m.key)
		case m.placeholder != "" && strings.Count(m.text, m.placeholder) != 1:
			return fmt.Errorf("%s must hold %s once", m.key, m.placeholder)
		}
	}
	return nil
}

// checkPhases holds the shape of phases.yaml: the five phases in order,
// every field written, the one-line fields on one line, and {next_focus}
// once in every wind_down that leads to a next phase.
func checkPhases(phases []llmPhaseFile) error {
	if len(phases) != len(PhaseNames) {
		return fmt.Errorf("%d phases, want %d (%s)", len(phases), len(PhaseNames), strings.Join(PhaseNames[:], ", "))
	}
	for i, f := range phases {
		if f.Name != PhaseNames[i] {
			return fmt.Errorf("phase %d is %q, want %q", i+1, f.Name, PhaseNames[i])
		}
		v := reflect.ValueOf(f)
		for j := range v.NumField() {
			if tidyBlock(v.Field(j).String()) == "" {
				return fmt.Errorf("%s: %s is missing or empty", f.Name, v.Type().Field(j).Tag.Get("yaml"))
			}
		}
		for key, text := range map[string]string{"focus": f.Focus, "tone": f.Tone, "pacing": f.Pacing, "wind_down": f.WindDown} {
			if strings.Contains(tidyBlock(text), "\n") {
				return fmt.Errorf("%s: %s must be one line", f.Name, key)
			}
		}
		n, want := strings.Count(f.WindDown, nextFocus), 1
		if i == len(phases)-1 {
			want = 0 // resolution leads nowhere: it closes the session
		}
		if n != want {
			return fmt.Errorf("%s: wind_down holds %s %d times, want %d", f.Name, nextFocus, n, want)
		}
	}
	return nil
}

// tidyBlock trims a YAML value: no trailing spaces on a line, no blank
// lines at either end.
func tidyBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
