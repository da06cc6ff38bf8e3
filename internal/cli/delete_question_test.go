package cli

import (
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// The question before a delete names the session in words: a session
// without an intention said "(completed, —)".
func TestDeleteQuestionNamesTheSession(t *testing.T) {
	for _, c := range []struct {
		intention, want string
	}{
		{"", "Delete session 20261124-0930-abcd (completed, no intention)?"},
		{"calm before a talk", "Delete session 20261124-0930-abcd (completed, calm before a talk)?"},
	} {
		st := engine.State{Status: engine.Completed, Intention: c.intention}
		if got := deleteQuestion("20261124-0930-abcd", st); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
