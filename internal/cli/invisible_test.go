package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Invisible and bidi characters written into a session's file, by a sync
// tool, an editor or a hostile hand, reach no one's terminal: the list,
// the session's page and its export show the words without them.
func TestInvisibleCharactersInAFileAreNeverShown(t *testing.T) {
	home := t.TempDir()
	if out, errOut, code := runIn(t, home, "new", "--length", "5", "--no-tui", "--voice", "none", "--soundscape", "none", "--intention", "calm before a talk"); code != 0 {
		t.Fatalf("lull new: %d\n%s%s", code, out, errOut)
	}
	id, dir := onlySession(t, home)
	// Zero-width space, a byte-order mark, a word joiner, a
	// tag character, right-to-left override and isolate.
	hidden := []string{"\u200b", "\ufeff", "\u2060", "\U000E0041", "\u202e", "\u2067"}
	for _, name := range []string{"session.yaml", "session.yaml.bak"} {
		reseal(t, filepath.Join(dir, name), func(body string) string {
			body = strings.Replace(body, "intention: calm before a talk", `intention: "calm\u200b be\u202efore\u2067 a\ufeff talk\u2060\U000E0041"`, 1)
			return strings.Replace(body, `text: "However you are resting`, `text: "How\u200bever\u202e you are resting`, 1)
		})
	}
	for _, args := range [][]string{
		{"sessions", "list"},
		{"sessions", "show", id},
		{"sessions", "export", id, "--format", "txt"},
	} {
		out, errOut, _ := runIn(t, home, args...)
		for _, h := range hidden {
			if strings.Contains(out+errOut, h) {
				t.Errorf("lull %s shows %U:\n%s%s", strings.Join(args, " "), []rune(h)[0], out, errOut)
			}
		}
		if !strings.Contains(out, "calm before a talk") {
			t.Errorf("lull %s does not show the intention's words:\n%s%s", strings.Join(args, " "), out, errOut)
		}
	}
}
