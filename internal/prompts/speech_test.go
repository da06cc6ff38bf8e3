package prompts_test

import (
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/prompts"
)

func TestSpeechWordsLoad(t *testing.T) {
	w, err := prompts.LoadSpeechWords()
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Drop) < 6 || len(w.Directions) != 2 || len(w.Languages) < 7 {
		t.Errorf("%d drop lists, %d direction lists, %d languages", len(w.Drop), len(w.Directions), len(w.Languages))
	}
	for _, l := range append(append(w.Drop, w.Directions...), w.Languages...) {
		if l.About == "" || len(l.Entries) == 0 {
			t.Errorf("[%s] says nothing or lists nothing", l.Name)
		}
	}
}

// A mistake in a list file is an error that names its line and what to do.
func TestParseWordListsIsStrict(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"phrase\n", `line 1: "phrase" comes before any [list]`},
		{"[meta]\nphrase\n", "line 2: the line after [meta] says what the list is for"},
		{"[meta]\nAbout.\n[chatter]\nAbout.\n", "list [meta] is empty"},
		{"[meta]\n[chatter]\n", "line 2: list [meta] has no line saying what it is for"},
		{"[meta]\nAbout.\na\n[meta]\nAgain.\nb\n", "line 4: list [meta] is already defined"},
		{"[Meta]\n", `line 1: "[Meta]" is not a list name`},
	} {
		_, err := prompts.ParseWordLists(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
	lists, err := prompts.ParseWordLists("# a comment\n[meta]\nWhat it is for.\n\nhere is # a note\n  there is  \n")
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != 1 || lists[0].About != "What it is for." || strings.Join(lists[0].Entries, "|") != "here is|there is" || lists[0].Lines[1] != 6 {
		t.Errorf("got %+v", lists)
	}
}
