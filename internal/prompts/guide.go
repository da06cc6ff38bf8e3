package prompts

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The built-in guide's material (guide/): a skeleton every waking session
// follows, what a sleep session says instead, the journeys, and the kinds
// of intention. guide/README.md tells how to add a journey or a line.
//
//go:embed guide
var guideFiles embed.FS

// Phase names as the material's files spell them, in session order: the
// one list, which engine.Phase's String and ParsePhase read too.
var PhaseNames = [...]string{"atmosphere", "breathing", "sensory", "relaxation", "resolution"}

// Breath parts a breathing step may be spoken on.
const (
	BreathIn   = "in"
	BreathHold = "hold"
	BreathOut  = "out"
	BreathRest = "rest" // the pause after the out-breath
)

// Where a skeleton step takes its lines from, instead of its own.
const (
	FromJourney   = "journey"
	FromIntention = "intention"
)

// Quote is replaced by the listener's own words in an intention kind's
// quote lines; the counts in breathing lines are {in}, {hold}, {out}, {rest}.
const Quote = "{words}"

// Guide is the whole of the built-in guide's material.
type Guide struct {
	Skeleton Script // a waking session's shape
	Sleep    Script // a sleep session's: the phases it gives replace the skeleton's
	Journeys []*Journey
	Kinds    []*Kind // in priority order
	General  *Kind   // an intention that fits no kind
}

// Script is a session's words phase by phase; a nil phase is not given.
type Script [len(PhaseNames)]*PhaseScript

// PhaseScript is one phase: steps said in order, rests said between them
// when the phase is long, and lead steps that close it.
type PhaseScript struct {
	Steps []Step `yaml:"steps"`
	Rests []Step `yaml:"rests"`
	Lead  []Step `yaml:"lead"`
	// Brief is a journey's shorter path through the phase: fewer, broader
	// steps that still go from its start to its end, said in place of its
	// steps when the phase has less room than they need (a body scan in
	// five sweeps rather than fourteen stops).
	Brief []Step `yaml:"brief"`
	// Instead words some of the skeleton's steps in the journey's own way:
	// each is named after the step it stands in for, on the same part of
	// the breath (the counting journey's breathing hands back the rhythm's
	// counts without telling the listener to stop counting).
	Instead []Step `yaml:"instead"`
	// Orders are other orders the steps may be said in, each naming every
	// step once (journey and intention for the steps whose lines come from
	// there). A session takes the written order or one of these, so that
	// the evenings do not all open on the same sequence.
	Orders [][]string `yaml:"orders"`
}

// stepKey names a step in an order: its name, or where its lines come from.
func stepKey(st Step) string {
	if st.From != "" {
		return st.From
	}
	return st.Name
}

// InOrder is the steps in the written order (k = 0) or in Orders[k-1].
func (ps *PhaseScript) InOrder(k int) []Step {
	if k <= 0 || k > len(ps.Orders) {
		return ps.Steps
	}
	out := make([]Step, 0, len(ps.Steps))
	for _, key := range ps.Orders[k-1] {
		i := slices.IndexFunc(ps.Steps, func(st Step) bool { return stepKey(st) == key })
		out = append(out, ps.Steps[i]) // check made sure each is there
	}
	return out
}

// checkOrders: each order names each of the steps exactly once.
func checkOrders(ps *PhaseScript) error {
	want := make([]string, len(ps.Steps))
	for i, st := range ps.Steps {
		want[i] = stepKey(st)
	}
	slices.Sort(want)
	for i, o := range ps.Orders {
		got := slices.Sorted(slices.Values(o))
		if !slices.Equal(got, want) {
			return fmt.Errorf("orders #%d: %v names the steps %v, each once", i+1, o, want)
		}
	}
	return nil
}

// Step is one line of a script: a session says one of its variants.
type Step struct {
	Name     string   `yaml:"name"`
	Say      []string `yaml:"say"`
	From     string   `yaml:"from"`     // journey or intention: the lines come from there
	Optional bool     `yaml:"optional"` // may be left out when the phase is short
	Breath   string   `yaml:"breath"`   // breathing only: the part of the breath it is spoken on
	Needs    string   `yaml:"needs"`    // breathing only: hold or rest, when the rhythm has one
	SendOff  bool     `yaml:"send_off"` // resolution's one farewell, its last lead step
	// Releases hands the breath back to the listener: no rest line, with
	// its own cue to the breath, follows it in its phase.
	Releases bool `yaml:"releases"`
	// ShortPause keeps the silence after the line to a few seconds, and the
	// next step with it: a muscle tensed is released in the next line.
	ShortPause bool `yaml:"short_pause"`
	// Sometimes: the step is said in about one session in three, and
	// whenever the listener meets its journey for the first time. A line
	// that frames the session ("Later there is a lake…") is welcome news
	// once and an announcement when heard every day.
	Sometimes bool `yaml:"sometimes"`
}

