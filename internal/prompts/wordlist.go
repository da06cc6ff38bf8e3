package prompts

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode"
)

// Wordlist is the words relaxation guidance uses (safety/vocabulary/):
// the safety screen's positive check counts the words of a sentence that
// fall outside it. Function words are kept apart: they say nothing of what
// a sentence is about.
type Wordlist struct {
	Function []string // function.txt: articles, pronouns, auxiliaries…
	Content  []string // every other file: the body, nature, places, senses…
}

// functionFile holds the function words.
const functionFile = "function.txt"

// SafetyVocabulary is the embedded vocabulary.
func SafetyVocabulary() (*Wordlist, error) {
	return LoadWordlist(safetyFiles, "safety/vocabulary")
}

// LoadWordlist reads every .txt file of dir: one word a line, lower
// case, `#` for comments.
func LoadWordlist(fsys fs.FS, dir string) (*Wordlist, error) {
	v := &Wordlist{}
	err := eachText(fsys, dir, "vocabulary", "", func(name, text string) error {
		into := &v.Content
		if path.Base(name) == functionFile {
			into = &v.Function
		}
		for i, line := range strings.Split(text, "\n") {
			w := strings.TrimSpace(line)
			if w == "" || strings.HasPrefix(w, "#") {
				continue
			}
			if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLower(r) && !unicode.IsDigit(r) }) >= 0 {
				return fmt.Errorf("prompts: %s:%d: %q: write one word a line, in lower case, without apostrophes", name, i+1, w)
			}
			*into = append(*into, w)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
