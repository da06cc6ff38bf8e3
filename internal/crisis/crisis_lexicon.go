package crisis

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/lull-dev/lull/internal/prompts"
)

// The crisis screen's vocabulary is data: prompts/crisis_concepts.txt holds
// lists of words and phrases, one list per concept ("[DEATH]", "[WISH]",
// "[OTHER]"), written for someone who does not read Go. This file reads it
// and tags an intention with the concepts it holds; crisis_rules.go decides.

// trie holds a concept's terms, word by word, for matching at a position.
// Its steps are sorted slices, not a map per node: most nodes have one.
type trie struct {
	next  []step
	slots []step // a "[NAME]" word, by the name
	end   bool
	alone bool
}

type step struct {
	word string
	node *trie
}

// child is where word w steps to from t, or nil.
func (t *trie) child(w string) *trie {
	lo, hi := 0, len(t.next)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.next[m].word < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.next) && t.next[lo].word == w {
		return t.next[lo].node
	}
	return nil
}

func (t *trie) add(words []string, alone bool) {
	n := t
	for _, w := range words {
		steps := &n.next
		if strings.HasPrefix(w, "[") {
			steps, w = &n.slots, strings.Trim(w, "[]")
		}
		i, ok := slices.BinarySearchFunc(*steps, w, func(s step, w string) int { return strings.Compare(s.word, w) })
		if !ok {
			*steps = slices.Insert(*steps, i, step{w, &trie{}})
		}
		n = (*steps)[i].node
	}
	n.end = true
	n.alone = n.alone || alone
}

// lexicon is the parsed vocabulary.
type lexicon struct {
	tries map[string]*trie
	order []string // concept names, in file order
	// exact concepts are matched word for word, not by stem: idioms are
	// fixed ("dying to" is not "die to").
	exact map[string]bool
	// words is every word of the file as written: a word in it, or a form
	// of one, is never mended.
	words map[string]bool
	// real are words one letter from a concept word that are words of
	// their own ("beach", "homeless").
	real map[string]bool
	// firsts are the concepts a term of which begins with a word (a stem,
	// or a word as written for exact concepts); slotted, those whose terms
	// may begin with a "[NAME]". Only these are tried at a word.
	firsts  map[string][]string
	slotted []string
}

// startingWith is the concepts a term of which may start at tok, without
// FIGURATIVE (read apart, before the others).
func (lx *lexicon) startingWith(tok token) []string {
	out := append([]string(nil), lx.firsts[tok.stem]...)
	if tok.word != tok.stem {
		out = append(out, lx.firsts["="+tok.word]...)
	}
	for _, c := range lx.slotted {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// exactConcepts are matched word for word: idioms are fixed, and "dying"
// is not "died".
var exactConcepts = []string{cFigurative, cDied, cAttempt}

// crisisLexicon parses prompts.CrisisConcepts once.
var crisisLexicon = sync.OnceValue(func() *lexicon {
	lx, err := parseLexicon(prompts.CrisisConcepts)
	if err != nil {
		panic("prompts/crisis_concepts.txt: " + err.Error())
	}
	return lx
})

func parseLexicon(text string) (*lexicon, error) {
	lx := &lexicon{
		tries: map[string]*trie{},
		exact: map[string]bool{},
		words: map[string]bool{},
		real:  map[string]bool{},
	}
	for _, c := range exactConcepts {
		lx.exact[c] = true
	}
	type line struct {
		concept string
		words   []string
		alone   bool
	}
	var lines []line
	concept := ""
	described := false
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			concept = strings.Trim(l, "[]")
			if lx.tries[concept] != nil {
				return nil, fmt.Errorf("line %d: [%s] listed twice", i+1, concept)
			}
			lx.tries[concept] = &trie{}
			lx.order = append(lx.order, concept)
			described = false
			continue
		}
		if concept == "" {
			return nil, fmt.Errorf("line %d: %q is outside any [LIST]", i+1, l)
		}
		if !described {
			described = true // the line after [NAME] says what the list is for
			continue
		}
		alone := strings.HasSuffix(l, "(alone)")
		words := strings.Fields(strings.TrimSuffix(l, "(alone)"))
		for _, w := range words {
			if strings.HasPrefix(w, "[") {
				if !strings.HasSuffix(w, "]") {
					return nil, fmt.Errorf("line %d: %q: a [NAME] is one word", i+1, l)
				}
				continue
			}
			for _, r := range w {
				if !unicode.IsLower(r) && !unicode.IsDigit(r) {
					return nil, fmt.Errorf("line %d: %q: write words in lower case letters, without apostrophes", i+1, l)
				}
			}
			lx.words[w] = true
			if concept == cRealWords {
				lx.real[w] = true
			}
		}
		lines = append(lines, line{concept, words, alone})
	}
	// Stems are read against every word of the file, so the lists are
	// built once all of it is known.
	for _, l := range lines {
		words := l.words
		if !lx.exact[l.concept] {
			words = make([]string, len(l.words))
			for i, w := range l.words {
				words[i] = w
				if !strings.HasPrefix(w, "[") {
					words[i] = lx.stem(w)
				}
			}
		}
		lx.tries[l.concept].add(words, l.alone)
	}
	lx.firsts = map[string][]string{}
	for _, c := range lx.order {
		t := lx.tries[c]
		if err := lx.checkSlots(c, t); err != nil {
			return nil, err
		}
		if c == cFigurative {
			continue
		}
		for _, st := range t.next {
			w := st.word
			if lx.exact[c] {
				// An exact concept's word as written, when it is not
				// its own stem, is looked up with its mark.
				if lx.stem(w) != w {
					w = "=" + w
				}
			}
			lx.firsts[w] = append(lx.firsts[w], c)
		}
		if len(t.slots) > 0 {
			lx.slotted = append(lx.slotted, c)
		}
	}
	return lx, nil
}

