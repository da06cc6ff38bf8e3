package safety

import (
	"fmt"
	"slices"
	"sync"

	"github.com/lull-dev/lull/internal/prompts"
)

// The safety screen's rules, compiled: each looks for lists, in order, in a
// sentence, and its conditions say when what it found counts. The first
// rule that holds, in the order of Categories, is the verdict.

// screenReach is how far, in words, a condition looks before or after what a
// rule found: far enough for "there is no need at all to hold the breath",
// not so far that a "no" at one end of a long part of a sentence takes back
// its other end.
const screenReach = 6

type condition struct {
	kind   prompts.CondKind
	list   int
	places []prompts.SafetyPlace
	words  int
}

type rule struct {
	category Category
	name     string
	find     []int
	need     int // above zero: find is a set, of which need are enough
	conds    []condition
}

// screen is the compiled rules.
type ruleSet struct {
	lx      *safetyLexicon
	rules   []rule
	figures int
	wanted  []bool // the lists rules read, and the figures
	scratch sync.Pool

	everyOnce sync.Once
	all       []bool // every list: the classifier's features
}

// scratch is one check's working memory, reused: a check runs for every
// sentence a guide writes.
type scratch struct {
	words    []word
	mentions [][]spot
	found    []spot
	spare    spareEnds
}

func compileRules(sr *prompts.SafetyRules) (*ruleSet, error) {
	lx, err := compileLexicon(sr)
	if err != nil {
		return nil, err
	}
	figures, ok := lx.byName[prompts.ListFigures]
	if !ok {
		return nil, fmt.Errorf("no [%s] list", prompts.ListFigures)
	}
	sc := &ruleSet{lx: lx, figures: figures, wanted: make([]bool, len(lx.lists))}
	sc.wanted[figures] = true
	for _, r := range sr.Rules {
		c := Category(r.Category)
		if !slices.Contains(Categories, c) {
			return nil, fmt.Errorf("%s: the file %s.txt names no category: name it after one of %v", r.At, r.Category, Categories)
		}
		cr := rule{category: c, name: r.Name, need: r.Need}
		for _, n := range r.Find {
			id := lx.byName[n]
			cr.find = append(cr.find, id)
			sc.wanted[id] = true
		}
		for _, cd := range r.Conds {
			cc := condition{kind: cd.Kind, places: cd.Places, list: -1, words: cd.Words}
			if cd.List != "" {
				cc.list = lx.byName[cd.List]
				sc.wanted[cc.list] = true
			}
			cr.conds = append(cr.conds, cc)
		}
		sc.rules = append(sc.rules, cr)
	}
	// Rules run in the order of Categories, and in file order within one.
	slices.SortStableFunc(sc.rules, func(a, b rule) int {
		return slices.Index(Categories, a.category) - slices.Index(Categories, b.category)
	})
	sc.scratch.New = func() any { return &scratch{mentions: make([][]spot, len(lx.lists))} }
	return sc, nil
}

func (sc *ruleSet) check(text string, at Place) Verdict {
	s := sc.scratch.Get().(*scratch)
	defer sc.scratch.Put(s)
	s.words = sc.lx.readSentence(text, s.words)
	s.mentions = sc.lx.find(s.words, sc.wanted, s.mentions, &s.spare)
	sc.dropFigures(s.mentions)
	for i := range sc.rules {
		r := &sc.rules[i]
		if !r.appliesIn(at) {
			continue
		}
		if sc.holds(r, s, 0) {
			return Verdict{Category: string(r.category), Rule: r.name}
		}
	}
	return Verdict{}
}

// dropFigures removes every spot that shares a word with a figure of
// speech: "the wind dies down" holds no death.
func (sc *ruleSet) dropFigures(ms [][]spot) {
	figs := ms[sc.figures]
	if len(figs) == 0 {
		return
	}
	for id := range ms {
		if id == sc.figures {
			continue
		}
		for _, f := range figs {
			ms[id] = dropOverlapping(ms[id], f)
		}
	}
}

func overlap(a, b spot) bool { return a.from < b.to && b.from < a.to }

func (r *rule) appliesIn(at Place) bool {
	for _, c := range r.conds {
		switch c.kind {
		case prompts.OnlyIn:
			if !inPlaces(at, c.places) {
				return false
			}
		case prompts.ExceptIn:
			if inPlaces(at, c.places) {
				return false
			}
		}
	}
	return true
}

func inPlaces(at Place, places []prompts.SafetyPlace) bool {
	for _, p := range places {
		if p.Phase != "" && p.Phase != at.Phase.String() {
			continue
		}
		if (p.Session == "sleep" && !at.Sleep) || (p.Session == "waking" && at.Sleep) {
			continue
		}
		return true
	}
	return false
}

