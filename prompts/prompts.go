// Package prompts holds lull's words as data: the built-in guide's material
// (builtin/*.yaml, one file per phase), the LLM guide's prompts (llm/: the
// safety rules, the persona, each phase's instructions and the messages
// that ask for words), and the message shown instead of a session when an
// intention signals crisis (crisis.txt, plain text: it is printed as it is,
// in a terminal and in the TUI; every number in it is sourced in
// crisis_sources.md), and the words the crisis screen reads intentions with
// (crisis_concepts.txt). The files are meant to be read and reviewed by people
// who do not read Go.
package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed builtin/*.yaml
var builtinFiles embed.FS

// Crisis is shown instead of a session when an intention suggests the
// listener may be in danger: kindness, and where to find help.
//
//go:embed crisis.txt
var Crisis string

// CrisisConcepts is the crisis screen's vocabulary: the lists of words and
// phrases it reads an intention with (crisis_concepts.txt; the rules that
// combine them are in engine/crisis_rules.go).
//
//go:embed crisis_concepts.txt
var CrisisConcepts string

// Placeholder is replaced by the listener's intention in intention lines.
const Placeholder = "{intention}"

// PhaseNames are the built-in material's files, in the order a session
// runs them.
var PhaseNames = [...]string{"atmosphere", "breathing", "sensory", "relaxation", "resolution"}

// Material is the built-in guide's whole store of sentences.
type Material struct {
	Phases []*Phase // in session order
}

// Phase is the material for one phase. Each entry is one spoken sentence.
type Phase struct {
	Name      string
	Opening   []string // alternatives for the phase's first sentence
	Lines     []string // the body of the phase, in any order
	Intention []string // lines that weave in the intention, with Placeholder
	WindDown  []string // lines that lead toward the next phase (not resolution)
	Grounding *Grounding
	// KeepOrder says the lines are written in the order they should be said
	// (a body scan from the feet up): a session picks some, in file order.
	KeepOrder bool
}

// Grounding is how resolution brings the listener back: each step is a
// list of alternatives, and a session says one of each, in order.
type Grounding struct {
	FingersAndToes []string `yaml:"fingers_and_toes"`
	RoomSounds     []string `yaml:"room_sounds"`
	Surface        []string `yaml:"surface"`
	EyesOpen       []string `yaml:"eyes_open"`
	WarmClose      []string `yaml:"warm_close"`
}

// Steps lists the grounding steps in the order they are spoken.
func (g *Grounding) Steps() [][]string {
	return [][]string{g.FingersAndToes, g.RoomSounds, g.Surface, g.EyesOpen, g.WarmClose}
}

// StepNames name the grounding steps, in the order of Steps.
var StepNames = [...]string{"fingers_and_toes", "room_sounds", "surface", "eyes_open", "warm_close"}

// Phase returns the material for the phase called name.
func (m *Material) Phase(name string) (*Phase, bool) {
	for _, p := range m.Phases {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// phaseFile is the shape of builtin/<phase>.yaml.
type phaseFile struct {
	Opening   []string   `yaml:"opening"`
	Lines     []string   `yaml:"lines"`
	Intention []string   `yaml:"intention"`
	WindDown  []string   `yaml:"wind_down"`
	Grounding *Grounding `yaml:"grounding"`
	KeepOrder bool       `yaml:"keep_order"`
}

var builtin = sync.OnceValues(loadBuiltin)

// Builtin is the embedded material, parsed once.
func Builtin() (*Material, error) { return builtin() }

func loadBuiltin() (*Material, error) {
	m := &Material{}
	for _, name := range PhaseNames {
		p, err := loadPhase(name)
		if err != nil {
			return nil, err
		}
		m.Phases = append(m.Phases, p)
	}
	return m, nil
}

func loadPhase(name string) (*Phase, error) {
	path := "builtin/" + name + ".yaml"
	data, err := builtinFiles.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f phaseFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // a misspelt key must not silently empty a list
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("prompts: %s: %w", path, err)
	}
	p := &Phase{Name: name, Opening: tidy(f.Opening), Lines: tidy(f.Lines), Intention: tidy(f.Intention), WindDown: tidy(f.WindDown),
		Grounding: f.Grounding, KeepOrder: f.KeepOrder}
	if g := p.Grounding; g != nil {
		for _, s := range []*[]string{&g.FingersAndToes, &g.RoomSounds, &g.Surface, &g.EyesOpen, &g.WarmClose} {
			*s = tidy(*s)
		}
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("prompts: %s: %w", path, err)
	}
	return p, nil
}

// check holds the shape the composer relies on; the quality of the words
// is for the tests and for the people who read them.
func (p *Phase) check() error {
	if len(p.Lines) == 0 || len(p.Intention) == 0 {
		return fmt.Errorf("lines and intention must not be empty")
	}
	closing := p.Name == PhaseNames[len(PhaseNames)-1]
	switch {
	case closing && p.Grounding == nil:
		return fmt.Errorf("resolution needs its grounding steps")
	case closing && len(p.WindDown) > 0:
		return fmt.Errorf("resolution closes with grounding, not wind_down")
	case !closing && p.Grounding != nil:
		return fmt.Errorf("only resolution has grounding")
	case !closing && len(p.WindDown) == 0:
		return fmt.Errorf("wind_down must not be empty")
	}
	if p.Grounding != nil {
		for i, alts := range p.Grounding.Steps() {
			if len(alts) == 0 {
				return fmt.Errorf("grounding step %s is empty", StepNames[i])
			}
		}
	}
	for _, l := range p.Intention {
		if strings.Count(l, Placeholder) != 1 {
			return fmt.Errorf("intention line %q must hold %s once", l, Placeholder)
		}
	}
	return nil
}

// tidy trims each line: YAML folded text may carry a trailing newline.
func tidy(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.Join(strings.Fields(l), " "))
	}
	return out
}
