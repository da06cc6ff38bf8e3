//go:build unix

package e2e

import (
	"os"
	"strings"
	"testing"
)

// readmeExamples are the lull commands in the README's code blocks, each
// as its words: the comment after " #", a redirection or a pipe left out,
// quoted words kept whole.
func readmeExamples(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		line = strings.TrimSpace(line)
		if !in || !strings.HasPrefix(line, "lull ") && line != "lull" {
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if i := strings.IndexAny(line, ">|"); i >= 0 && !strings.Contains(line[:i], "--format") {
			line = line[:i]
		}
		out = append(out, words(line))
	}
	return out
}

// words splits a shell line on spaces, a double-quoted part kept whole.
func words(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// Issue 26: every lull command the README shows is one the binary takes:
// its command and flags parse (asked with --help, so nothing runs), the
// README's placeholders (ID, FILE, a choice of formats) filled in.
func TestReadmeExamplesParse(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	examples := readmeExamples(t)
	if len(examples) < 30 {
		t.Fatalf("read %d examples from the README", len(examples))
	}
	for _, ex := range examples {
		var args []string
		for _, w := range ex[1:] {
			switch {
			case w == "[ID]" || w == "[--out" || w == "FILE]":
				continue
			case w == "ID":
				w = "20261130-093000-abcd"
			case strings.Contains(w, "|") && !strings.HasPrefix(w, "-"):
				w, _, _ = strings.Cut(w, "|") // md|txt|json: the first
			case strings.HasPrefix(w, "FILE"):
				w = "calm" + strings.TrimPrefix(w, "FILE")
			}
			args = append(args, w)
		}
		out, errOut, err := lull(t, home, "1", append(args, "--help")...)
		if err != nil || !strings.Contains(out, "Usage:") {
			t.Errorf("the README's %q does not parse: %v\n%s%s", strings.Join(ex, " "), err, out, errOut)
		}
	}
}
