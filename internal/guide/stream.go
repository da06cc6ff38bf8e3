package guide

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/engine"
)

// textStream hands out a call's text a few words at a time, now and then
// cutting a word in two, the way an LLM's tokens arrive: the engine's
// splitter sees the built-in guide exactly as it sees any other.
type textStream struct {
	pieces []string
	next   int
	closed bool
}

func newTextStream(sentences []string, seed uint64) *textStream {
	return &textStream{pieces: pieces(strings.Join(sentences, " "), seed)}
}

// Next returns the next piece, or io.EOF when the call is done.
func (s *textStream) Next(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if s.closed || s.next >= len(s.pieces) {
		return "", io.EOF
	}
	p := s.pieces[s.next]
	s.next++
	return p, nil
}

// Close stops the stream; Next then reports io.EOF.
func (s *textStream) Close() error {
	s.closed = true
	return nil
}

// pieces cuts text into runs of one to three words, spaces kept, and
// sometimes splits a run inside a word.
func pieces(text string, seed uint64) []string {
	if text == "" {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c756c6c)) // "lull"
	words := strings.SplitAfter(text, " ")
	var out []string
	for len(words) > 0 {
		n := min(1+rng.IntN(3), len(words))
		run := strings.Join(words[:n], "")
		words = words[n:]
		if len(run) > 6 && rng.IntN(4) == 0 {
			cut := 1 + rng.IntN(len(run)-1)
			for cut < len(run) && !utf8.RuneStart(run[cut]) {
				cut++ // never inside a character
			}
			if cut < len(run) {
				out = append(out, run[:cut], run[cut:])
				continue
			}
		}
		out = append(out, run)
	}
	return out
}

// pieceSeed varies where the cuts fall from call to call, reproducibly.
func pieceSeed(req engine.Request) uint64 {
	s := uint64(req.Seed)*31 + uint64(req.Phase)
	s = s*31 + uint64(req.Spoken)
	if req.WindDown {
		s++
	}
	return s
}
