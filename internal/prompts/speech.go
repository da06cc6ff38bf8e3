package prompts

import (
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The speech cleaner's words (speech/): what in a model's reply is not for
// the listener. drop.txt lists the sentences dropped whole, by reason;
// directions.txt the asides in brackets, parentheses or stars that are
// stage directions; languages.txt the small words that tell one language
// from another. speech/README.md says how to read and extend them.
//
//go:embed speech
var speechFiles embed.FS

// WordList is one list of a speech file: its name in square brackets, a
// line saying what it is for, and its entries, one a line.
type WordList struct {
	Name    string
	About   string
	Entries []string
	Lines   []int // each entry's line in its file, for error messages
}

// SpeechWords are the speech cleaner's lists, as written; the engine
// compiles them (engine/speech_words.go).
type SpeechWords struct {
	Drop       []WordList // reasons a whole sentence goes, in the order they are tried
	Directions []WordList // asides that are stage directions
	Languages  []WordList // each language's common words
}

var speechWords = sync.OnceValues(func() (*SpeechWords, error) {
	var w SpeechWords
	for _, f := range []struct {
		name string
		into *[]WordList
	}{
		{"drop.txt", &w.Drop},
		{"directions.txt", &w.Directions},
		{"languages.txt", &w.Languages},
	} {
		b, err := speechFiles.ReadFile("speech/" + f.name)
		if err != nil {
			return nil, err
		}
		lists, err := ParseWordLists(string(b))
		if err != nil {
			return nil, fmt.Errorf("prompts/speech/%s: %w", f.name, err)
		}
		*f.into = lists
	}
	return &w, nil
})

// LoadSpeechWords is the embedded speech lists, parsed once.
func LoadSpeechWords() (*SpeechWords, error) { return speechWords() }

var listName = regexp.MustCompile(`^\[([a-z][a-z0-9_ -]*)\]$`)

// ParseWordLists reads lists in the speech files' format: "# " starts a
// comment (at the start of a line or after a space), "[name]" alone on a
// line starts a list, the line after it says what the list is for and
// ends with a full stop, and every other line is an entry.
func ParseWordLists(text string) ([]WordList, error) {
	var lists []WordList
	seen := map[string]bool{}
	wantAbout := false
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		line := raw
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			line = ""
		} else if k := strings.Index(line, " #"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if m := listName.FindStringSubmatch(line); m != nil {
			if wantAbout {
				return nil, fmt.Errorf("line %d: list [%s] has no line saying what it is for", n, lists[len(lists)-1].Name)
			}
			if seen[m[1]] {
				return nil, fmt.Errorf("line %d: list [%s] is already defined", n, m[1])
			}
			seen[m[1]] = true
			lists = append(lists, WordList{Name: m[1]})
			wantAbout = true
			continue
		}
		if strings.HasPrefix(line, "[") {
			return nil, fmt.Errorf("line %d: %q is not a list name (lower case, in square brackets, alone on the line)", n, line)
		}
		if len(lists) == 0 {
			return nil, fmt.Errorf("line %d: %q comes before any [list]", n, line)
		}
		l := &lists[len(lists)-1]
		if wantAbout {
			if !strings.HasSuffix(line, ".") {
				return nil, fmt.Errorf("line %d: the line after [%s] says what the list is for, as a sentence ending in a full stop", n, l.Name)
			}
			l.About, wantAbout = line, false
			continue
		}
		l.Entries = append(l.Entries, line)
		l.Lines = append(l.Lines, n)
	}
	if wantAbout {
		return nil, fmt.Errorf("list [%s] has no line saying what it is for", lists[len(lists)-1].Name)
	}
	for _, l := range lists {
		if len(l.Entries) == 0 {
			return nil, fmt.Errorf("list [%s] is empty", l.Name)
		}
	}
	return lists, nil
}
