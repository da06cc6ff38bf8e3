// Package crisis reads an intention, before a session starts, for signs
// that the person who wrote it may not be safe: they get kindness and where
// to find help instead of a session.
package crisis

import (
	"fmt"
	"strings"
)

// The crisis screen is not the sentence check (package safety): an
// intention is one person's words about themselves, typed at night, with
// typos and slang, and a miss costs far more than a kind message in place
// of a session. So it errs toward help, and reads meaning rather
// than words: "kill the stress" and "dead tired" start a session, "kms" and
// "I'd be better off dead" do not.
//
// It reads in three steps:
//   - normalizeIntention (crisis_text.go) writes the text plainly: lower
//     case, no apostrophes, chat spellings written out, typos mended;
//   - the lexicon (crisis_lexicon.go) tags it with concepts, from word lists
//     kept as data in prompts/crisis_concepts.txt: DEATH, WISH, NOT, LIFE,
//     SUBSTANCE, FAREWELL, PLAN, ACT, OTHER, FIGURATIVE…, stepping over
//     small adverbs inside a phrase and joining an afterthought made of
//     filler ("sleep. permanently.") to what it qualifies;
//   - a few rules (crisis_rules.go) decide from the concepts found together
//     in a clause or in the whole intention, with someone else's words,
//     a survived past, figures of speech and fear as exceptions.

// token is one word of a normalized intention, or a clause break.
type token struct {
	word string // as normalized
	stem string // the lexicon's form of it
	brk  bool
}

// mention is a concept found in the intention: a term of its list at
// toks[from:to].
type mention struct {
	concept  string
	from, to int
	alone    bool
}

// reach is how far, in words, the screen looks from a phrase for what
// frames it (its subject, a negation, a fear, what follows it): a few
// clauses. It keeps the reading linear in the length of the intention,
// however many phrases it holds.
const reach = 40

// reading is an intention tagged with its concepts.
type reading struct {
	lx     *lexicon
	toks   []token
	clause []int // the clause each token is in
	// clauseFrom and clauseTo are where each clause begins and ends.
	clauseFrom, clauseTo []int
	// before counts, for a concept, its mentions starting before each
	// token (made when first asked for).
	before map[string][]int
	byC    map[string][]mention
	starts [][]mention // mentions starting at each token
	ends   [][]mention // mentions ending at each token (to == i)
	// doings are the clauses that name something being done (made when
	// first asked for, by namesWhatItIs).
	doings map[int]bool
}

// Error is returned for an intention that signals someone may be in
// danger.
type Error struct{ Rule string }

func (e *Error) Error() string {
	return fmt.Sprintf("the intention suggests you may be going through something hard (%s)", e.Rule)
}

// Check reads what the listener wrote before a session starts: an *Error
// when it signals crisis, nil otherwise.
func Check(intention string) error {
	if sign := screenCrisis(intention); sign != "" {
		return &Error{Rule: sign}
	}
	return nil
}

// screenCrisis names the first rule that finds a crisis sign in the
// intention, or "".
func screenCrisis(intention string) string {
	r := readIntention(intention)
	for _, rule := range crisisRules {
		if rule.holds(r) {
			return rule.name
		}
	}
	return ""
}

func readIntention(intention string) *reading {
	lx := crisisLexicon()
	words := lx.normalize(intention)
	toks := make([]token, len(words))
	for i, w := range words {
		toks[i] = token{word: w, stem: lx.stem(w), brk: w == ","}
	}
	toks = joinAfterthoughts(lx, toks)
	r := &reading{
		lx:     lx,
		toks:   toks,
		clause: make([]int, len(toks)),
		byC:    map[string][]mention{},
		starts: make([][]mention, len(toks)+1),
		ends:   make([][]mention, len(toks)+1),
	}
	c := 0
	r.clauseFrom = []int{0}
	for i, t := range toks {
		if t.brk {
			r.clauseTo = append(r.clauseTo, i)
			r.clauseFrom = append(r.clauseFrom, i+1)
			c++
		}
		r.clause[i] = c
	}
	r.clauseTo = append(r.clauseTo, len(toks))
	r.before = map[string][]int{}
	// Figures of speech first: a concept that shares a word with one is
	// not there ("want to be dead asleep").
	figure := make([]bool, len(r.toks))
	for i := range r.toks {
		for _, s := range lx.match(lx.tries[cFigurative], r.toks, i, true, nil) {
			for j := i; j < s.to; j++ {
				figure[j] = true
			}
		}
	}
	inFigure := func(from, to int) bool {
		for j := from; j < to; j++ {
			if figure[j] {
				return true
			}
		}
		return false
	}
	for i := range r.toks {
		if r.toks[i].brk {
			continue
		}
		for _, concept := range lx.startingWith(r.toks[i]) {
			// The longest term of a concept at a place is the one read.
			best := mention{to: -1}
			for _, s := range lx.match(lx.tries[concept], r.toks, i, lx.exact[concept], nil) {
				if s.to > best.to {
					best = mention{concept: concept, from: i, to: s.to, alone: s.alone}
				}
			}
			if best.to <= i || inFigure(best.from, best.to) {
				continue
			}
			r.byC[concept] = append(r.byC[concept], best)
			r.starts[i] = append(r.starts[i], best)
			r.ends[best.to] = append(r.ends[best.to], best)
		}
	}
	return r
}

