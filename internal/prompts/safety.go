package prompts

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The safety screen's rules (safety/): lists of words and phrases and the
// rules that combine them, one file per category and common.txt for the
// lists every category uses. safety/README.md tells how to read and change
// them; the matcher that applies them is engine/safety*.go.
//
// The corpora the classifier is trained from (safety/corpus/) are not
// embedded: only what they taught is (package safety's model).
//
//go:embed safety/*.txt safety/vocabulary/*.txt
var safetyFiles embed.FS

// EnglishWords is every English word, one a line, sorted, lower case,
// without apostrophes (safety/english/, from SCOWL): the safety screen
// tells a word of another language, or of none, by its absence.
//
//go:embed safety/english/words.txt
var EnglishWords string

// SafetyRules are the safety screen's lists and rules, as written.
type SafetyRules struct {
	Lists []SafetyList
	Rules []SafetyRule // in file order, categories in file-name order
}

// SafetyList is a named list of phrases.
type SafetyList struct {
	Name  string
	About string
	// Phrases are the list's phrases word by word. A word "[NAME]" is any
	// phrase of the list NAME; "=word" is the word only as written.
	Phrases [][]string
	// Except are phrases, written "except …", in which the list's own are
	// not there: IF's "if" is no condition in "if you like".
	Except [][]string
	At     string // file:line where the list starts, for messages
}

// SafetyRule looks for its lists, in order, in a sentence; its conditions
// say when what it found counts.
type SafetyRule struct {
	Category string // the name of its file, without .txt
	Name     string
	Find     []string // list names, found in this order
	// Need, when above zero, makes Find a set: the rule finds at least
	// Need of its lists, in any order ("3 of A, B, C, D").
	Need  int
	Conds []SafetyCond
	At    string // file:line
}

// SafetyCond is one condition of a rule.
type SafetyCond struct {
	Kind   CondKind
	List   string        // the list a With or Unless… condition names
	Places []SafetyPlace // where OnlyIn and ExceptIn apply
	Words  int           // how far apart Within allows
}

// CondKind is what a condition asks.
type CondKind int

const (
	With          CondKind = iota // the list is in the sentence
	Unless                        // the list is nowhere in the sentence
	UnlessBefore                  // … nowhere just before what was found, in its part
	UnlessAfter                   // … nowhere just after what was found, in its part
	UnlessNear                    // … nowhere just before or after it, in its part
	UnlessBetween                 // … nowhere between the first thing found and the last
	InOnePart                     // all that was found is in one part of the sentence
	Within                        // each thing found is at most Words words after the one before
	OnlyIn                        // the rule applies only in these places
	ExceptIn                      // the rule applies everywhere but these places
)

// SafetyPlace is a place in a session: a phase, a kind of session, or both.
type SafetyPlace struct {
	Phase   string // one of PhaseNames, or "" for any phase
	Session string // "sleep", "waking", or "" for either
}

// Lists with a meaning of their own: numbers the screen reads itself, the
// small words a phrase steps over, figures of speech.
const (
	ListNumber         = "NUMBER"
	ListMoreThanHold   = "MORE THAN A HOLD"
	ListMoreThanBreath = "MORE THAN A BREATH"
	ListGap            = "GAP"
	ListFigures        = "FIGURES"
)

// numberLists are the lists the screen reads without a file.
var numberLists = []string{ListNumber, ListMoreThanHold, ListMoreThanBreath}

// IsNumberList reports whether name is a list of numbers the screen reads
// itself.
func IsNumberList(name string) bool { return slices.Contains(numberLists, name) }

// commonFile holds lists only: rules belong to a category's file.
const commonFile = "common.txt"

// SafetySource is the rules' files as written, in name order: what a
// model trained on their lists must be trained again after.
func SafetySource() []byte {
	names, _ := fs.Glob(safetyFiles, "safety/*.txt")
	slices.Sort(names)
	var out []byte
	for _, n := range names {
		data, _ := fs.ReadFile(safetyFiles, n)
		out = append(out, n...)
		out = append(out, data...)
	}
	return out
}

