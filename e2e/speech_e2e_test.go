//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// messyText is exactText as a misbehaving model writes it: its thinking
// inline (a DeepSeek-R1 behind a server that does not separate it), an
// eager opener, a heading, SSML, list markers, stage directions, emoji, a
// refusal, a French sentence and a question for the listener.
func messyText(c openaitest.Call) string {
	var b strings.Builder
	b.WriteString("<think>\nOkay, the user wants the next part. I should keep it calm.\n</think>\n\n")
	b.WriteString("Sure! Here is the next part of the script:\n\n## Settling In\n\n")
	for i, line := range strings.Split(strings.TrimSpace(exactText(c)), "\n") {
		line = strings.TrimSpace(line)
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "%d. **%s** [pause]\n", i+1, line)
		case 1:
			fmt.Fprintf(&b, "<speak>%s<break time=\"3s\"/></speak>\n", line)
		case 2:
			fmt.Fprintf(&b, "- *%s* (soft music) 🌿\n", line)
		default:
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	b.WriteString("\nI'm sorry, but I can't help with that request. Fermez les yeux et respirez doucement.\n\nWas this helpful? 😊")
	return b.String()
}

// Acceptance 1 (speech): whatever the model writes around its lines, the
// listener hears only the lines, and the session file counts the rest.
func TestLLMSessionSpeaksOnlyCleanGuidance(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(messyText)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "5", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed {
		t.Fatalf("status %s", st.Status)
	}
	said := st.Said()
	if len(said) < 10 {
		t.Fatalf("only %d sentences said", len(said))
	}
	for _, s := range said {
		if !isModelLine(s) {
			t.Errorf("the listener heard %q", s)
		}
	}
	transcript, err := os.ReadFile(filepath.Join(home, "sessions", id, "transcript.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The transcript's own notes are HTML comments: what was said is the rest.
	heard := regexp.MustCompile(`(?s)<!--.*?-->`).ReplaceAllString(string(transcript), "")
	for _, junk := range []string{"think", "Sure", "Settling", "<", "*", "pause", "music", "🌿", "sorry", "Fermez", "helpful"} {
		if strings.Contains(heard, junk) || strings.Contains(out, junk) {
			t.Errorf("%q reached the transcript or the screen:\n%s\n%s", junk, heard, out)
		}
	}
	for _, r := range st.Phases {
		if r.Removed < 7 {
			t.Errorf("%s: %d removed, want at least the 7 of one call", r.Phase, r.Removed)
		}
	}
}
