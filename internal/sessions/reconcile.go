package sessions

import (
	"fmt"
	"slices"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A checkpoint appends the sentence just spoken to transcript.md, then
// replaces session.yaml. On a full disk either can fail while the other
// works, for as long as the disk stays full, so the two can part: the
// transcript goes on past a session.yaml stuck where it was (appends fit
// in the file's last block, a new session.yaml does not), or the reverse.
// Before a session runs on, they are made to agree.
//
// A transcript line is written only once its sentence was heard, so what
// the transcript holds beyond session.yaml was spoken to the listener:
// those sentences are kept as spoken, and the session goes on after them.
// Cutting the transcript back instead would have the listener hear their
// place again, and the transcript would lose what they heard; it would
// also have the next line open its phase with a second heading. When
// session.yaml holds sentences the transcript lacks, they were spoken too,
// and are added to the transcript.
//
// Only the guide's lines are compared, by phase, time and words. A
// transcript that is damaged, out of order, only partly read, or that does
// not begin as session.yaml's session did is left as it is (loading says
// what is wrong with it), and so is one whose lines and session.yaml's
// part somewhere in the middle.

// reconcile is st made to agree with the transcript sc: the state to run
// on, the entries to add to the transcript, and a note for the listener.
func reconcile(st engine.State, sc *scan) (engine.State, []engine.Entry, string) {
	if sc == nil || st.Status.Finished() || historyNote(st) != "" {
		return st, nil, ""
	}
	if open, ok := sc.opening(); !ok || open.ID != st.ID || sc.damaged > 0 || sc.disorder > 0 {
		return st, nil, ""
	}
	said := guideLines(st.History)
	heard := guideLines(sc.entries())
	n := 0
	for n < len(said) && n < len(heard) && sameLine(said[n], heard[n]) {
		n++
	}
	switch {
	case n == len(said) && n < len(heard):
		more := heard[n:]
		if !forward(st.Phase, more) {
			return st, nil, ""
		}
		on := spokeOn(st.Clone(), more)
		if on.Chain.ResponseID != "" {
			// The provider's stored memory of the session does not hold them.
			for _, e := range more {
				on.Chain.Unchained = append(on.Chain.Unchained, e.Text)
			}
		}
		if on.Validate() != nil {
			return st, nil, ""
		}
		return on, nil, fmt.Sprintf("%s went further than %s, whose last saves did not reach the disk: its %d later %s %s kept as spoken, and the session goes on after %s, in %s (timing estimated).",
			transcriptName, primaryName, len(more), plural(len(more), "sentence"), plural2(len(more), "is", "are"), plural2(len(more), "it", "them"), on.Phase)
	case n == len(heard) && n < len(said):
		missing := said[n:]
		return st, missing, fmt.Sprintf("%s lacked the last %d %s %s holds (writing %s had failed); %s added to it.",
			transcriptName, len(missing), plural(len(missing), "sentence"), primaryName, plural2(len(missing), "it", "them"), plural2(len(missing), "it is", "they are"))
	}
	return st, nil, ""
}

// reconcile makes the session just reopened and its transcript agree: the
// state it runs on, and the lines the transcript lacks written to it.
func (s *Session) reconcile() error {
	st, missing, note := reconcile(s.state, s.transcript.found)
	for i, e := range missing {
		if err := s.transcript.add(e); err != nil {
			return fmt.Errorf("session %s: %s lacks %d sentences %s holds, and adding them failed after %d: %w",
				s.id, transcriptName, len(missing), primaryName, i, err)
		}
	}
	s.state = st
	if note != "" {
		s.report.Notes = append(s.report.Notes, note)
	}
	return nil
}

// guideLines are the guide's entries, in order.
func guideLines(entries []engine.Entry) []engine.Entry {
	var out []engine.Entry
	for _, e := range entries {
		if e.Role == engine.RoleGuide {
			out = append(out, e)
		}
	}
	return out
}

// sameLine says whether a history entry is the one a transcript record
// holds: the record keeps the words on one line and the time to the
// millisecond.
func sameLine(h, t engine.Entry) bool {
	return h.Role == t.Role && h.Phase == t.Phase && oneLine(h.Text) == t.Text &&
		h.At.UTC().Truncate(time.Millisecond).Equal(t.At)
}

// forward says whether entries go on from phase p, never back.
func forward(p engine.Phase, entries []engine.Entry) bool {
	return slices.IsSortedFunc(entries, func(a, b engine.Entry) int { return int(a.Phase) - int(b.Phase) }) &&
		entries[0].Phase >= p
}

// plural2 picks the singular or plural form of a phrase.
func plural2(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
