package safety

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lull-dev/lull/internal/engine"

	"github.com/lull-dev/lull/internal/prompts"
)

// The safety screen's lexicon: the lists of prompts/safety/, each a trie of
// its phrases, and the forms of every word in them. It finds, in a
// sentence read by readSentence, where each list's phrases are.

// phraseNode is one step into a list's phrases.
type phraseNode struct {
	next  []edge // by a lexicon word, or "="+word as written; sorted by key
	slots []slot // a "[NAME]": any phrase of another list
	end   bool   // a phrase ends here
}

// edge is one step out of a node. A sorted slice, not a map per node: the
// lists make tens of thousands of nodes, most with one or two steps, and a
// map for each held most of the lexicon's memory.
type edge struct {
	k    key
	node *phraseNode
}

// child is the node k steps to, or nil: a scan for the few steps most
// nodes have, a binary search for a list's first words.
func (n *phraseNode) child(k key) *phraseNode {
	next := n.next
	if len(next) <= 8 {
		for _, e := range next {
			if e.k == k {
				return e.node
			}
		}
		return nil
	}
	lo, hi := 0, len(next)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if next[m].k < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(next) && next[lo].k == k {
		return next[lo].node
	}
	return nil
}

type slot struct {
	list int
	node *phraseNode
}

// phraseList is one list, compiled.
type phraseList struct {
	name string
	root *phraseNode
	// except holds the phrases in which this list's own are not there.
	except *phraseNode
	// threshold makes a number list: a number above it (a number at all
	// when it is -1). Number lists have no root.
	threshold int
	number    bool
}

// key is a word of the lists ("hold"), or a word only as written
// ("=dying"), as a number: a sentence's words are looked up by it.
type key int32

// safetyLexicon is every list, compiled, and the forms of their words.
type safetyLexicon struct {
	keys   map[string]key
	lists  []*phraseList
	byName map[string]int
	// forms maps a word as read to what the lists may read it as: the list
	// words it is a form of ("held" is not one: it is written out), and
	// "="+word when a list holds the word as written. Most words read as
	// one key, kept in the map itself; the others are a multiForm and an
	// index into multi. (A slice per word was a third of the lexicon.)
	forms map[string]key
	multi [][]key
	// self[k] is k: the one-key answers of formsOf, without allocating.
	self []key
	// firsts are the lists whose phrases may begin with a key; numbered,
	// those whose phrases may begin with a number.
	firsts   [][]int
	numbered []int
	gap      map[string]bool
}

// maxGap is how many [GAP] words may stand between two words of a phrase.
const maxGap = 2

func compileLexicon(sr *prompts.SafetyRules) (*safetyLexicon, error) {
	lx := &safetyLexicon{byName: map[string]int{}, keys: map[string]key{}, forms: map[string]key{}, gap: map[string]bool{}}
	for _, name := range []string{prompts.ListNumber, prompts.ListMoreThanHold, prompts.ListMoreThanBreath} {
		l := &phraseList{name: name, number: true, threshold: -1}
		switch name {
		case prompts.ListMoreThanHold:
			l.threshold = engine.MaxHold
		case prompts.ListMoreThanBreath:
			l.threshold = engine.MaxBreath
		}
		lx.byName[name] = len(lx.lists)
		lx.lists = append(lx.lists, l)
	}
	for _, l := range sr.Lists {
		lx.byName[l.Name] = len(lx.lists)
		lx.lists = append(lx.lists, &phraseList{name: l.Name, root: &phraseNode{}})
	}
	// Every word as written is its own form; then the forms each word
	// takes, where no word of the lists is written that way.
	written := map[string]bool{}
	exact := map[string]bool{}
	for _, l := range sr.Lists {
		for _, ph := range append(slices.Clip(l.Phrases), l.Except...) {
			for _, w := range ph {
				switch {
				case strings.HasPrefix(w, "["):
				case strings.HasPrefix(w, "="):
					exact[w[1:]] = true
				default:
					written[w] = true
				}
			}
		}
	}
	addForm := func(form, word string) {
		k := lx.key(word)
		have, ok := lx.forms[form]
		switch {
		case !ok:
			lx.forms[form] = k
		case have&multiForm == 0:
			if have != k {
				lx.forms[form] = multiForm | key(len(lx.multi))
				lx.multi = append(lx.multi, []key{have, k})
			}
		default:
			i := have &^ multiForm
			if !slices.Contains(lx.multi[i], k) {
				lx.multi[i] = append(lx.multi[i], k)
			}
		}
	}
	for w := range written {
		addForm(w, w)
	}
	for w := range exact {
		addForm(w, "="+w)
	}
	for w := range written {
		for _, f := range wordForms(w) {
			addForm(f, w)
		}
	}
	for _, l := range sr.Lists {
		pl := lx.lists[lx.byName[l.Name]]
		for _, ph := range l.Phrases {
			lx.add(pl.root, ph)
		}
		if len(l.Except) > 0 {
			pl.except = &phraseNode{}
			for _, ph := range l.Except {
				lx.add(pl.except, ph)
			}
		}
		if l.Name == prompts.ListGap {
			for _, ph := range l.Phrases {
				if len(ph) != 1 {
					return nil, fmt.Errorf("%s: [%s] holds single words only", l.At, l.Name)
				}
				lx.gap[ph[0]] = true
			}
		}
	}
	lx.self = make([]key, len(lx.keys))
	for k := range lx.self {
		lx.self[k] = key(k)
	}
	lx.firsts = make([][]int, len(lx.keys))
	for id, l := range lx.lists {
		if l.number {
			continue
		}
		keys, numbered := lx.firstKeys(id, map[int]bool{})
		for k := range keys {
			lx.firsts[k] = append(lx.firsts[k], id)
		}
		if numbered {
			lx.numbered = append(lx.numbered, id)
		}
	}
	lx.keys = nil // words are looked up by forms; only compiling numbers them
	return lx, nil
}