// SaidWith reports whether the step is said with a breathing rhythm that
// has a hold at the top of the breath (hold) and a rest after the
// out-breath (rest): a step that needs one is said only when it is there.
func (st Step) SaidWith(hold, rest bool) bool {
	switch st.Needs {
	case BreathHold:
		return hold
	case BreathRest:
		return rest
	}
	return true
}

// Journey is one way through a session: what its sensory and relaxation
// phases do, and its touches on the others.
type Journey struct {
	Name      string `yaml:"name"`
	Title     string `yaml:"title"`
	About     string `yaml:"about"`
	SleepOnly bool   `yaml:"sleep_only"`
	Phases    Script `yaml:"-"`
	Sleep     Script `yaml:"-"` // a sleep session's replacements
}

// Kind is a kind of intention: the words that say it, the journeys that
// suit it, and lines written for it.
type Kind struct {
	Name     string              `yaml:"name"`
	About    string              `yaml:"about"`
	Match    []string            `yaml:"match"`
	Sleep    bool                `yaml:"sleep"` // proposes a sleep session
	Journeys []string            `yaml:"journeys"`
	Lines    map[string][]string `yaml:"lines"`
	// ResolutionSleep replaces the resolution lines in a sleep session
	// (written among the lines, as resolution_sleep).
	ResolutionSleep []string            `yaml:"-"`
	Quote           map[string][]string `yaml:"quote"`
}

// Scripts are every script of the material: the skeleton, the sleep
// session's, and each journey's, waking and for sleep.
func (g *Guide) Scripts() []Script {
	out := []Script{g.Skeleton, g.Sleep}
	for _, j := range g.Journeys {
		out = append(out, j.Phases, j.Sleep)
	}
	return out
}

// partNames name a phase script's parts, in the order of Parts.
var partNames = [...]string{"steps", "rests", "lead", "brief", "instead"}

// Parts are a phase script's steps, rests, lead, brief and instead, in
// that order.
func (ps *PhaseScript) Parts() [][]Step {
	return [][]Step{ps.Steps, ps.Rests, ps.Lead, ps.Brief, ps.Instead}
}

// InsteadOf is the journey's wording of the skeleton step called name (a
// journey silent in a phase has none).
func (ps *PhaseScript) InsteadOf(name string) (Step, bool) {
	if ps == nil {
		return Step{}, false
	}
	i := slices.IndexFunc(ps.Instead, func(st Step) bool { return st.Name == name })
	if i < 0 {
		return Step{}, false
	}
	return ps.Instead[i], true
}

// Over is a phase script with an override's parts laid over it: each part
// (steps, rests, lead, brief, instead) the override gives replaces the base's. Either may
// be nil. It is how a sleep session's parts replace a waking one's.
func Over(base, over *PhaseScript) PhaseScript {
	var ps PhaseScript
	if base != nil {
		ps = *base
	}
	if over != nil {
		if over.Steps != nil {
			ps.Steps, ps.Orders = over.Steps, over.Orders // orders go with the steps they order
		}
		if over.Rests != nil {
			ps.Rests = over.Rests
		}
		if over.Lead != nil {
			ps.Lead = over.Lead
		}
		if over.Steps != nil || over.Brief != nil {
			ps.Brief = over.Brief // a brief goes with the steps it shortens
		}
		if over.Instead != nil {
			ps.Instead = over.Instead
		}
	}
	return ps
}

// Journey returns the journey called name.
func (g *Guide) Journey(name string) (*Journey, bool) {
	i := slices.IndexFunc(g.Journeys, func(j *Journey) bool { return j.Name == name })
	if i < 0 {
		return nil, false
	}
	return g.Journeys[i], true
}

// PhaseIndex is the index of a phase name in PhaseNames, or -1.
func PhaseIndex(name string) int { return slices.Index(PhaseNames[:], name) }

var guideMaterial = sync.OnceValues(func() (*Guide, error) { return LoadGuide(guideFiles, "guide") })

// BuiltinGuide is the embedded material, parsed and checked once.
func BuiltinGuide() (*Guide, error) { return guideMaterial() }

// Returning are the lines that welcome a listener back into a resumed
// session (guide/returning.yaml): per kind of session ("waking", "sleep"),
// per phase name, its variants.
type Returning map[string]map[string][]string

