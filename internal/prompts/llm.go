package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The LLM guide's prompt material, as files a reviewer can read:
// llm/safety.md and llm/persona.md are sent to the model as written, and
// llm/guard.md to the guard model that judges each reply;
// llm/phases.yaml, llm/sleep.yaml, llm/messages.yaml and
// llm/vocabulary.yaml explain themselves in comments.
//
//go:embed llm/safety.md llm/persona.md llm/guard.md llm/phases.yaml llm/sleep.yaml llm/messages.yaml llm/vocabulary.yaml
var llmFiles embed.FS

// LLM is the LLM guide's prompt material.
type LLM struct {
	Safety  string     // the safety rules, first in every call's instructions
	Persona string     // who the guide is and how it writes for the ear
	Guard   string     // the guard model's instructions: how to judge a reply's lines
	Phases  []LLMPhase // in session order, one per PhaseNames
	// SleepPhases are Phases as a sleep session gives them: sleep.yaml's
	// fields in place of the phase's own.
	SleepPhases []LLMPhase
	Language    string // the language every sentence is written in

	// User inputs, with placeholders for Fill.
	Begin     string // the session's first call
	Enter     string // the first call of a later phase: {phase}
	Continue  string // a further call within a phase: {phase}
	Length    string // how much this call writes: {sentences}, {remaining}, {phase}
	Step      string // where the journey stands: {where}
	Used      string // what was already said: {used}
	Intention string // the listener's intention, as a datum: {intention}
	Note      string // the previous reply could not be used: {note}
	Recap     string // what the listener last heard: {recap}
	Summary   string // a trimmed history's earlier part: {summary}

	// Instruction sections, with placeholders for Fill.
	Format         string // one sentence per line: {language}
	Breath         string // the breathing phase's tags: {rhythm}, {tags}
	Pause          string // the silence after each sentence: {pause}
	Ending         string // no ending words before resolution
	Waking         string // nothing that wakes, in a sleep session's resolution
	Journey        string // the journey's steps: {journey}, {steps}
	IntentionRules string // how the intention in the input is used

	// Body and Images are what the guide listens for in what was said.
	Body, Images []Term
}

// Term is something the model may mention: the name it is told it by,
// and the words that count as a mention.
type Term struct {
	Name  string
	Words []string
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
	return phaseNamed(l.Phases, name)
}

// PhaseFor returns the instructions for the phase called name in a
// waking session, or in a sleep session when sleep is true.
func (l *LLM) PhaseFor(name string, sleep bool) (LLMPhase, bool) {
	if sleep {
		return phaseNamed(l.SleepPhases, name)
	}
	return phaseNamed(l.Phases, name)
}