// Safety is the embedded safety screen's rules, parsed and checked. Each
// call parses them afresh: the engine compiles them once and then needs
// only the compiled screen, so a kept copy would be half a megabyte held
// for the life of every session.
func Safety() (*SafetyRules, error) { return LoadSafety(safetyFiles, "safety") }

// LoadSafety reads the safety screen's rules from dir in fsys: every .txt
// file, common.txt first, then the categories in name order.
func LoadSafety(fsys fs.FS, dir string) (*SafetyRules, error) {
	sr := &SafetyRules{}
	err := eachText(fsys, dir, "safety rules", commonFile, func(name, text string) error {
		if err := sr.parse(path.Base(name), text); err != nil {
			return fmt.Errorf("prompts: safety/%w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := sr.check(); err != nil {
		return nil, fmt.Errorf("prompts: safety/%w", err)
	}
	return sr, nil
}

func (sr *SafetyRules) parse(file, text string) error {
	category := strings.TrimSuffix(file, ".txt")
	var list *SafetyList
	described := false
	for i, line := range strings.Split(text, "\n") {
		at := fmt.Sprintf("%s:%d", file, i+1)
		line = strings.TrimSpace(line)
		if j := strings.Index(line, "#"); j >= 0 {
			line = strings.TrimSpace(line[:j])
		}
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "rule "):
			if file == commonFile {
				return fmt.Errorf("%s: rules belong in a category's file, not in %s", at, commonFile)
			}
			r, err := parseRule(strings.TrimPrefix(line, "rule "))
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			r.Category, r.At = category, at
			sr.Rules = append(sr.Rules, r)
			list = nil
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && strings.Count(line, "[") == 1:
			name := strings.TrimSpace(line[1 : len(line)-1])
			if err := checkListName(name); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			sr.Lists = append(sr.Lists, SafetyList{Name: name, At: at})
			list, described = &sr.Lists[len(sr.Lists)-1], false
		case list == nil:
			return fmt.Errorf("%s: %q is neither in a [LIST] nor a rule: start a list with [NAME] on its own line, or a rule with \"rule name: …\"", at, line)
		case !described:
			list.About, described = line, true
		case strings.HasPrefix(line, "also [") && list != nil && described:
			// "also [NAME]": every phrase of another list is one of this one's.
			words, err := parsePhrase(strings.TrimPrefix(line, "also "))
			if err != nil || len(words) != 1 {
				return fmt.Errorf("%s: %q: write also [NAME] to take in another list", at, line)
			}
			list.Phrases = append(list.Phrases, words)
		case strings.HasPrefix(line, "except "):
			words, err := parsePhrase(strings.TrimPrefix(line, "except "))
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			list.Except = append(list.Except, words)
		default:
			words, err := parsePhrase(line)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			list.Phrases = append(list.Phrases, words)
		}
	}
	return nil
}

func checkListName(name string) error {
	if name == "" {
		return fmt.Errorf("a list needs a name: [NAME]")
	}
	for _, r := range name {
		if !unicode.IsUpper(r) && r != ' ' && r != '-' {
			return fmt.Errorf("[%s]: write a list's name in capital letters", name)
		}
	}
	return nil
}

// parsePhrase splits a phrase into words, keeping a "[NAME]" whole.
func parsePhrase(line string) ([]string, error) {
	var words []string
	for rest := line; rest != ""; rest = strings.TrimSpace(rest) {
		if strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]")
			if end < 0 {
				return nil, fmt.Errorf("%q: a [ without its ]", line)
			}
			name := strings.TrimSpace(rest[1:end])
			if err := checkListName(name); err != nil {
				return nil, fmt.Errorf("%q: %w", line, err)
			}
			words = append(words, "["+name+"]")
			rest = rest[end+1:]
			continue
		}
		w, after, _ := strings.Cut(rest, " ")
		if j := strings.Index(w, "["); j > 0 {
			w, after = w[:j], w[j:]+" "+after
		}
		word := strings.TrimPrefix(w, "=")
		if word == "" {
			return nil, fmt.Errorf("%q: a lone =", line)
		}
		for _, r := range word {
			if !unicode.IsLower(r) && !unicode.IsDigit(r) {
				return nil, fmt.Errorf("%q: write words in lower case letters, without apostrophes or hyphens (%q)", line, w)
			}
		}
		words = append(words, w)
		rest = after
	}
	return words, nil
}

