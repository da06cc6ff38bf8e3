package sessions

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// oddTexts are lines YAML would read as something else unless quoted, or
// that need escapes, or are long.
var oddTexts = []string{
	`He said: "breathe" — #1, {calm}, [soft]`, "yes", "no", "null", "~", "true", "0x1F", "1e3", "-", "- a dash",
	"? key", "a: b", "#not a comment", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`", "|", ">",
	"two\nlines", "crlf\r\nend", " leading space", "trailing space ", "tab\tinside", "bell\a", "nul\x00inside",
	"café ☾", "emoji 🌙🫁", "line\u2028separator", "next\u0085line", "\ufeffbom", "'single'", `back\slash`,
	"", " ", "---", "...", "2026-11-23T10:15:00Z", strings.Repeat("a long, slow breath out; ", 40),
	"not utf-8 \xff\xfe",
}

// encoderSteps is a history as a session and its recoveries change it:
// growing a line at a time, an earlier line edited, shortened as a
// rebuild leaves it, emptied, and its head changing all along.
func encoderSteps(t *testing.T) []engine.State {
	base := fullState(t, id)
	var steps []engine.State
	st := base.Clone()
	st.History = nil
	add := func() { steps = append(steps, st.Clone()) }
	add() // an empty history
	for i, text := range oddTexts {
		st.History = append(st.History, engine.Entry{At: at(time.Duration(i) * time.Second), Phase: engine.Phases[i%len(engine.Phases)], Role: engine.RoleGuide, Text: text})
		st.Elapsed += time.Second
		add()
	}
	st.History[3].Text = "edited"
	add()
	st.History[0].At = st.History[0].At.Add(time.Millisecond)
	add()
	st.History[len(st.History)-1].Role = engine.RoleSystem
	add()
	st.History = st.History[:5] // rebuilt from a transcript that had less
	add()
	st.History = append(st.History, engine.Entry{At: at(time.Hour), Phase: engine.Breathing, Role: engine.RoleGuide, Text: "after the rebuild"})
	add()
	// (TestEncoderIsEncodeAtRandom edits these lists in place too.)
	st.Stored[0], st.Chain.Unchained[0] = engine.Stored{ID: "resp_edited", Server: "http://gpu-box:8000/v1"}, "edited"
	add()
	st.Phases[1].Spoken++
	st.Phases[1].Tokens.Cached = 12
	add()
	st.Summary, st.Chain, st.Runs, st.Note = nil, engine.Chain{}, nil, "a note: with a colon"
	add()
	st.Stored, st.Cost = nil, 0 // no outcome at all
	add()
	st.History = nil
	add()
	st.History = base.History
	add()
	// The same instant in another zone: written in UTC, the same line.
	st.History = append(st.History[:len(st.History):len(st.History)], st.History[1])
	st.History[len(st.History)-1].At = st.History[1].At.In(time.FixedZone("x", 3600))
	add()
	return steps
}

// An encoder's output is encode's, byte for byte, whatever the history
// went through, including what encode refuses.
func TestEncoderIsEncode(t *testing.T) {
	var c encoder
	for i, st := range encoderSteps(t) {
		sameEncoding(t, &c, st, fmt.Sprintf("step %d", i))
	}
}

// The same at random: changes of every kind, through one encoder.
func TestEncoderIsEncodeAtRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 13))
	st := fullState(t, id)
	var c encoder
	for i := range 300 {
		h := st.History
		switch op := rng.IntN(16); {
		case op < 5 || len(h) == 0: // a new line, as most saves
			for range 1 + rng.IntN(3) {
				h = append(h, engine.Entry{At: at(time.Duration(rng.IntN(1e9))), Phase: engine.Phases[rng.IntN(len(engine.Phases))],
					Role: engine.RoleGuide, Text: oddTexts[rng.IntN(len(oddTexts))]})
			}
		case op == 5: // an earlier line edited
			h = append([]engine.Entry(nil), h...)
			h[rng.IntN(len(h))].Text = oddTexts[rng.IntN(len(oddTexts))]
		case op == 6: // shortened
			h = h[:rng.IntN(len(h))]
		case op == 7: // replaced by another of the same length
			h = append([]engine.Entry(nil), h...)
			for j := range h {
				h[j].Phase = engine.Phases[rng.IntN(len(engine.Phases))]
			}
		case op == 8: // a phase moves on
			p := &st.Phases[rng.IntN(len(st.Phases))]
			p.Spoken++
			p.Elapsed += time.Duration(rng.IntN(1e9))
			p.Tokens.In += rng.IntN(100)
			p.StartedAt = at(time.Duration(rng.IntN(1e9)))
		case op == 9: // a summary made, changed or dropped
			if rng.IntN(3) == 0 {
				st.Summary = nil
			} else {
				st.Summary = &engine.Summary{Duration: time.Duration(rng.IntN(1e12)), Sentences: rng.IntN(100), Partial: rng.IntN(2) == 0,
					Tokens: engine.Tokens{In: rng.IntN(3)}, Cost: float64(rng.IntN(3)) / 7, CompletedAt: at(time.Duration(rng.IntN(1e9)))}
			}
		case op == 10: // a run begins
			st.Runs = append(st.Runs, engine.Run{Guide: "openai", Model: oddTexts[rng.IntN(len(oddTexts))], StartedAt: at(time.Duration(rng.IntN(1e9)))})
		case op == 11: // the chain moves, or is let go
			if rng.IntN(3) == 0 {
				st.Chain = engine.Chain{}
			} else {
				st.Chain = engine.Chain{ResponseID: fmt.Sprintf("resp_%d", rng.IntN(1e6)), Provider: "p",
					Unchained: append(st.Chain.Unchained[:len(st.Chain.Unchained):len(st.Chain.Unchained)], oddTexts[rng.IntN(len(oddTexts))])}
			}
		case op == 12: // stored responses and cost grow, or the list is edited in place
			if len(st.Stored) > 0 && rng.IntN(2) == 0 {
				st.Stored[rng.IntN(len(st.Stored))] = engine.Stored{ID: fmt.Sprintf("resp_%d", rng.IntN(1e6)), Server: "https://api.openai.com/v1"}
			} else {
				st.Stored = append(st.Stored, engine.Stored{ID: fmt.Sprintf("resp_%d", rng.IntN(1e6))})
			}
			st.Cost += float64(rng.IntN(5)) / 1000
		default: // only the header changes
			st.Elapsed += time.Duration(rng.IntN(1e6))
			st.Intention = oddTexts[rng.IntN(len(oddTexts))]
		}
		st.History = h
		sameEncoding(t, &c, st, fmt.Sprintf("change %d (seed %d)", i, seed))
		if t.Failed() {
			return
		}
	}
}

func sameEncoding(t *testing.T, c *encoder, st engine.State, what string) {
	t.Helper()
	want, werr := encode(st)
	got, gerr := c.encode(st)
	switch {
	case (werr == nil) != (gerr == nil):
		t.Errorf("%s: encode says %v, the encoder %v", what, werr, gerr)
	case !bytes.Equal(got, want):
		t.Errorf("%s: the encoder's bytes differ from encode's\n got %q\nwant %q", what, got, want)
	case werr == nil:
		if _, err := decode(got, st.ID); err != nil && !strings.Contains(err.Error(), "hold together") {
			t.Errorf("%s: it does not load: %v", what, err)
		}
	}
}

// Any text, in the history, the intention or a stored list, encodes the
// same through an encoder that saw the session before as through encode.
func FuzzEncoderIsEncode(f *testing.F) {
	for i, text := range oddTexts {
		f.Add(text, oddTexts[(i+1)%len(oddTexts)], uint8(i))
	}
	f.Fuzz(func(t *testing.T, text, other string, where uint8) {
		st := fullState(t, id)
		var c encoder
		sameEncoding(t, &c, st, "before")
		st.History = append(st.History, engine.Entry{At: at(time.Hour), Phase: engine.Breathing, Role: engine.RoleGuide, Text: text})
		st.History[int(where)%len(st.History)].Text = other
		st.Phases[1].Spoken++
		st.Intention, st.Stored = other, append(st.Stored, engine.Stored{ID: text, Server: other})
		sameEncoding(t, &c, st, "after")
	})
}
