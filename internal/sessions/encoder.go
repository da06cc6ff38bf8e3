package sessions

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/lull-dev/lull/internal/engine"
)

// encoder is encode for one session's saves, one after another, at a
// cost that does not grow with the history. Between two saves most of
// the file stays as it was: the history (most of the file) gains a line
// at its end, one phase moves on, the outcome rarely changes. The encoder
// keeps each history entry's line, each phase's lines and the outcome's
// as encode writes them, and encodes again only the header and what
// differs from what it kept (an entry edited or added, a phase that moved
// on). Its output is encode's, byte for byte.
type encoder struct {
	phases  kept[engine.PhaseRecord]
	outcome struct {
		doc  outcome
		text []byte
		set  bool
	}
	history kept[engine.Entry]
}

// How a list begins in the file: its key alone on a line before its
// items, or with nothing after it.
const (
	phasesKeyLine  = phasesKey + "\n"
	historyKeyLine = "history:\n"
	noPhases       = "phases: []\n"
	noHistory      = "history: []\n"
)

func (c *encoder) encode(st engine.State) ([]byte, error) {
	head, err := marshal(toHeader(st))
	if err != nil {
		return nil, err
	}
	if err := c.phases.follow(st.Phases[:], phaseLines); err != nil {
		return nil, err
	}
	if err := c.follow(toOutcome(st)); err != nil {
		return nil, err
	}
	if err := c.history.follow(st.History, entryLine); err != nil {
		return nil, err
	}
	parts := make([][]byte, 0, 6)
	parts = append(parts, head)
	parts = c.phases.list(parts, phasesKeyLine, noPhases)
	parts = append(parts, c.outcome.text)
	parts = c.history.list(parts, historyKeyLine, noHistory)
	return seal(parts...), nil
}

// follow keeps the outcome's text for o.
func (c *encoder) follow(o outcome) error {
	if c.outcome.set && reflect.DeepEqual(o, c.outcome.doc) {
		return nil
	}
	text, err := marshal(o)
	if err != nil {
		return err
	}
	if bytes.Equal(text, []byte("{}\n")) { // all of it left out: nothing in the document
		text = nil
	}
	c.outcome.doc, c.outcome.text, c.outcome.set = o, text, true
	return nil
}

// kept is the text of each item of a list in the file, by position, and
// the item it was encoded from; and all of it, joined, to write.
type kept[T comparable] struct {
	items []T
	texts [][]byte
	ends  []int  // where each item's text ends in text
	text  []byte // texts, joined
}

// follow makes the kept text that of items, encoding only the items not
// equal to those kept in their place.
func (k *kept[T]) follow(items []T, encode func(T) ([]byte, error)) error {
	n := min(len(k.items), len(items))
	k.items, k.texts = k.items[:n], k.texts[:n]
	from := n // the first item whose text changed
	for i, it := range items {
		if i < n && k.items[i] == it {
			continue
		}
		text, err := encode(it)
		if err != nil {
			*k = kept[T]{} // begin again next time
			return err
		}
		if i < n {
			k.items[i], k.texts[i] = it, text
			from = min(from, i)
		} else {
			k.items, k.texts = append(k.items, it), append(k.texts, text)
		}
	}
	// Joined again from the first change: as a rule, only what was added.
	end := 0
	if from > 0 {
		end = k.ends[from-1]
	}
	k.ends, k.text = k.ends[:from], k.text[:end]
	for _, text := range k.texts[from:] {
		k.text = append(k.text, text...)
		k.ends = append(k.ends, len(k.text))
	}
	return nil
}

// list appends the list as the file holds it: key, then its items; or
// empty, when it has none.
func (k *kept[T]) list(parts [][]byte, key, empty string) [][]byte {
	if len(k.texts) == 0 {
		return append(parts, []byte(empty))
	}
	return append(parts, []byte(key), k.text)
}

// phaseLines is r's lines in the list of phases, as encode writes them.
func phaseLines(r engine.PhaseRecord) ([]byte, error) {
	return item(phaseList{[]phaseDoc{toPhase(r)}}, phasesKeyLine)
}

// entryLine is e's line in the history, as encode writes it.
func entryLine(e engine.Entry) ([]byte, error) {
	return item(historyList{[]entryDoc{toEntry(e)}}, historyKeyLine)
}

// item is the one item of list, a part of the document holding a list of
// one, without the key line that begins it.
func item(list any, key string) ([]byte, error) {
	b, err := marshal(list)
	if err != nil {
		return nil, err
	}
	text, ok := bytes.CutPrefix(b, []byte(key))
	if !ok {
		return nil, fmt.Errorf("encoding the session: a list's item came out as %q", clip(b, 48))
	}
	return text, nil
}