// key is the number of a word of the lists, given when first asked for.
func (lx *safetyLexicon) key(word string) key {
	k, ok := lx.keys[word]
	if !ok {
		k = key(len(lx.keys))
		lx.keys[word] = k
	}
	return k
}

// multiForm marks a forms entry that indexes multi.
const multiForm key = 1 << 30

// formsOf is what the lists may read a word as (see forms), or nil.
func (lx *safetyLexicon) formsOf(w string) []key {
	k, ok := lx.forms[w]
	switch {
	case !ok:
		return nil
	case k&multiForm != 0:
		return lx.multi[k&^multiForm]
	}
	return lx.self[k : k+1 : k+1]
}

// add puts a phrase into a trie.
func (lx *safetyLexicon) add(n *phraseNode, phrase []string) {
	for _, w := range phrase {
		if strings.HasPrefix(w, "[") {
			next := &phraseNode{}
			n.slots = append(n.slots, slot{list: lx.byName[strings.Trim(w, "[]")], node: next})
			n = next
			continue
		}
		k := lx.key(w)
		i, ok := slices.BinarySearchFunc(n.next, k, func(e edge, k key) int { return cmp.Compare(e.k, k) })
		if !ok {
			n.next = slices.Insert(n.next, i, edge{k, &phraseNode{}})
		}
		n = n.next[i].node
	}
	n.end = true
}

// firstKeys are the keys a phrase of list id may begin with, through the
// lists its phrases begin with, and whether one may begin with a number.
func (lx *safetyLexicon) firstKeys(id int, seen map[int]bool) (map[key]bool, bool) {
	keys, numbered := map[key]bool{}, false
	if seen[id] {
		return keys, false
	}
	seen[id] = true
	l := lx.lists[id]
	if l.number {
		return keys, true
	}
	for _, e := range l.root.next {
		keys[e.k] = true
	}
	for _, s := range l.root.slots {
		sub, num := lx.firstKeys(s.list, seen)
		for k := range sub {
			keys[k] = true
		}
		numbered = numbered || num
	}
	return keys, numbered
}

