//go:build unix

package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A session summarized partway is listed as partial, where it stood and
// how far it came — not "completed … 100 %" while show says 2:10 of 5:00.
func TestListShowsASummarizedSessionAsPartial(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	id := killMidSession(t, home, "to summarize")["to summarize"]
	if out, errOut, err := lull(t, home, "1", "sessions", "summarize", id, "--yes"); err != nil {
		t.Fatalf("summarize: %v\n%s%s", err, out, errOut)
	}
	st := load(t, home, id)
	if st.Summary == nil || !st.Summary.Partial {
		t.Fatalf("summarized, the session is %s with summary %+v", st.Status, st.Summary)
	}
	out, errOut, err := lull(t, home, "1", "sessions", "list")
	if err != nil {
		t.Fatalf("sessions list: %v\n%s", err, errOut)
	}
	row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + `\s.*$`).FindString(out)
	want := fmt.Sprintf(`^%s\s+partial\s+%s\s+%d%%\s`, regexp.QuoteMeta(id), st.Phase, int(st.Progress()*100))
	if !regexp.MustCompile(want).MatchString(row) || strings.Contains(row, "100%") {
		t.Errorf("sessions list row %q, want it partial in %s at %d%%", row, st.Phase, int(st.Progress()*100))
	}
}