// joinAfterthoughts drops the break before a clause made only of filler
// words ("sleep. permanently.", "I need to sleep. For good this time."):
// an afterthought qualifies what came before it, as if no stop stood
// between.
func joinAfterthoughts(lx *lexicon, toks []token) []token {
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		if toks[i].brk && i > 0 && lx.onlyFiller(toks, i+1) {
			continue
		}
		out = append(out, toks[i])
	}
	return out
}

// onlyFiller reports whether the clause starting at i is made of FILLER
// terms only, and is not empty.
func (lx *lexicon) onlyFiller(toks []token, i int) bool {
	start := i
	for i < len(toks) && !toks[i].brk {
		to := i
		for _, s := range lx.match(lx.tries[cFiller], toks, i, false, nil) {
			to = max(to, s.to)
		}
		if to == i {
			return false
		}
		i = to
	}
	return i > start
}

// has reports whether the intention holds the concept anywhere.
func (r *reading) has(c string) bool { return len(r.byC[c]) > 0 }

// hasApart reports whether the intention holds the concept outside m's
// own words: the "date" of "set the date" is no occasion.
func (r *reading) hasApart(c string, m mention) bool {
	for _, n := range r.byC[c] {
		if n.to <= m.from || n.from >= m.to {
			return true
		}
	}
	return false
}

// endingAt returns the longest mention of any of the concepts that ends
// right before token i; of two as long, the concept named first.
func (r *reading) endingAt(i int, concepts ...string) (mention, bool) {
	best, ok := mention{}, false
	for _, c := range concepts {
		for _, m := range r.ends[i] {
			if m.concept == c && (!ok || m.from < best.from) {
				best, ok = m, true
			}
		}
	}
	return best, ok
}

// startingAt returns the longest mention of any of the concepts that
// starts at token i.
func (r *reading) startingAt(i int, concepts ...string) (mention, bool) {
	best, ok := mention{}, false
	if i >= len(r.starts) {
		return best, false
	}
	for _, m := range r.starts[i] {
		for _, c := range concepts {
			if m.concept == c && (!ok || m.to > best.to) {
				best, ok = m, true
			}
		}
	}
	return best, ok
}

// after returns a mention of the concept that starts within gap tokens
// after m ends, in the same clause.
func (r *reading) after(m mention, c string, gap int) (mention, bool) {
	for i := m.to; i <= m.to+gap && i < len(r.toks) && !r.toks[i].brk; i++ {
		if n, ok := r.startingAt(i, c); ok {
			return n, true
		}
	}
	return mention{}, false
}

// inClause reports whether a mention of the concept lies in m's clause,
// before m (before) or anywhere in it.
func (r *reading) inClause(m mention, c string, before bool) bool {
	counts, ok := r.before[c]
	if !ok {
		counts = make([]int, len(r.toks)+1)
		for _, n := range r.byC[c] {
			counts[n.from+1]++
		}
		for i := 1; i < len(counts); i++ {
			counts[i] += counts[i-1]
		}
		r.before[c] = counts
	}
	from := max(r.clauseStart(m.from), m.from-reach)
	to := min(r.clauseTo[r.clause[m.from]], m.to+reach)
	if before {
		to = m.from
	}
	return to > from && counts[to]-counts[from] > 0
}

// chain is what stands right before a mention: the wish, the negations,
// the weariness, and whose they are. It is read backwards from the mention
// over small words only ("all I want is to die", "I wish I could just not
// exist"), and stops at the first word that says something else.
type chain struct {
	wish, think, weary bool
	// foretold: the only wish is a "will" or "going to" with no subject
	// of the writer's before it: "my boss will kill me" foretells.
	foretold    bool
	lightWish   bool // "I feel like dying": a wish if nothing follows
	nots        int
	self, other bool // the writer, or someone else, is the subject
}

// coordination is how many words a chain may step over after an "and" or
// an "until" to find the wish both halves hang on: "I want to give up on
// everything and die", "going to stop eating until I die".
const coordination = 4

