package tui

import "github.com/lull-dev/lull/internal/human"

// printableSessions is the list of sessions fit for the screen: an
// intention or a problem read from a file may hold escape sequences, line
// breaks or a key, and lipgloss passes an OSC sequence through untouched.
// Done once as the list arrives, not on every frame.
func printableSessions(infos []SessionInfo, problems []Problem) ([]SessionInfo, []Problem) {
	outInfos := make([]SessionInfo, len(infos))
	for i, in := range infos {
		in.Intention = human.Line(in.Intention) // the ID is checked by sessions: it names the folder
		outInfos[i] = in
	}
	outProblems := make([]Problem, len(problems))
	for i, p := range problems {
		p.Text = human.Line(p.Text)
		outProblems[i] = p
	}
	return outInfos, outProblems
}
