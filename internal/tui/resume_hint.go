package tui

import (
	"fmt"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// StoppedAt says where a session that stopped before its end stands, as
// the hint to resume it begins: "Paused at Sensory, 8:12 of 20:00". It is
// "" for a session that is not paused or interrupted.
func StoppedAt(st engine.State) string {
	var how string
	switch st.Status {
	case engine.Paused:
		how = "Paused"
	case engine.Interrupted:
		how = "Interrupted"
	default:
		return ""
	}
	if st.Practice == engine.PracticeSit && st.Length == 0 {
		return fmt.Sprintf("%s sitting, at %s", how, human.Clock(st.Elapsed))
	}
	if st.Practice == engine.PracticeSit {
		return fmt.Sprintf("%s sitting, %s of %s", how, human.Clock(st.Elapsed), human.Clock(st.Length))
	}
	return fmt.Sprintf("%s at %s, %s of %s", how, st.Phase.Title(), human.Clock(st.Elapsed), human.Clock(st.Length))
}

// remember keeps the session a close let go of, when it can be resumed,
// for Left; a session that ended, or was closed again and ended, is
// forgotten.
func (m *Model) remember(msg closedMsg) {
	switch {
	case msg.err == nil && StoppedAt(msg.st) != "":
		m.left = msg.st
	case m.left.ID == msg.id:
		m.left = engine.State{}
	}
}

// Left is the session this screen last let go of paused or interrupted,
// so that lull can say how to resume it once the screen is gone.
func (m Model) Left() (engine.State, bool) {
	return m.left, m.left.ID != ""
}
