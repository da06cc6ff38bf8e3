package app

import "github.com/lull-dev/lull/internal/llm"

// Stopped says in plain words why the guide stopped an interrupted
// session, and what the listener can do (llm.Explain); the detail is in
// the log. It waits for the engine to stop: call it off the UI goroutine.
func (r *Run) Stopped() (what, do string) {
	reason := llm.Explain(r.Err())
	return reason.What, reason.Do
}
