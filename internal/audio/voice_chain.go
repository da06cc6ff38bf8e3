package audio

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// chain is the session's voice: the chosen one first, then the others
// installed, best first. When the current voice fails, the same sentence
// goes to the next, which stays current from then on; a voice that failed
// is not tried again, so a broken one costs one sentence, not every one.
type chain struct {
	voices []Voice
	notify func(string) // told once per switch

	mu   sync.Mutex // guards cur and last
	cur  int        // len(voices): every voice has failed
	last error      // why the last voice failed
}

func newChain(voices []Voice, notify func(string)) *chain {
	if notify == nil {
		notify = func(string) {}
	}
	return &chain{voices: voices, notify: notify}
}

// Name is the current voice's; "none" once all have failed.
func (c *chain) Name() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur >= len(c.voices) {
		return "none"
	}
	return c.voices[c.cur].Name()
}

// Speak tries the current voice and falls to the next on any failure but
// the context's: a cancelled sentence says nothing about the voice.
func (c *chain) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	c.mu.Lock()
	i := c.cur
	c.mu.Unlock()
	for {
		if i >= len(c.voices) {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.last == nil {
				return nil, errors.New("no voice to speak with")
			}
			return nil, c.last
		}
		v := c.voices[i]
		clip, err := v.Speak(ctx, l, rate)
		if err == nil {
			return clip, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		c.mu.Lock()
		switched := c.cur == i // a concurrent sentence may have moved on already
		if switched {
			c.cur++
			c.last = err
		}
		i = c.cur
		c.mu.Unlock()
		if switched && i < len(c.voices) {
			c.notify(fmt.Sprintf("The voice %s stopped working (%s); continuing with %s.",
				v.Name(), reason(err), c.voices[i].Name()))
		}
	}
}

// reason is what went wrong without the voice's name, which the notice
// already says.
func reason(err error) string {
	var ve *voiceError
	if errors.As(err, &ve) {
		return ve.err.Error()
	}
	return err.Error()
}