var returningLines = sync.OnceValues(func() (Returning, error) {
	var r Returning
	if err := decodeStrict(guideFiles, "guide/returning.yaml", &r); err != nil {
		return nil, err
	}
	for _, kind := range []string{"waking", "sleep"} {
		for _, p := range PhaseNames {
			if len(r[kind][p]) == 0 {
				return nil, fmt.Errorf("prompts: returning.yaml: no %s line for %s", kind, p)
			}
		}
	}
	return r, nil
})

// ReturningLines are the embedded lines that welcome a listener back.
func ReturningLines() (Returning, error) { return returningLines() }

// scriptFile is the shape of skeleton.yaml and sleep.yaml.
type scriptFile struct {
	Phases map[string]*PhaseScript `yaml:"phases"`
}

// journeyFile is the shape of journeys/<name>.yaml.
type journeyFile struct {
	Journey `yaml:",inline"`
	Phases  map[string]*PhaseScript `yaml:"phases"`
	Sleep   map[string]*PhaseScript `yaml:"sleep"`
}

// kindsFile is the shape of intentions.yaml.
type kindsFile struct {
	Kinds   []*Kind `yaml:"kinds"`
	General *Kind   `yaml:"general"`
}

// LoadGuide reads the material from dir in fsys and checks it.
func LoadGuide(fsys fs.FS, dir string) (*Guide, error) {
	g := &Guide{}
	var err error
	var sk, sl scriptFile
	if err = decodeStrict(fsys, path.Join(dir, "skeleton.yaml"), &sk); err != nil {
		return nil, err
	}
	if g.Skeleton, err = script(sk.Phases); err != nil {
		return nil, fmt.Errorf("prompts: skeleton.yaml: %w", err)
	}
	if err = decodeStrict(fsys, path.Join(dir, "sleep.yaml"), &sl); err != nil {
		return nil, err
	}
	if g.Sleep, err = script(sl.Phases); err != nil {
		return nil, fmt.Errorf("prompts: sleep.yaml: %w", err)
	}
	names, err := fs.Glob(fsys, path.Join(dir, "journeys", "*.yaml"))
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		var jf journeyFile
		if err := decodeStrict(fsys, name, &jf); err != nil {
			return nil, err
		}
		j := jf.Journey
		if j.Phases, err = script(jf.Phases); err == nil {
			j.Sleep, err = script(jf.Sleep)
		}
		if err != nil {
			return nil, fmt.Errorf("prompts: %s: %w", name, err)
		}
		if want := strings.TrimSuffix(path.Base(name), ".yaml"); j.Name != want {
			return nil, fmt.Errorf("prompts: %s: name %q must be the file's name, %q", name, j.Name, want)
		}
		g.Journeys = append(g.Journeys, &j)
	}
	var kf kindsFile
	if err := decodeStrict(fsys, path.Join(dir, "intentions.yaml"), &kf); err != nil {
		return nil, err
	}
	g.Kinds, g.General = kf.Kinds, kf.General
	if g.General != nil {
		g.General.Name = "general"
	}
	for _, k := range append(slices.Clone(g.Kinds), g.General) {
		if k != nil {
			k.ResolutionSleep = k.Lines["resolution_sleep"]
			delete(k.Lines, "resolution_sleep")
		}
	}
	g.tidy()
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("prompts: %w", err)
	}
	return g, nil
}

// script orders a file's phases; an unknown phase name is an error.
func script(phases map[string]*PhaseScript) (Script, error) {
	var s Script
	for name, ps := range phases {
		i := PhaseIndex(name)
		if i < 0 {
			return s, fmt.Errorf("unknown phase %q (want one of %s)", name, strings.Join(PhaseNames[:], ", "))
		}
		if ps == nil {
			ps = &PhaseScript{}
		}
		s[i] = ps
	}
	return s, nil
}

// tidy trims every line: YAML folded text may carry a trailing newline.
func (g *Guide) tidy() {
	for _, sc := range g.Scripts() {
		for _, ps := range sc {
			if ps == nil {
				continue
			}
			for _, list := range ps.Parts() {
				for i := range list {
					list[i].Say = tidy(list[i].Say)
				}
			}
		}
	}
	for _, k := range append(slices.Clone(g.Kinds), g.General) {
		if k == nil {
			continue
		}
		for p, l := range k.Lines {
			k.Lines[p] = tidy(l)
		}
		for p, l := range k.Quote {
			k.Quote[p] = tidy(l)
		}
		k.ResolutionSleep = tidy(k.ResolutionSleep)
	}
}

