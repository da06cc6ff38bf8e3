package tui

import (
	"bytes"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// The interrupted screen says in plain words why the guide stopped —
// never the server's raw error, in the body or the status line — and m
// runs the session on another model, at another server when there is one.
func TestInterruptedSwitchesModelInPlainWords(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-down", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRunWith(st, downGuide{})
	b := &fakeBackend{servers: []string{"localhost:11434", "OpenAI"}}
	m := New(Options{Backend: b, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)
	waitFor(t, tm, "The server had a problem of its own.")
	waitFor(t, tm, "m  try another model")

	tm.Send(tea.KeyPressMsg{Code: 'm', Text: "m"})
	waitFor(t, tm, "Try another model")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	waitFor(t, tm, "r  try the guide again")
	tm.Send(tea.KeyPressMsg{Code: 'm', Text: "m"})
	waitFor(t, tm, "gpt-4.1-mini") // the model it was on, to edit
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	for _, c := range "gpt-4.1-nano" {
		tm.Send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	waitFor(t, tm, "[OpenAI]")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	deadline := time.Now().Add(time.Minute) // bounds a failure only
	for len(r.retries()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := r.retries(); !slices.Equal(got, []string{"OpenAI gpt-4.1-nano"}) {
		t.Fatalf("RetryWith was given %q, want the model typed at the server chosen", got)
	}
	waitFor(t, tm, "The session is complete.")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	if out := everDrawn(t, tm); bytes.Contains(out, []byte("503")) || bytes.Contains(out, []byte("server is down")) {
		t.Errorf("the server's raw error reached the screen:\n%s", out)
	}
}