func (lx *lexicon) checkSlots(concept string, t *trie) error {
	for _, st := range t.slots {
		if lx.tries[st.word] == nil {
			return fmt.Errorf("[%s] names [%s], which is not a list", concept, st.word)
		}
		if err := lx.checkSlots(concept, st.node); err != nil {
			return err
		}
	}
	for _, st := range t.next {
		if err := lx.checkSlots(concept, st.node); err != nil {
			return err
		}
	}
	return nil
}

// slotSkip is how many small words a "[NAME]" may have before its term:
// "jump off [HEIGHT]" reads "jump off the tall bridge".
const slotSkip = 2

var smallWords = map[string]bool{
	"a": true, "an": true, "the": true, "my": true, "this": true, "that": true, "some": true,
	"his": true, "her": true, "their": true, "our": true, "your": true,
	"tall": true, "high": true, "huge": true, "big": true, "old": true, "new": true,
}

// match returns where each term of t that starts at toks[i] ends, with
// whether it is an "(alone)" term. Matching stops at a clause break.
func (lx *lexicon) match(t *trie, toks []token, i int, exact bool, out []span) []span {
	return lx.matchFrom(t, toks, i, exact, atStart, out)
}

// Where a match stands: at a term's first word, past one or more of its
// words, or right after a stepped-over adverb (a term does not end there).
const (
	atStart = iota
	inTerm
	pastAdverb
)

// adverbs are stepped over, one between two words, inside a term, for a stem list's term only:
// "my heart just stops" is "my heart stops", "if I just disappeared" is
// "if I disappeared", "know exactly how" is "know how". Idioms (exact
// lists) are fixed.
var adverbs = map[string]bool{
	"just": true, "really": true, "actually": true, "literally": true, "honestly": true,
	"truly": true, "simply": true, "finally": true, "exactly": true, "seriously": true,
}

func (lx *lexicon) matchFrom(t *trie, toks []token, i int, exact bool, at int, out []span) []span {
	if t.end && at != pastAdverb {
		out = append(out, span{to: i, alone: t.alone})
	}
	if i >= len(toks) || toks[i].brk {
		return out
	}
	w := toks[i].stem
	if exact {
		w = toks[i].word
	}
	if n := t.child(w); n != nil {
		out = lx.matchFrom(n, toks, i+1, exact, inTerm, out)
	}
	// One adverb at a time, so a run of them costs nothing.
	if at == inTerm && !exact && adverbs[toks[i].word] && (len(t.next) > 0 || len(t.slots) > 0) {
		out = lx.matchFrom(t, toks, i+1, exact, pastAdverb, out)
	}
	for _, st := range t.slots {
		name, n := st.word, st.node
		for skip := 0; skip <= slotSkip && i+skip < len(toks); skip++ {
			if skip > 0 && !smallWords[toks[i+skip-1].word] {
				break
			}
			for _, s := range lx.match(lx.tries[name], toks, i+skip, lx.exact[name], nil) {
				if s.to > i+skip {
					out = lx.matchFrom(n, toks, s.to, exact, inTerm, out)
				}
			}
		}
	}
	return out
}