func phaseNamed(phases []LLMPhase, name string) (LLMPhase, bool) {
	for _, p := range phases {
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

// sleepPhaseFile is one entry of llm/sleep.yaml: the fields it gives
// replace the phase's own.
type sleepPhaseFile struct {
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
	Language       string `yaml:"language"`
	Begin          string `yaml:"begin"`
	Enter          string `yaml:"enter"`
	Continue       string `yaml:"continue"`
	Length         string `yaml:"length"`
	Step           string `yaml:"step"`
	Used           string `yaml:"used"`
	Intention      string `yaml:"intention"`
	Note           string `yaml:"note"`
	Recap          string `yaml:"recap"`
	Summary        string `yaml:"summary"`
	Format         string `yaml:"format"`
	Breath         string `yaml:"breath"`
	Pause          string `yaml:"pause"`
	Ending         string `yaml:"ending"`
	Waking         string `yaml:"waking"`
	Journey        string `yaml:"journey"`
	IntentionRules string `yaml:"intention_rules"`
}

// vocabularyFile is the shape of llm/vocabulary.yaml: each entry is one
// name mapped to its words, comma-separated.
type vocabularyFile struct {
	Body   []map[string]string `yaml:"body"`
	Images []map[string]string `yaml:"images"`
}

// loadLLM reads the material from fsys, laid out as under llm/.
func loadLLM(fsys fs.FS) (*LLM, error) {
	l := &LLM{}
	for _, md := range []struct {
		path string
		dst  *string
	}{{"llm/safety.md", &l.Safety}, {"llm/persona.md", &l.Persona}, {"llm/guard.md", &l.Guard}} {
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
	l.Language = tidyBlock(msgs.Language)
	l.Begin, l.Enter, l.Continue = tidyBlock(msgs.Begin), tidyBlock(msgs.Enter), tidyBlock(msgs.Continue)
	l.Length, l.Step, l.Used = tidyBlock(msgs.Length), tidyBlock(msgs.Step), tidyBlock(msgs.Used)
	l.Intention, l.Note, l.Recap, l.Summary = tidyBlock(msgs.Intention), tidyBlock(msgs.Note), tidyBlock(msgs.Recap), tidyBlock(msgs.Summary)
	l.Format, l.Breath, l.Pause = tidyBlock(msgs.Format), tidyBlock(msgs.Breath), tidyBlock(msgs.Pause)
	l.Ending, l.Waking, l.Journey, l.IntentionRules = tidyBlock(msgs.Ending), tidyBlock(msgs.Waking), tidyBlock(msgs.Journey), tidyBlock(msgs.IntentionRules)
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
	var sleep []sleepPhaseFile
	if err := decodeStrict(fsys, "llm/sleep.yaml", &sleep); err != nil {
		return nil, err
	}
	sleepPhases, err := withSleep(phases, sleep)
	if err != nil {
		return nil, fmt.Errorf("prompts: llm/sleep.yaml: %w", err)
	}
	l.Phases, l.SleepPhases = llmPhases(phases), llmPhases(sleepPhases)

	var vocab vocabularyFile
	if err := decodeStrict(fsys, "llm/vocabulary.yaml", &vocab); err != nil {
		return nil, err
	}
	if l.Body, err = terms("body", vocab.Body); err != nil {
		return nil, fmt.Errorf("prompts: llm/vocabulary.yaml: %w", err)
	}
	if l.Images, err = terms("images", vocab.Images); err != nil {
		return nil, fmt.Errorf("prompts: llm/vocabulary.yaml: %w", err)
	}
	return l, nil
}

// llmPhases tidies the phases and fills each wind_down's {next_focus}.
func llmPhases(phases []llmPhaseFile) []LLMPhase {
	var out []LLMPhase
	for i, f := range phases {
		p := LLMPhase{Name: f.Name, Focus: tidyBlock(f.Focus), Tone: tidyBlock(f.Tone), Pacing: tidyBlock(f.Pacing),
			Guidance: tidyBlock(f.Guidance), Avoid: tidyBlock(f.Avoid), WindDown: tidyBlock(f.WindDown)}
		if i+1 < len(phases) {
			p.WindDown = strings.Replace(p.WindDown, nextFocus, tidyBlock(phases[i+1].Focus), 1)
		}
		out = append(out, p)
	}
	return out
}

// withSleep is phases with sleep.yaml's fields in place of their own,
// checked as phases.yaml is.
func withSleep(phases []llmPhaseFile, sleep []sleepPhaseFile) ([]llmPhaseFile, error) {
	out := append([]llmPhaseFile(nil), phases...)
	for _, s := range sleep {
		i := slices.Index(PhaseNames[:], s.Name)
		if i < 0 {
			return nil, fmt.Errorf("%q is not a phase", s.Name)
		}
		p := &out[i]
		for _, f := range []struct {
			dst *string
			src string
		}{
			{&p.Focus, s.Focus}, {&p.Tone, s.Tone}, {&p.Pacing, s.Pacing},
			{&p.Guidance, s.Guidance}, {&p.Avoid, s.Avoid}, {&p.WindDown, s.WindDown},
		} {
			if tidyBlock(f.src) != "" {
				*f.dst = f.src
			}
		}
	}
	if err := checkPhases(out); err != nil {
		return nil, err
	}
	return out, nil
}

// terms reads one list of the vocabulary: each entry one name and its
// words.
func terms(list string, entries []map[string]string) ([]Term, error) {
	var out []Term
	for i, e := range entries {
		if len(e) != 1 {
			return nil, fmt.Errorf("%s entry %d: want one name: its words", list, i+1)
		}
		for name, words := range e {
			t := Term{Name: strings.TrimSpace(name)}
			for w := range strings.SplitSeq(words, ",") {
				if w = strings.TrimSpace(w); w != "" {
					t.Words = append(t.Words, w)
				}
			}
			if t.Name == "" || len(t.Words) == 0 {
				return nil, fmt.Errorf("%s entry %d (%q) has no words", list, i+1, t.Name)
			}
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s is empty", list)
	}
	return out, nil
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
// carries each placeholder it is filled with, once.
func (l *LLM) checkMessages() error {
	for _, m := range []struct {
		key, text    string
		placeholders []string
	}{
		{"language", l.Language, nil},
		{"begin", l.Begin, nil},
		{"enter", l.Enter, []string{"{phase}"}},
		{"continue", l.Continue, []string{"{phase}"}},
		{"length", l.Length, []string{"{sentences}", "{remaining}", "{phase}"}},
		{"step", l.Step, []string{"{where}"}},
		{"used", l.Used, []string{"{used}"}},
		{"intention", l.Intention, []string{"{intention}"}},
		{"note", l.Note, []string{"{note}"}},
		{"recap", l.Recap, []string{"{recap}"}},
		{"summary", l.Summary, []string{"{summary}"}},
		{"format", l.Format, []string{"{language}"}},
		{"breath", l.Breath, []string{"{rhythm}", "{tags}"}},
		{"pause", l.Pause, []string{"{pause}"}},
		{"ending", l.Ending, nil},
		{"waking", l.Waking, nil},
		{"journey", l.Journey, []string{"{journey}", "{steps}"}},
		{"intention_rules", l.IntentionRules, nil},
	} {
		if m.text == "" {
			return fmt.Errorf("%s is missing or empty", m.key)
		}
		for _, ph := range m.placeholders {
			if strings.Count(m.text, ph) != 1 {
				return fmt.Errorf("%s must hold %s once", m.key, ph)
			}
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
