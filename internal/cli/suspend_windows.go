package cli

import tea "charm.land/bubbletea/v2"

// Windows has no job control: no Ctrl-Z stops a console program to be
// brought back with fg, so lull offers no suspend there.
func jobControl() bool { return false }

func stopJob() error { return nil }

// forwardStops has no stops to forward on Windows (there is no SIGTSTP).
func forwardStops(*tea.Program) (stop func()) { return func() {} }