func (r *reading) chainBefore(m mention) chain {
	var ch chain
	i := m.from
	skip := 0
	for i > 0 && i > m.from-reach && !r.toks[i-1].brk {
		// A second half with no subject of its own hangs on the first's
		// wish; one with its own ("and I don't want…") does not, unless
		// it says until when ("stop eating until I die").
		if w := r.toks[i-1].word; w == "until" || w == "till" || !ch.self && w == "and" {
			skip, i = coordination, i-1
			continue
		}
		// The longest phrase ending here is the one read: "cant stop"
		// (thinking) is no negation.
		n, ok := r.endingAt(i, cWish, cThink, cLightWish, cNot, cWeary, cSelf, cOther, cLink, cFiller, cWhen)
		if !ok {
			if skip == 0 {
				break
			}
			skip, i = skip-1, i-1
			continue
		}
		switch n.concept {
		case cWish:
			future := foretelling[r.wordsOf(n)]
			ch.foretold = future && (!ch.wish || ch.foretold)
			ch.wish, skip = true, 0
		case cThink:
			ch.think, skip = true, 0
		case cLightWish:
			ch.lightWish, skip = true, 0
		case cNot:
			if !r.interjection(n) {
				ch.nots++
			}
		case cWeary:
			ch.weary = true
		case cSelf:
			ch.self = true
		case cOther:
			ch.other = !ch.self
		}
		if ch.other {
			break
		}
		i = n.from
	}
	if ch.self {
		ch.foretold = false
	}
	if !ch.self && !ch.other {
		ch.other = !r.writers(m)
	}
	return ch
}

// foretelling are the wishes that may only say what will happen.
var foretelling = map[string]bool{"will": true, "going to": true}

// wordsOf is m's words as normalized.
func (r *reading) wordsOf(m mention) string {
	var ws []string
	for _, t := range r.toks[m.from:m.to] {
		ws = append(ws, t.word)
	}
	return strings.Join(ws, " ")
}

// interjection reports whether a "no" answers rather than negates: "no,
// for real, I want to die" (the subject follows it).
func (r *reading) interjection(n mention) bool {
	if r.toks[n.from].word != "no" || n.to != n.from+1 {
		return false
	}
	j := n.to
	if f, ok := r.startingAt(j, cFiller); ok {
		j = f.to
	}
	_, ok := r.startingAt(j, cSelf)
	return ok
}

// read reports whether token i lies in a mention of any concept.
func (r *reading) read(i int) bool {
	for j := i; j >= 0 && j > i-reach; j-- {
		for _, m := range r.starts[j] {
			if m.to > i {
				return true
			}
		}
	}
	return false
}

func (r *reading) clauseStart(i int) int { return r.clauseFrom[r.clause[i]] }

// writers reports whether m is the writer's: the nearest person before it
// who is a subject or an owner, in its clause and then in the clauses
// before, is the writer or no one ("suicidal again"), not someone else ("my
// son overdosed", "a client disclosed suicidal thoughts", "she's been
// cutting", "my brother's suicide", "phone about to die"). Someone named as
// an object ("gave away my dog and said goodbye") is not the subject.
func (r *reading) writers(m mention) bool {
	for i := m.from; i > 0 && i > m.from-reach; i-- {
		if _, ok := r.endingAt(i, cSelf); ok {
			return true
		}
		n, ok := r.endingAt(i, cOther)
		if !ok {
			continue
		}
		// Right before a thing, a person owns it or is given it ("my
		// mum's tablets", "texted my best friend goodbye"); right before
		// an act, does it ("my son overdosed").
		if pronouns[r.toks[n.from].word] || n.to == m.from && !things[m.concept] || r.startsSegment(n.from) {
			return false
		}
		i = n.from + 1
	}
	return true
}

// things are concepts that name a thing, not an act: whose it is does not
// say who acts.
var things = map[string]bool{cSubstance: true, cPoison: true, cWeapon: true, cFarewell: true, cInOrder: true}

// pronouns are subjects whatever stands before them.
var pronouns = map[string]bool{
	"he": true, "she": true, "they": true, "hes": true, "shes": true, "theyre": true,
	"theyve": true, "hed": true, "who": true, "we": true,
}

// startsSegment reports whether the word at i begins its clause, or what
// follows a conjunction, with only a determiner or a quantifier before it:
// "my son overdosed", "and a man jumped", "one of my students", not "lost
// a patient".
func (r *reading) startsSegment(i int) bool {
	for i > 0 {
		switch r.toks[i-1].word {
		case "my", "the", "a", "an", "our", "his", "her", "their", "best", "little", "late", "old", "older", "younger":
			i--
			continue
		case ",", "and", "but", "so", "because", "then", "who", "that":
			return true
		case "of":
			// "one of my students attempted suicide"
			if i >= 2 && quantifiers[r.toks[i-2].word] {
				i -= 2
				continue
			}
		}
		return false
	}
	return true
}

