package tui

import "testing"

// Golden views of the rough edges fixed: the delete dialog naming its
// session, the cancel dialog over a session it paused, and the session
// screen at 40×12 showing whole sentences.
func TestEdgeGoldenViews(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		del := homeModel(t, filterSessions(), nil)
		del, _ = press(del, "down", "d")
		cancel := sessionModel(sessionState(), 80, 24)
		cancel.dialog, cancel.cancelPaused = dialogCancel, true
		views := map[string]Model{
			"delete_dialog":        del,
			"cancel_dialog_paused": cancel,
			"session_small": withLast(40, 12,
				"Feel the weight of your shoulders settle, a little lower with each breath out.",
				"Rest now."),
		}
		for name, m := range views {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
}