// wordForms are the usual forms of a word: "hold" → holds, holding;
// "breathe" → breathes, breathed, breathing; "eye" → eyes; "die" → dies,
// died, dying; "stop" → stops, stopped, stopping; "worry" → worries.
func wordForms(w string) []string {
	n := len(w)
	if n < 2 || numberValue(w) >= 0 {
		return nil
	}
	out := []string{w + "s", w + "es", w + "ed", w + "ing"}
	last := w[n-1]
	switch {
	case strings.HasSuffix(w, "ie"):
		out = append(out, w+"d", w[:n-2]+"ying")
	case last == 'e':
		out = append(out, w+"d")
		if !strings.HasSuffix(w, "ee") {
			out = append(out, w[:n-1]+"ing")
		}
	case last == 'y' && n > 2 && !isVowel(w[n-2]):
		out = append(out, w[:n-1]+"ies", w[:n-1]+"ied")
	case n >= 3 && !isVowel(last) && isVowel(w[n-2]) && !isVowel(w[n-3]) && !strings.ContainsRune("wxy", rune(last)):
		// one short syllable ending in a consonant: stop → stopped, stopping
		out = append(out, w+string(last)+"ed", w+string(last)+"ing")
	}
	return out
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// spot is where a list's phrase was found: words[from:to].
type spot struct {
	from, to int
	part     int
}

// find returns, for each list id wanted, the longest phrase of it that
// starts at each word, in order.
func (lx *safetyLexicon) find(words []word, wanted []bool, out [][]spot, sp *spareEnds) [][]spot {
	for i := range out {
		out[i] = out[i][:0]
	}
	ends := sp.get()
	defer func() { sp.put(ends) }()
	try := func(id, i int) {
		if !wanted[id] {
			return
		}
		// One spot per list per start: the list may be reached by two keys.
		if m := out[id]; len(m) > 0 && m[len(m)-1].from == i {
			return
		}
		ends = lx.ends(id, words, i, ends[:0], sp)
		best := -1
		for _, e := range ends {
			best = max(best, e)
		}
		if best > i {
			out[id] = append(out[id], spot{from: i, to: best, part: words[i].part})
		}
	}
	for i, w := range words {
		if w.brk {
			continue
		}
		for _, k := range w.keys {
			for _, id := range lx.firsts[k] {
				try(id, i)
			}
		}
		if w.num >= 0 || w.text == "a" {
			for _, id := range lx.numbered {
				try(id, i)
			}
		}
	}
	for id, ms := range out {
		if l := lx.lists[id]; l.except != nil && len(ms) > 0 {
			out[id] = lx.dropExcepted(l, words, ms, sp)
		}
	}
	return out
}

// dropExcepted removes the spots that share a word with one of the list's
// except phrases.
func (lx *safetyLexicon) dropExcepted(l *phraseList, words []word, ms []spot, sp *spareEnds) []spot {
	ends := sp.get()
	for i := range words {
		ends = lx.walk(l.except, words, i, true, ends[:0], sp)
		for _, e := range ends {
			ms = dropOverlapping(ms, spot{from: i, to: e})
		}
	}
	sp.put(ends)
	return ms
}

// dropOverlapping removes the spots that share a word with x.
func dropOverlapping(ms []spot, x spot) []spot {
	out := ms[:0]
	for _, m := range ms {
		if !overlap(m, x) {
			out = append(out, m)
		}
	}
	return out
}

// spareEnds are slices for the ends of phrases in slots, reused through a
// check: a slot inside a slot takes the next one.
type spareEnds struct {
	free [][]int
}

func (sp *spareEnds) get() []int {
	if n := len(sp.free); n > 0 {
		s := sp.free[n-1]
		sp.free = sp.free[:n-1]
		return s[:0]
	}
	return make([]int, 0, 8)
}

func (sp *spareEnds) put(s []int) { sp.free = append(sp.free, s) }

// ends appends where each phrase of list id that starts at words[i] ends.
func (lx *safetyLexicon) ends(id int, words []word, i int, out []int, sp *spareEnds) []int {
	l := lx.lists[id]
	if l.number {
		if n, end, ok := readNumber(words, i); ok && n > l.threshold {
			out = append(out, end)
		}
		return out
	}
	return lx.walk(l.root, words, i, true, out, sp)
}

// walk follows node from words[i]: after the first word of a phrase, up to
// maxGap [GAP] words may be stepped over before each next one.
func (lx *safetyLexicon) walk(n *phraseNode, words []word, i int, first bool, out []int, sp *spareEnds) []int {
	if n.end && !first {
		out = append(out, i)
	}
	for skip := 0; skip <= maxGap; skip++ {
		j := i + skip
		if j >= len(words) || words[j].brk {
			break
		}
		if skip > 0 && (first || !words[j-1].gap) {
			break
		}
		if len(n.next) > 0 {
			for _, k := range words[j].keys {
				if c := n.child(k); c != nil {
					out = lx.walk(c, words, j+1, false, out, sp)
				}
			}
		}
		for _, s := range n.slots {
			sub := lx.ends(s.list, words, j, sp.get(), sp)
			for _, e := range sub {
				out = lx.walk(s.node, words, e, false, out, sp)
			}
			sp.put(sub)
		}
	}
	return out
}
