package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/human"
)

// level is how much a status message matters.
type level int

const (
	levelInfo level = iota
	levelWarn
	levelError
)

// statusLine is one message above the keys. Each message carries a
// sequence number so an old timer never clears a newer message.
type statusLine struct {
	text  string
	level level
	seq   int
}

type statusTimeoutMsg struct{ seq int }

// set shows a message; it clears itself after d (never when d is 0).
func (s *statusLine) set(text string, l level, d time.Duration) tea.Cmd {
	s.seq++
	s.text, s.level = human.Line(text), l // errors and notices quote providers and files
	if d <= 0 {
		return nil
	}
	seq := s.seq
	return tea.Tick(d, func(time.Time) tea.Msg { return statusTimeoutMsg{seq: seq} })
}

func (s *statusLine) timeout(msg statusTimeoutMsg) {
	if msg.seq == s.seq {
		s.text = ""
	}
}

func (s statusLine) View(st *Styles, width int) string {
	if s.text == "" {
		return ""
	}
	text := truncate(s.text, max(width, 1))
	switch s.level {
	case levelError:
		return st.Error.Render(text)
	case levelWarn:
		return st.Warn.Render(text)
	default:
		return st.Info.Render(text)
	}
}