// holds reports whether the rule finds its lists, from the k-th on, after
// what s.found holds, so that its conditions hold.
func (sc *ruleSet) holds(r *rule, s *scratch, k int) bool {
	if r.need > 0 {
		return sc.holdsSet(r, s)
	}
	if k == len(r.find) {
		return sc.conditionsHold(r, s.found[:k], s)
	}
	from := 0
	if k > 0 {
		from = s.found[k-1].to
	}
	for _, m := range s.mentions[r.find[k]] {
		if m.from < from {
			continue
		}
		s.found = append(s.found[:k], m)
		if sc.holds(r, s, k+1) {
			return true
		}
	}
	return false
}

// holdsSet reports whether at least r.need of the rule's lists are in the
// sentence, each at words of its own, so that its conditions hold.
func (sc *ruleSet) holdsSet(r *rule, s *scratch) bool {
	s.found = s.found[:0]
	return sc.chooseSet(r, s, 0)
}

// chooseSet takes, from the k-th list of the set on, a phrase of each list
// or none, sharing no word with those taken, until enough are taken.
func (sc *ruleSet) chooseSet(r *rule, s *scratch, k int) bool {
	if len(s.found) >= r.need {
		return sc.conditionsHold(r, s.found, s)
	}
	if len(s.found)+len(r.find)-k < r.need {
		return false
	}
	n := len(s.found)
	for _, m := range s.mentions[r.find[k]] {
		if slices.ContainsFunc(s.found[:n], func(f spot) bool { return overlap(f, m) }) {
			continue
		}
		s.found = append(s.found[:n], m)
		if sc.chooseSet(r, s, k+1) {
			return true
		}
	}
	s.found = s.found[:n]
	return sc.chooseSet(r, s, k+1)
}

func (sc *ruleSet) conditionsHold(r *rule, found []spot, s *scratch) bool {
	for _, c := range r.conds {
		switch c.kind {
		case prompts.InOnePart:
			for _, m := range found[1:] {
				if m.part != found[0].part {
					return false
				}
			}
		case prompts.Within:
			for i := 1; i < len(found); i++ {
				if sc.wordsBetween(s.words, found[i-1].to, found[i].from) > c.words {
					return false
				}
			}
		case prompts.With:
			if !anyOther(s.mentions[c.list], found, func(spot) bool { return true }) {
				return false
			}
		case prompts.Unless:
			if anyOther(s.mentions[c.list], found, func(spot) bool { return true }) {
				return false
			}
		case prompts.UnlessBefore, prompts.UnlessAfter, prompts.UnlessNear:
			before, after := c.kind != prompts.UnlessAfter, c.kind != prompts.UnlessBefore
			if anyOther(s.mentions[c.list], found, func(x spot) bool {
				for _, m := range found {
					if x.part != m.part {
						continue
					}
					if before && x.to <= m.from && m.from-x.to <= screenReach {
						return true
					}
					if after && x.from >= m.to && x.from-m.to <= screenReach {
						return true
					}
				}
				return false
			}) {
				return false
			}
		case prompts.UnlessBetween:
			first, last := found[0], found[len(found)-1]
			if anyOther(s.mentions[c.list], found, func(x spot) bool { return x.from >= first.to && x.to <= last.from }) {
				return false
			}
		}
	}
	return true
}

// wordsBetween counts the words (not breaks) in words[from:to].
func (sc *ruleSet) wordsBetween(words []word, from, to int) int {
	n := 0
	for _, w := range words[from:to] {
		if !w.brk {
			n++
		}
	}
	return n
}

// anyOther reports whether a spot that is not part of what the rule
// found satisfies ok: the "don't" of "don't breathe" takes nothing back.
func anyOther(ms, found []spot, ok func(spot) bool) bool {
	for _, x := range ms {
		if slices.ContainsFunc(found, func(m spot) bool { return overlap(x, m) }) {
			continue
		}
		if ok(x) {
			return true
		}
	}
	return false
}

// listsIn appends to names the names of the lists whose phrases text
// holds, figures of speech set aside, and to figured the words of each
// figure of speech it holds, each figure ended by "": the classifier reads both as features, so
// that what a list gathers ("grave", "tomb", "ashes" are [BURIAL]) teaches
// it about words it has seldom seen, and "the naked eye" is not read as
// "naked".
func (sc *ruleSet) listsIn(text string, names, figured []string) ([]string, []string) {
	s := sc.scratch.Get().(*scratch)
	defer sc.scratch.Put(s)
	s.words = sc.lx.readSentence(text, s.words)
	s.mentions = sc.lx.find(s.words, sc.every(), s.mentions, &s.spare)
	for _, f := range s.mentions[sc.figures] {
		for _, w := range s.words[f.from:f.to] {
			if !w.brk {
				figured = append(figured, w.text)
			}
		}
		figured = append(figured, "") // the end of a figure
	}
	sc.dropFigures(s.mentions)
	for id, ms := range s.mentions {
		if len(ms) > 0 && id != sc.figures {
			names = append(names, sc.lx.lists[id].name)
		}
	}
	return names, figured
}

// every wants every list.
func (sc *ruleSet) every() []bool {
	sc.everyOnce.Do(func() {
		sc.all = make([]bool, len(sc.lx.lists))
		for i := range sc.all {
			sc.all[i] = true
		}
	})
	return sc.all
}