var quantifiers = map[string]bool{
	"one": true, "two": true, "three": true, "some": true, "many": true, "few": true,
	"several": true, "all": true, "both": true, "each": true, "most": true, "none": true,
}

// bounded reports whether something after m in its clause says where,
// when, with what or to what ("end it with my boyfriend", "disappear to a
// cabin", "wake up at 4am"). Filler words ("again", "so bad", "tonight")
// do not; a new clause, a conjunction, a new subject or a verb of being
// ends the phrase. Strict reads a named day ("this weekend", "tomorrow")
// as a when: an absence, a visit.
func (r *reading) bounded(m mention, strict bool) bool {
	i := m.to
	for i < len(r.toks) && i < m.to+reach && !r.toks[i].brk {
		// "so the pain stops": "so" begins a clause, it is no "so bad".
		if r.toks[i].word == "so" && i+1 < len(r.toks) && subjects[r.toks[i+1].word] {
			return false
		}
		if n, ok := r.startingAt(i, cFiller); ok {
			i = n.to
			continue
		}
		if n, ok := r.startingAt(i, cWhen); ok && !strict {
			i = n.to
			continue
		}
		if unbinding[r.toks[i].word] {
			return false
		}
		// Self-harm is self-harm whenever it happens: "hurting myself
		// when I'm sad".
		if m.concept == cSelfHarm && (r.toks[i].word == "when" || r.toks[i].word == "whenever") {
			return false
		}
		// "calm before", "he will find it after": before or after what is
		// left unsaid.
		if w := r.toks[i].word; (w == "before" || w == "after") && (i+1 == len(r.toks) || r.toks[i+1].brk) {
			return false
		}
		// Life without someone is grief, not a where: "without her".
		if r.toks[i].word == "without" && i+1 < len(r.toks) {
			if _, ok := r.startingAt(i+1, cOther); ok {
				return false
			}
			if i+2 < len(r.toks) && r.toks[i+1].word == "my" {
				if _, ok := r.startingAt(i+2, cOther); ok {
					return false
				}
			}
		}
		return true
	}
	return false
}

// subjects begin a clause after "so".
var subjects = map[string]bool{
	"i": true, "im": true, "the": true, "my": true, "that": true, "it": true, "they": true,
	"he": true, "she": true, "we": true, "you": true, "everyone": true, "nobody": true,
}

// unbinding words begin something new after a phrase: a conjunction, a
// subject, a verb of being.
var unbinding = map[string]bool{
	"and": true, "but": true, "so": true, "or": true, "because": true, "then": true, "cause": true, "if": true,
	"i": true, "im": true, "id": true, "ill": true, "ive": true,
	"is": true, "are": true, "was": true, "were": true, "has": true, "keeps": true, "feels": true, "seems": true,
}

// alone reports whether an "(alone)" mention stands alone.
func (r *reading) alone(m mention, strict bool) bool {
	return !m.alone || !r.bounded(m, strict)
}

// fearBefore reports whether fear comes before m in its clause: "scared
// I'm going to die" is fear, not a wish.
func (r *reading) fearBefore(m mention) bool { return r.inClause(m, cFear, true) }

// aboutIt reports whether m is talked about rather than said: a subject of
// work or study ("suicide prevention", "a paper on suicide", lethal doses
// memorised for an exam), a thing named with the word ("suicide
// sprints", "the suicide squeeze"), or a word asked about ("what does kms
// mean").
func (r *reading) aboutIt(m mention) bool {
	if _, ok := r.startingAt(m.to, cTopic, cNamedThing); ok {
		return true
	}
	if r.inClause(m, cAsked, false) {
		return true
	}
	// Memorised for a course: "toxicology exam tomorrow, memorizing
	// lethal doses".
	if r.inClause(m, cStudy, true) && r.has(cCourse) {
		return true
	}
	start := r.clauseStart(m.from)
	for i := m.from - 1; i >= start && i >= m.from-4; i-- {
		switch r.toks[i].word {
		case "about", "on", "of", "in":
			if _, ok := r.endingAt(i, cTopic); ok {
				return true
			}
		}
	}
	return false
}

// survived reports whether the intention tells a past survived ("five
// years since my attempt", "two years free from self harm"), not a
// relapse, and not regretted.
func (r *reading) survived() bool {
	return r.has(cRecovered) && !r.has(cRelapse) && !r.regrets()
}

// regrets reports whether the writer regrets surviving ("survived my
// attempt, wish I hadn't").
func (r *reading) regrets() bool {
	for _, m := range r.byC[cRegret] {
		if r.alone(m, false) {
			return true
		}
	}
	return false
}
