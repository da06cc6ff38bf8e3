package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// Golden views of issue 26's screen fixes, light and dark, at 80×24 and
// 40×12: the voice named over the keys and the lasting mark of a sound
// that is off; the small screens with their essential keys, "…" where
// text is cut and the form's fields out of sight named; the intention's
// count and its refusal, at both sizes; a finished session's "enter read
// it"; the end screen with a mood given (q quits); "you slept well"; a
// sit, timed, open-ended and paused, its state kept on a small screen.
func TestFirstHourGoldenViews(t *testing.T) {
	small := func(m Model) Model { return sized(m, 40, 12) }
	home := small(homeModel(t, sampleSessions(), nil))
	form, ask := press(small(homeModel(t, sampleSessions(), nil)), "n")
	form = run(t, form, ask)
	form, _ = press(form, "tab", "c", "a", "l", "m")
	long, ask := press(homeModel(t, sampleSessions(), nil), "n")
	long = run(t, long, ask)
	long, _ = press(long, "tab")
	next, _ := long.Update(tea.PasteMsg{Content: strings.Repeat("calm and slow ", 10)})
	long = next.(Model)

	completed := sessionState()
	completed.Status = engine.Completed
	completed.MoodBefore = 2
	completed.Summary = &engine.Summary{Duration: 10*time.Minute + 2*time.Second, Sentences: 71}
	end := sessionModel(completed, 40, 12)
	end.run = finishedRun(t, false, 2)
	end, _ = press(end, "4")

	interrupted := sessionState()
	interrupted.Status = engine.Interrupted
	stopped := sessionModel(interrupted, 40, 12)
	stopped.sess.problem = "The server closed the connection before it answered."
	helpShown := sessionModel(sessionState(), 40, 12)
	helpShown.help.ShowAll = true
	// The voice's pace and the soundscape's level moved: named over the
	// keys on a tall screen; on a small one the key's message says it.
	tuned := soundModel(80, 24, "auto", soundNow{true, "flite", true, 10, 0.9, 8})
	tunedSmall := soundModel(40, 12, "auto", soundNow{true, "flite", true, 10, 0.9, 8})
	tunedSmall.status.set(engine.VoiceRateWords(0.9), levelInfo, 0)

	// A completed session selected: enter reads it (issue 26, item 1).
	read, _ := press(homeModel(t, sampleSessions(), nil), "down", "down")
	readSmall, _ := press(small(homeModel(t, sampleSessions(), nil)), "down", "down")
	// The end screen with a mood given and no note: q quits.
	endFull := sessionModel(completed, 80, 24)
	endFull.run = finishedRun(t, false, 2)
	endFull, _ = press(endFull, "4")
	// The intention past 120 characters, on a small screen.
	longSmall, ask := press(small(homeModel(t, sampleSessions(), nil)), "n")
	longSmall = run(t, longSmall, ask)
	longSmall, _ = press(longSmall, "tab")
	next, _ = longSmall.Update(tea.PasteMsg{Content: strings.Repeat("calm and slow ", 10)})
	longSmall = next.(Model)
	// After a sleep session, answered the next time lull opens.
	sleptB := &fakeBackend{infos: []SessionInfo{sleptSession(8 * time.Hour)}}
	slept := homeModel(t, sleptB.infos, nil)
	slept.backend = sleptB
	slept, cmd := press(slept, "4")
	slept = run(t, slept, cmd)
	sleptSmallB := &fakeBackend{infos: []SessionInfo{sleptSession(8 * time.Hour)}}
	sleptSmall := small(homeModel(t, sleptSmallB.infos, nil))
	sleptSmall.backend = sleptSmallB
	sleptSmall, cmd = press(sleptSmall, "4")
	sleptSmall = run(t, sleptSmall, cmd)
	// A sit, timed and open-ended, running and paused (issue 26's sit).
	pausedSit := sitModel(t, 0, 40, 12)
	pausedSit.sess.status = engine.Paused
	pausedSit.sess.progress.Status = engine.Paused

	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		views := map[string]Model{
			"session_voice":             soundModel(80, 24, "auto", soundNow{true, "flite", true, 10, 1, 10}),
			"session_no_voice":          soundModel(80, 24, "auto", soundNow{true, "none", true, 10, 1, 10}),
			"session_voice_off_small":   soundModel(40, 12, "auto", soundNow{true, "flite", false, 10, 1, 10}),
			"session_muted_small":       soundModel(40, 12, "auto", soundNow{true, "flite", true, 0, 1, 10}),
			"session_voice_off":         soundModel(80, 24, "auto", soundNow{true, "flite", false, 10, 1, 10}),
			"session_muted":             soundModel(80, 24, "auto", soundNow{true, "flite", true, 0, 1, 10}),
			"session_no_voice_small":    soundModel(40, 12, "auto", soundNow{true, "none", true, 10, 1, 10}),
			"session_help_small":        helpShown,
			"session_tuned":             tuned,
			"session_tuned_small":       tunedSmall,
			"home_small":                home,
			"form_small":                form,
			"form_intention_long":       long,
			"end_small":                 end,
			"interrupted_small":         stopped,
			"home_read_it":              read,
			"home_read_it_small":        readSmall,
			"end_mood_given":            endFull,
			"form_intention_long_small": longSmall,
			"home_slept_well_small":     sleptSmall,
			"home_slept_well":           slept,
			"sit_timed":                 sitModel(t, 20, 80, 24),
			"sit_open_small":            sitModel(t, 0, 40, 12),
			"sit_paused_small":          pausedSit,
		}
		for name, m := range views {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
}
