package tui

import "github.com/lull-dev/lull/internal/engine"

// RetryWith runs the interrupted session on again, on a guide that
// speaks, and notes what it was asked for.
func (r *testRun) RetryWith(provider, model string) error {
	r.mu.Lock()
	r.retried = append(r.retried, provider+" "+model)
	r.mu.Unlock()
	return r.again(plainGuide{})
}

func (r *testRun) retries() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.retried...)
}

// Stopped words a guide's failure as the app does (llm.Explain), for the
// one failure these tests make: a provider that is down.
func (r *testRun) Stopped() (what, do string) {
	<-r.finished()
	if r.Snapshot().Status == engine.Interrupted {
		return "The server had a problem of its own.", "Try again in a minute or two, or carry on with the built-in guide."
	}
	return "The guide stopped unexpectedly.", "Try again, or carry on with the built-in guide."
}