// parseRule reads "name: A then B; condition; …".
func parseRule(s string) (SafetyRule, error) {
	name, body, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return SafetyRule{}, fmt.Errorf("a rule is written \"rule name: LIST then LIST; condition\"")
	}
	parts := strings.Split(body, ";")
	r := SafetyRule{Name: name}
	find, sep := strings.TrimSpace(parts[0]), " then "
	if n, rest, ok := strings.Cut(find, " of "); ok && !strings.Contains(n, " ") {
		need, err := strconv.Atoi(n)
		if err != nil || need < 1 {
			return r, fmt.Errorf("rule %q: %q: write N of LIST, LIST, … with N a number", name, find)
		}
		r.Need, find, sep = need, rest, ","
	}
	for _, l := range strings.Split(find, sep) {
		l = strings.TrimSpace(l)
		if err := checkListName(l); err != nil {
			return r, fmt.Errorf("rule %q: %w", name, err)
		}
		r.Find = append(r.Find, l)
	}
	if r.Need > len(r.Find) {
		return r, fmt.Errorf("rule %q: it needs %d of %d lists", name, r.Need, len(r.Find))
	}
	for _, p := range parts[1:] {
		c, err := parseCond(strings.TrimSpace(p))
		if err != nil {
			return r, fmt.Errorf("rule %q: %w", name, err)
		}
		if (c.Kind == UnlessBetween || c.Kind == InOnePart || c.Kind == Within) && (len(r.Find) < 2 || r.Need > 0) {
			return r, fmt.Errorf("rule %q: %q needs two lists to find, joined by then", name, p)
		}
		r.Conds = append(r.Conds, c)
	}
	return r, nil
}

var unlessWhere = map[string]CondKind{"before": UnlessBefore, "after": UnlessAfter, "near": UnlessNear, "between": UnlessBetween}

func parseCond(p string) (SafetyCond, error) {
	const help = "a condition is one of: with LIST, unless LIST, unless LIST before|after|near|between, in one part, within N words, only in PLACES, except in PLACES"
	switch {
	case p == "in one part":
		return SafetyCond{Kind: InOnePart}, nil
	case strings.HasPrefix(p, "within "):
		var n int
		if _, err := fmt.Sscanf(p, "within %d words", &n); err != nil || n < 0 || p != fmt.Sprintf("within %d words", n) {
			return SafetyCond{}, fmt.Errorf("%q: write within N words, N a number", p)
		}
		return SafetyCond{Kind: Within, Words: n}, nil
	case strings.HasPrefix(p, "only in "), strings.HasPrefix(p, "except in "):
		kind, rest := OnlyIn, strings.TrimPrefix(p, "only in ")
		if strings.HasPrefix(p, "except in ") {
			kind, rest = ExceptIn, strings.TrimPrefix(p, "except in ")
		}
		var places []SafetyPlace
		for _, pl := range strings.Split(rest, " or ") {
			place, err := parsePlace(strings.TrimSpace(pl))
			if err != nil {
				return SafetyCond{}, err
			}
			places = append(places, place)
		}
		return SafetyCond{Kind: kind, Places: places}, nil
	case strings.HasPrefix(p, "with "):
		l := strings.TrimSpace(strings.TrimPrefix(p, "with "))
		return SafetyCond{Kind: With, List: l}, checkListName(l)
	case strings.HasPrefix(p, "unless "):
		l := strings.TrimSpace(strings.TrimPrefix(p, "unless "))
		kind := Unless
		if i := strings.LastIndex(l, " "); i > 0 {
			if k, ok := unlessWhere[l[i+1:]]; ok {
				kind, l = k, l[:i]
			}
		}
		if err := checkListName(l); err != nil {
			return SafetyCond{}, fmt.Errorf("%q: %w (%s)", p, err, help)
		}
		return SafetyCond{Kind: kind, List: l}, nil
	}
	return SafetyCond{}, fmt.Errorf("%q: %s", p, help)
}