// tidy trims each line: YAML folded text may carry a trailing newline.
func tidy(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.Join(strings.Fields(l), " "))
	}
	return out
}

var (
	// innerStop is a sentence ending inside a line: the engine would hear
	// two sentences where the material means one.
	innerStop = regexp.MustCompile(`[.!?;…]\s|\.\.`)
	// placeholder is any {word} in a line.
	placeholder = regexp.MustCompile(`\{[a-z]+\}`)
	countWords  = []string{"{in}", "{hold}", "{out}", "{rest}"}
)

// check holds the shape the guide relies on; the quality of the words is
// for the tests and for the people who read them.
func (g *Guide) check() error {
	if err := checkScript(g.Skeleton, "skeleton.yaml", true); err != nil {
		return err
	}
	for i, ps := range g.Skeleton {
		if ps == nil {
			return fmt.Errorf("skeleton.yaml: the %s phase is missing", PhaseNames[i])
		}
	}
	if err := checkScript(g.Sleep, "sleep.yaml", true); err != nil {
		return err
	}
	res := len(PhaseNames) - 1
	for _, s := range []struct {
		file string
		ps   *PhaseScript
	}{{"skeleton.yaml", g.Skeleton[res]}, {"sleep.yaml", g.Sleep[res]}} {
		if s.ps == nil {
			continue
		}
		if n := len(s.ps.Lead); n == 0 || !s.ps.Lead[n-1].SendOff {
			return fmt.Errorf("%s: resolution's last lead step must be its send_off", s.file)
		}
	}
	if len(g.Journeys) == 0 {
		return fmt.Errorf("journeys/: no journey")
	}
	for _, j := range g.Journeys {
		file := "journeys/" + j.Name + ".yaml"
		if j.Title == "" {
			return fmt.Errorf("%s: a journey needs a title", file)
		}
		if err := checkScript(j.Phases, file, false); err != nil {
			return err
		}
		if err := checkScript(j.Sleep, file+" (sleep)", false); err != nil {
			return err
		}
		if err := g.checkInstead(j, file); err != nil {
			return err
		}
	}
	if g.General == nil {
		return fmt.Errorf("intentions.yaml: general is missing")
	}
	seen := map[string]bool{}
	for _, k := range g.Kinds {
		if k.Name == "" || seen[k.Name] {
			return fmt.Errorf("intentions.yaml: kind %q is unnamed or named twice", k.Name)
		}
		seen[k.Name] = true
		if len(k.Match) == 0 || len(k.Journeys) == 0 {
			return fmt.Errorf("intentions.yaml: kind %s needs match and journeys", k.Name)
		}
		for _, name := range k.Journeys {
			j, ok := g.Journey(name)
			if !ok {
				return fmt.Errorf("intentions.yaml: kind %s names journey %q, which does not exist", k.Name, name)
			}
			if j.SleepOnly && !k.Sleep {
				return fmt.Errorf("intentions.yaml: kind %s names %s, a journey for sleep only", k.Name, name)
			}
		}
	}
	for _, k := range append(slices.Clone(g.Kinds), g.General) {
		if err := checkKind(k); err != nil {
			return fmt.Errorf("intentions.yaml: %s: %w", k.Name, err)
		}
	}
	return nil
}

func checkKind(k *Kind) error {
	for p, lines := range k.Lines {
		if PhaseIndex(p) < 0 {
			return fmt.Errorf("lines for unknown phase %q", p)
		}
		if err := checkLines(lines, false, ""); err != nil {
			return err
		}
	}
	if err := checkLines(k.ResolutionSleep, false, ""); err != nil {
		return err
	}
	for p, lines := range k.Quote {
		if PhaseIndex(p) < 0 {
			return fmt.Errorf("quote lines for unknown phase %q", p)
		}
		for _, l := range lines {
			if strings.Count(l, Quote) != 1 {
				return fmt.Errorf("quote line %q must hold %s once", l, Quote)
			}
		}
		if err := checkLines(lines, false, Quote); err != nil {
			return err
		}
	}
	return nil
}

