package sessions

import (
	"bytes"
	"fmt"

	"lull/engine"
)

// encoder is encode for one session's saves, one after another, at a
// cost that does not grow with the history. The history is most of the
// file, comes last, and between saves mostly grows at its end: the
// encoder keeps each entry's line as encode writes it and encodes only
// the head of the file and the entries it has not seen. Whatever no
// longer matches what it kept (an entry edited, a history shortened) is
// encoded again. Its output is encode's, byte for byte.
type encoder struct {
	entries []engine.Entry // the history as last encoded
	ends    []int          // where each entry's line ends in lines
	lines   []byte         // "  - {at: ...}\n", one per entry
}

// How the history begins in the file: its key alone on a line before its
// entries, or with nothing after it.
const (
	historyKey   = "history:\n"
	emptyHistory = "history: []\n"
)

func (c *encoder) encode(st engine.State) ([]byte, error) {
	head, err := marshal(toHead(st))
	if err != nil {
		return nil, err
	}
	// The history is the document's last field: the head ends where it
	// would begin.
	body, ok := bytes.CutSuffix(head, []byte(emptyHistory))
	if !ok {
		return nil, fmt.Errorf("encoding the session: the history is not where it belongs (the head ends %q)", clip(head[max(0, len(head)-24):], 24))
	}
	if err := c.follow(st.History); err != nil {
		return nil, err
	}
	if len(st.History) == 0 {
		return seal(body, []byte(emptyHistory)), nil
	}
	return seal(body, []byte(historyKey), c.lines), nil
}

// follow makes the kept lines those of history: the entries it shares
// with the last history are kept, the rest encoded.
func (c *encoder) follow(history []engine.Entry) error {
	same := 0
	for same < min(len(c.entries), len(history)) && c.entries[same] == history[same] {
		same++
	}
	c.truncate(same)
	for _, e := range history[same:] {
		line, err := entryLine(e)
		if err != nil {
			return err
		}
		c.entries = append(c.entries, e)
		c.lines = append(c.lines, line...)
		c.ends = append(c.ends, len(c.lines))
	}
	return nil
}

func (c *encoder) truncate(n int) {
	end := 0
	if n > 0 {
		end = c.ends[n-1]
	}
	c.entries, c.ends, c.lines = c.entries[:n], c.ends[:n], c.lines[:end]
}

// historyOf is a document holding nothing but a history, to encode its
// entries as the whole document does.
type historyOf struct {
	History []entryDoc `yaml:"history"`
}

// entryLine is e's line in the history, as encode writes it.
func entryLine(e engine.Entry) ([]byte, error) {
	b, err := marshal(historyOf{[]entryDoc{toEntry(e)}})
	if err != nil {
		return nil, err
	}
	line, ok := bytes.CutPrefix(b, []byte(historyKey))
	if !ok {
		return nil, fmt.Errorf("encoding the session: a history entry came out as %q", clip(b, 48))
	}
	return line, nil
}