func parsePlace(s string) (SafetyPlace, error) {
	var pl SafetyPlace
	words := strings.Fields(s)
	if len(words) > 0 && (words[0] == "sleep" || words[0] == "waking") {
		pl.Session, words = words[0], words[1:]
	}
	switch {
	case len(words) == 0 && pl.Session != "":
		return pl, nil
	case len(words) == 1 && PhaseIndex(words[0]) >= 0:
		pl.Phase = words[0]
		return pl, nil
	}
	return pl, fmt.Errorf("%q is not a place: write a phase (%s), sleep or waking, or both (\"waking resolution\")", s, strings.Join(PhaseNames[:], ", "))
}

// check makes sure every list a rule or a phrase names is there, once, and
// that no list holds itself.
func (sr *SafetyRules) check() error {
	byName := map[string]*SafetyList{}
	for i := range sr.Lists {
		l := &sr.Lists[i]
		if prev, ok := byName[l.Name]; ok {
			return fmt.Errorf("%s: [%s] is listed twice (first at %s)", l.At, l.Name, prev.At)
		}
		if IsNumberList(l.Name) {
			return fmt.Errorf("%s: [%s] is read by the screen itself and cannot be written", l.At, l.Name)
		}
		if len(l.Phrases) == 0 {
			return fmt.Errorf("%s: [%s] has no phrases (the first line after the name says what the list is for)", l.At, l.Name)
		}
		byName[l.Name] = l
	}
	known := func(name string) bool { return byName[name] != nil || IsNumberList(name) }
	for _, l := range sr.Lists {
		for _, ph := range append(slices.Clip(l.Phrases), l.Except...) {
			for _, w := range ph {
				if strings.HasPrefix(w, "[") && !known(strings.Trim(w, "[]")) {
					return fmt.Errorf("%s: [%s] names %s, which is not a list", l.At, l.Name, w)
				}
			}
		}
	}
	for _, r := range sr.Rules {
		for _, n := range r.Find {
			if !known(n) {
				return fmt.Errorf("%s: rule %q looks for [%s], which is not a list", r.At, r.Name, n)
			}
		}
		for _, c := range r.Conds {
			if c.List != "" && !known(c.List) {
				return fmt.Errorf("%s: rule %q names [%s], which is not a list", r.At, r.Name, c.List)
			}
		}
	}
	// A list that holds itself, through others, would never end.
	state := map[string]int{} // 1 on the way, 2 done
	var visit func(name string, trail []string) error
	visit = func(name string, trail []string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("%s: [%s] holds itself: %s", byName[name].At, name, strings.Join(append(trail, name), " → "))
		case 2:
			return nil
		}
		state[name] = 1
		for _, ph := range byName[name].Phrases {
			for _, w := range ph {
				if n := strings.Trim(w, "[]"); strings.HasPrefix(w, "[") && byName[n] != nil {
					if err := visit(n, append(trail, name)); err != nil {
						return err
					}
				}
			}
		}
		state[name] = 2
		return nil
	}
	for _, l := range sr.Lists {
		if err := visit(l.Name, nil); err != nil {
			return err
		}
	}
	return nil
}