// checkInstead: a journey words in its own way only steps the skeleton
// (or a sleep session's script) has, on the same part of the breath.
func (g *Guide) checkInstead(j *Journey, file string) error {
	for _, s := range []Script{j.Phases, j.Sleep} {
		for i, ps := range s {
			if ps == nil {
				continue
			}
			var own []Step
			for _, base := range []*PhaseScript{g.Skeleton[i], g.Sleep[i]} {
				if base != nil {
					own = append(own, base.Steps...)
				}
			}
			for _, st := range ps.Instead {
				k := slices.IndexFunc(own, func(o Step) bool { return o.Name == st.Name })
				if k < 0 {
					return fmt.Errorf("%s: %s instead %q: the skeleton has no such step", file, PhaseNames[i], st.Name)
				}
				if own[k].Breath != st.Breath || own[k].Needs != st.Needs {
					return fmt.Errorf("%s: %s instead %q: say it on the step's own part of the breath (breath: %q)", file, PhaseNames[i], st.Name, own[k].Breath)
				}
			}
		}
	}
	return nil
}

func checkScript(s Script, file string, skeleton bool) error {
	for i, ps := range s {
		if ps == nil {
			continue
		}
		phase := PhaseNames[i]
		breathing := phase == "breathing"
		if len(ps.Orders) > 0 && !skeleton {
			return fmt.Errorf("%s: %s: orders: belong to the skeleton and sleep.yaml", file, phase)
		}
		if err := checkOrders(ps); err != nil {
			return fmt.Errorf("%s: %s %w", file, phase, err)
		}
		names := map[string]bool{}
		for n, list := range ps.Parts() {
			part := partNames[n]
			for k, st := range list {
				where := fmt.Sprintf("%s: %s %s #%d", file, phase, part, k+1)
				if st.Name != "" {
					if names[st.Name] {
						return fmt.Errorf("%s: step name %q used twice", where, st.Name)
					}
					names[st.Name] = true
				}
				if err := checkStep(st, part, breathing, skeleton); err != nil {
					return fmt.Errorf("%s (%s): %w", where, st.Name, err)
				}
				if st.SendOff && (part != "lead" || phase != "resolution" || k != len(list)-1) {
					return fmt.Errorf("%s: send_off belongs to resolution's last lead step", where)
				}
			}
		}
	}
	return nil
}

func checkStep(st Step, part string, breathing, skeleton bool) error {
	if st.From != "" {
		switch {
		case !skeleton:
			return fmt.Errorf("from: is for the skeleton and sleep.yaml")
		case part != "steps" && !(part == "lead" && st.From == FromIntention):
			return fmt.Errorf("from: belongs among the steps (from: intention also in the lead)")
		case st.From != FromJourney && st.From != FromIntention:
			return fmt.Errorf("from: %q: want journey or intention", st.From)
		case len(st.Say) > 0:
			return fmt.Errorf("a from: step has no lines of its own")
		}
		return nil
	}
	if st.ShortPause && part != "steps" && part != "brief" {
		return fmt.Errorf("short_pause belongs to a step, which its next step follows")
	}
	if part == "brief" && (skeleton || breathing) {
		return fmt.Errorf("brief: is a journey's shorter path through sensory or relaxation")
	}
	if part == "instead" && skeleton {
		return fmt.Errorf("instead: is a journey's wording of a skeleton step")
	}
	if (part == "steps" || part == "brief" || part == "instead") && st.Name == "" {
		return fmt.Errorf("a step needs a name")
	}
	if len(st.Say) == 0 {
		return fmt.Errorf("no lines to say")
	}
	switch {
	case breathing && st.Breath != BreathIn && st.Breath != BreathHold && st.Breath != BreathOut && st.Breath != BreathRest:
		return fmt.Errorf("breath: %q: every breathing line says its part of the breath (in, hold, out or rest)", st.Breath)
	case !breathing && (st.Breath != "" || st.Needs != ""):
		return fmt.Errorf("breath: and needs: belong to the breathing phase")
	case st.Needs != "" && st.Needs != BreathHold && st.Needs != BreathRest:
		return fmt.Errorf("needs: %q: want hold or rest", st.Needs)
	}
	allowed := ""
	if breathing {
		allowed = "counts"
	}
	return checkLines(st.Say, breathing, allowed)
}

// checkLines holds what every line must be: one sentence, and no
// placeholder but the ones its place fills in.
func checkLines(lines []string, breathing bool, allowed string) error {
	for _, l := range lines {
		if l == "" {
			return fmt.Errorf("an empty line")
		}
		if innerStop.MatchString(l) || strings.ContainsAny(strings.TrimRight(l, ".!?"), "!?;…") {
			return fmt.Errorf("%q: one sentence per line, with no ellipsis or semicolon", l)
		}
		for _, ph := range placeholder.FindAllString(l, -1) {
			ok := ph == allowed || (allowed == "counts" && slices.Contains(countWords, ph))
			if !ok {
				return fmt.Errorf("%q: %s has no place here", l, ph)
			}
		}
	}
	return nil
}