type span struct {
	to    int
	alone bool
}

// stem reduces a word to the form the lists are read in, so that "killing",
// "killed" and "kills" are "kill", "pills" is "pill", "lived" and "living"
// are "live". A word is reduced only to a word the lists hold, so a word
// they do not know is left as it is ("thing" is not "the").
func (lx *lexicon) stem(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	for _, b := range bases(w) {
		if lx.words[b] {
			return b
		}
	}
	return w
}

// bases are the words w may be a form of, most likely first.
func bases(w string) []string {
	n := len(w)
	var out []string
	cut := func(suffix string) (string, bool) {
		if n-len(suffix) >= 3 && strings.HasSuffix(w, suffix) {
			return w[:n-len(suffix)], true
		}
		return "", false
	}
	if b, ok := cut("ing"); ok {
		out = append(out, verbBases(b)...)
	}
	if b, ok := cut("ed"); ok && !strings.HasSuffix(w, "eed") {
		out = append(out, verbBases(b)...)
	}
	if b, ok := cut("ied"); ok {
		out = append(out, b+"y")
	}
	if b, ok := cut("ies"); ok {
		out = append(out, b+"y")
	}
	if b, ok := cut("s"); ok && !strings.HasSuffix(w, "ss") {
		out = append(out, b)
	}
	if b, ok := cut("es"); ok {
		out = append(out, b)
	}
	return out
}

// verbBases are the words a base left by cutting -ing or -ed may be:
// "cutt" is "cut", "liv" is "live", "kill" is "kill".
func verbBases(b string) []string {
	n := len(b)
	out := []string{b + "e", b}
	if b[n-1] == b[n-2] && !strings.ContainsRune("aeioulsfz", rune(b[n-1])) {
		out = append([]string{b[:n-1]}, out...)
	}
	return out
}

// irregular are the forms no suffix rule reaches.
var irregular = map[string]string{
	"dying": "die", "died": "die", "dies": "die", "lying": "lie",
	"took": "take", "taken": "take", "gave": "give", "given": "give",
	"wrote": "write", "written": "write", "burnt": "burn", "hung": "hang",
	"bled": "bleed", "drank": "drink", "drunk": "drink", "ate": "eat",
	"felt": "feel", "left": "leave", "went": "go", "woke": "wake",
	"shot": "shoot", "knives": "knife", "said": "say", "made": "make",
	"got": "get", "bought": "buy", "found": "find", "held": "hold",
	"stood": "stand", "sat": "sit", "fell": "fall", "threw": "throw",
	"thrown": "throw", "lost": "lose", "ran": "run",
	"children": "child", "men": "man", "women": "woman", "lives": "life", "going": "go",
	"swallowed": "swallow", "cancelled": "cancel", "cancelling": "cancel", "doing": "do",
}

// mend reads a word the lists do not know as the list word one slip of the
// keyboard away, if there is one: two neighbours swapped ("wnat", "dei"),
// or, in longer words, a letter dropped, added or changed ("sucide",
// "anymor"); a dropped final g ("killin"). Short words are mended only by
// a swap: "dead" is one letter from "deal" and "head".
func (lx *lexicon) mend(w string) string {
	if lx.words[w] || lx.real[w] || len(w) < 3 || lx.stem(w) != w {
		return w
	}
	if strings.HasSuffix(w, "in") && lx.stem(w+"g") != w+"g" {
		return w + "g"
	}
	// A last letter held down: "diee", "nowww" (three or more are cut to
	// one before).
	if n := len(w); w[n-1] == w[n-2] && (lx.words[w[:n-1]] || lx.stem(w[:n-1]) != w[:n-1]) {
		return w[:n-1]
	}
	for i := 0; i+1 < len(w); i++ {
		s := w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]
		if lx.words[s] {
			return s
		}
	}
	if len(w) < 5 {
		return w
	}
	// A letter added: the word without it is a list word of six or more.
	for i := range w {
		if s := w[:i] + w[i+1:]; len(s) >= 6 && lx.words[s] {
			return s
		}
	}
	// A letter dropped or changed: try each letter at each place.
	for i := 0; i <= len(w); i++ {
		for c := byte('a'); c <= 'z'; c++ {
			if s := w[:i] + string(c) + w[i:]; len(s) >= 6 && lx.words[s] {
				return s
			}
			if i < len(w) && c != w[i] {
				if s := w[:i] + string(c) + w[i+1:]; len(s) >= 7 && lx.words[s] {
					return s
				}
			}
		}
	}
	return w
}
