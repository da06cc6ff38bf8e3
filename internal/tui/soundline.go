package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// soundNow is the sound as the run last said it plays (Run.Sound).
type soundNow struct {
	known bool
	voice string // the voice speaking: "flite", "espeak-ng", …; "none" for text only
	heard bool
	level int     // 0–engine.MaxVolume
	rate  float64 // the voice's pace, a factor of the normal one
	scape int     // the soundscape's own level, 0–engine.MaxVolume
}

// soundMsg says what a sound key changed, if anything, and how the sound
// plays now.
type soundMsg struct {
	gen  int
	text string // "" when nothing was changed: only read
	now  soundNow
}

func soundOf(r Run) soundNow {
	voice, heard, level := r.Sound()
	rate, scape := r.Tuning()
	return soundNow{known: true, voice: voice, heard: heard, level: level, rate: rate, scape: scape}
}

// sound changes the sound off the UI goroutine and says what it did.
func (m Model) sound(change func(Run) string) tea.Cmd {
	r, gen := m.run, m.gen
	return func() tea.Msg {
		text := change(r)
		return soundMsg{gen: gen, text: text, now: soundOf(r)}
	}
}

// readSound asks, off the UI goroutine, how the run's sound plays: as it
// opens, and when a notice may say the voice changed.
func (m Model) readSound() tea.Cmd {
	r, gen := m.run, m.gen
	if r == nil {
		return nil
	}
	return func() tea.Msg { return soundMsg{gen: gen, now: soundOf(r)} }
}

// soundLine is the line over the keys while a session plays, when no
// message stands there: which voice speaks and how loud, on a screen
// tall enough to spare the row; and on any screen, for as long as it
// lasts, that nothing is heard — no voice found, the voice turned off,
// the volume at 0 — and what brings it back. "" when there is nothing to
// say.
func (v sessionView) soundLine(width int, tall bool, s *Styles) string {
	n := v.sound
	if !n.known || v.drifting || v.switching || v.status.Finished() || v.status == engine.Interrupted {
		return ""
	}
	// Each mark in full, and in brief for a narrow screen.
	var long, short []string
	doctor := human.Command("doctor")
	noVoice := n.voice == "none" && v.voiceChosen != "none" && !v.practice
	switch {
	case noVoice && n.level <= 0:
		long = []string{"No voice found, and volume 0: nothing is heard", "+ turns it up", "voices: " + doctor}
		short = []string{"No voice, volume 0", "+ turns it up"}
	case noVoice:
		long = []string{"No voice found: the words are on screen only", "voices: " + doctor}
		short = []string{"No voice found", doctor}
	case !n.heard && n.level <= 0 && !v.practice:
		long = []string{"Voice off, volume 0: nothing is heard", "v and + bring it back"}
		short = []string{"Voice off, volume 0: silent"}
	case !n.heard && !v.practice:
		long = []string{"Voice off: the words are on screen only", "v turns it on"}
		short = []string{"Voice off", "v turns it on"}
	case n.level <= 0:
		long = []string{"Volume 0: nothing is heard", "+ turns it up"}
		short = []string{"Volume 0: silent", "+ turns it up"}
	}
	if len(long) > 0 {
		line := strings.Join(long, " · ")
		if lipgloss.Width(line) > width {
			line = fitParts(short, width)
		}
		return s.Warn.Render(line)
	}
	var parts []string
	if !tall || v.practice {
		return ""
	}
	voice := "Voice: " + n.voice
	if n.voice == "none" {
		voice = "No voice (text only)"
	}
	parts = []string{voice, fmt.Sprintf("volume %d of %d", n.level, engine.MaxVolume)}
	// The voice's pace and the soundscape's level are named when the
	// listener has moved them from lull's own.
	if r := engine.VoiceRateOr1(n.rate); r != 1 {
		parts = append(parts, fmt.Sprintf("pace %.2f", r))
	}
	if n.scape != engine.DefaultVolume {
		parts = append(parts, fmt.Sprintf("soundscape %d of %d", n.scape, engine.MaxVolume))
	}
	parts = append(parts, "other voices: "+human.Command("doctor"))
	return s.Muted.Render(fitParts(parts, width))
}

// fitParts joins parts with " · ", leaving out from the end those that do
// not fit in width; the first is cut with "…" when it alone is too wide.
func fitParts(parts []string, width int) string {
	line := truncate(parts[0], max(width, 1))
	for _, p := range parts[1:] {
		next := line + " · " + p
		if lipgloss.Width(next) > width {
			break
		}
		line = next
	}
	return line
}
