package prompts_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/prompts"
)

// crisisWidth is the widest line the crisis message may have: it must read
// unwrapped in an 80-column terminal and in the TUI's dialog with margins.
const crisisWidth = 72

// markup is what would show literally in a terminal ("**988**" did).
var markup = regexp.MustCompile("\\*\\*|__|`|\\[[^]]*\\]\\(|^\\s*(?:#|[-*+] |> )")

func TestCrisisMessageIsPlainText(t *testing.T) {
	for i, line := range strings.Split(strings.TrimRight(prompts.Crisis, "\n"), "\n") {
		if markup.MatchString(line) {
			t.Errorf("line %d holds markup a terminal would print as it is: %q", i+1, line)
		}
		if n := utf8.RuneCountInString(line); n > crisisWidth {
			t.Errorf("line %d is %d columns, want at most %d: %q", i+1, n, crisisWidth, line)
		}
		if strings.ContainsAny(line, "\t\r") {
			t.Errorf("line %d holds a tab or carriage return: %q", i+1, line)
		}
	}
}

// phoneNumber finds the numbers a person would dial or text: "988",
// "116 123", "13 11 14".
var phoneNumber = regexp.MustCompile(`\b\d{3,}(?: \d{2,})*\b`)

// Every number in the message has a published source (crisis_sources.md):
// a wrong number is worse than none.
func TestCrisisNumbersAreSourced(t *testing.T) {
	data, err := os.ReadFile("crisis_sources.md")
	if err != nil {
		t.Fatal(err)
	}
	entries := strings.Split(string(data), "\n- `")
	numbers := phoneNumber.FindAllString(prompts.Crisis, -1)
	if len(numbers) < 5 {
		t.Fatalf("found only %q in the message", numbers)
	}
	for _, want := range append(numbers, "findahelpline.com") {
		sourced := false
		for _, e := range entries {
			if strings.HasPrefix(e, want+"`") && strings.Contains(e, "https://") {
				sourced = true
			}
		}
		if !sourced {
			t.Errorf("%s is in crisis.txt but has no entry with a source in crisis_sources.md", want)
		}
	}
}
