package llm

import (
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// reasoningPatience is how many watchdog periods a call may wait for its
// first text: 90 s with the default 30 s watchdog. A reasoning model may
// think that long in silence; any other model must send something at
// least every period (a keep-alive comment will do), and its text too
// must begin within the bound.
const reasoningPatience = 3

// watchdog fails an attempt whose server has gone quiet. Every sign of
// life resets it: an event of the stream, reasoning ones too, or any
// bytes at all, such as the keep-alive comments a proxy sends while a
// model thinks. Between text deltas it allows one period of silence;
// before the first text it allows the same, or reasoningPatience periods
// for a model known to reason, and never more than that in all.
type watchdog struct {
	period time.Duration
	fire   func() // cancels the attempt

	mu          sync.Mutex
	timer       *time.Timer
	start, last time.Time
	texted      bool   // the first text has come
	reasons     bool   // the model reasons: silence before text is allowed
	paused      bool   // a full buffer: the listener is not listening
	ended       bool   // the attempt is over
	why         string // why it fired, once it has
}

func newWatchdog(period time.Duration, reasons bool, fire func()) *watchdog {
	now := time.Now()
	w := &watchdog{period: period, fire: fire, start: now, last: now, reasons: reasons}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer = time.AfterFunc(w.deadline().Sub(now), w.check)
	return w
}

// deadline is when the attempt fails unless the server is heard from.
// Callers hold mu.
func (w *watchdog) deadline() time.Time {
	idle := w.last.Add(w.period)
	if w.texted {
		return idle
	}
	first := w.start.Add(reasoningPatience * w.period)
	if w.reasons || first.Before(idle) {
		return first
	}
	return idle
}

// arm sets the timer to the deadline. Callers hold mu.
func (w *watchdog) arm() {
	if !w.paused && !w.ended && w.why == "" {
		w.timer.Reset(time.Until(w.deadline()))
	}
}

func (w *watchdog) check() {
	w.mu.Lock()
	if w.paused || w.ended || w.why != "" {
		w.mu.Unlock()
		return
	}
	if d := w.deadline(); time.Now().Before(d) { // heard from since the timer was set
		w.timer.Reset(time.Until(d))
		w.mu.Unlock()
		return
	}
	if patience := reasoningPatience * w.period; !w.texted && time.Since(w.start) >= patience {
		w.why = "the model had not begun to write after " + patience.String()
	} else {
		w.why = "the model sent nothing for " + w.period.String()
	}
	w.mu.Unlock()
	w.fire()
}

// alive is called for every sign of life from the server.
func (w *watchdog) alive() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last, w.paused = time.Now(), false
	w.arm()
}

// sawText is called for each piece of the model's text.
func (w *watchdog) sawText() {
	w.mu.Lock()
	w.texted = true
	w.mu.Unlock()
	w.alive()
}

// reasoning is called when the server shows the model reasons: it may
// think until the patience runs out.
func (w *watchdog) reasoning() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reasons = true
	w.arm()
}

// Stop pauses the watchdog while the call waits on its own side (a full
// buffer, a moderation request); the next sign of life resumes it.
func (w *watchdog) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.paused = true
	w.timer.Stop()
}

// end stops the watchdog for good.
func (w *watchdog) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
	w.timer.Stop()
}

// reason is why the watchdog fired; "" when it has not.
func (w *watchdog) reason() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.why
}

// listen makes every read of the response body a sign of life, so that
// SSE comments, which openai-go skips, keep the call alive too.
func (w *watchdog) listen() option.RequestOption {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if res != nil && res.Body != nil {
			res.Body = &livelyBody{ReadCloser: res.Body, w: w}
		}
		return res, err
	})
}

// livelyBody is a response body that tells the watchdog whenever bytes come.
type livelyBody struct {
	io.ReadCloser
	w *watchdog
}

func (h *livelyBody) Read(p []byte) (int, error) {
	n, err := h.ReadCloser.Read(p)
	if n > 0 {
		h.w.alive()
	}
	return n, err
}
