package prompts

import (
	"runtime"
	"testing"
	"weak"
)

// The engine compiles the safety rules once and keeps only the compiled
// screen: the rules as read must not be held for the life of a session.
func TestSafetyRulesAreNotKept(t *testing.T) {
	sr, err := Safety()
	if err != nil {
		t.Fatal(err)
	}
	w := weak.Make(sr)
	sr = nil
	runtime.GC()
	runtime.GC()
	if w.Value() != nil {
		t.Error("the safety rules are still held after their last use")
	}
}
