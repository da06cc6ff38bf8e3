package prompts

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// withFile is the embedded material with one file replaced.
func withFile(t *testing.T, path, text string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	for _, p := range []string{"llm/safety.md", "llm/persona.md", "llm/guard.md", "llm/phases.yaml", "llm/sleep.yaml", "llm/messages.yaml", "llm/vocabulary.yaml"} {
		data, err := fs.ReadFile(llmFiles, p)
		if err != nil {
			t.Fatal(err)
		}
		m[p] = &fstest.MapFile{Data: data}
	}
	m[path] = &fstest.MapFile{Data: []byte(text)}
	return m
}

func embedded(t *testing.T, path string) string {
	t.Helper()
	data, err := fs.ReadFile(llmFiles, path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestLoadLLMIsStrict: a slip in a file is an error at load, never a
// prompt with a hole in it.
func TestLoadLLMIsStrict(t *testing.T) {
	phases, msgs := embedded(t, "llm/phases.yaml"), embedded(t, "llm/messages.yaml")
	sleep, vocab := embedded(t, "llm/sleep.yaml"), embedded(t, "llm/vocabulary.yaml")
	for _, tc := range []struct {
		name, path, text, want string
	}{
		{"misspelt key", "llm/phases.yaml", strings.Replace(phases, "  avoid:", "  aviod:", 1), "aviod"},
		{"missing field", "llm/phases.yaml", strings.Replace(phases, "  tone:", "  # tone:", 1), "tone is missing"},
		{"phases out of order", "llm/phases.yaml", strings.Replace(phases, "- name: atmosphere", "- name: breathing", 1), `want "atmosphere"`},
		{"a phase too few", "llm/phases.yaml", phases[:strings.Index(phases, "- name: resolution")], "4 phases"},
		{"focus on two lines", "llm/phases.yaml", strings.Replace(phases, "  focus: arriving", "  focus: |\n    two\n    lines\n  # arriving", 1), "one line"},
		{"wind_down without the next focus", "llm/phases.yaml", strings.Replace(phases, "without starting it: {next_focus}", "without starting it.", 1), "{next_focus}"},
		{"unknown message", "llm/messages.yaml", msgs + "farewell: bye\n", "farewell"},
		{"message without its placeholder", "llm/messages.yaml", strings.Replace(msgs, "exactly {sentences} sentences", "a few sentences", 1), "{sentences}"},
		{"message without its second placeholder", "llm/messages.yaml", strings.Replace(msgs, "room for {remaining} more", "room for more", 1), "{remaining}"},
		{"sleep for no phase", "llm/sleep.yaml", strings.Replace(sleep, "- name: relaxation", "- name: dreaming", 1), `"dreaming" is not a phase`},
		{"sleep wind_down without the next focus", "llm/sleep.yaml", strings.Replace(sleep, "without starting it: {next_focus}", "without starting it.", 1), "{next_focus}"},
		{"misspelt sleep key", "llm/sleep.yaml", strings.Replace(sleep, "  tone:", "  tones:", 1), "tones"},
		{"a term without words", "llm/vocabulary.yaml", strings.Replace(vocab, "  - the ankles: ankles, ankle", "  - the ankles: ' , '", 1), "the ankles"},
		{"two names in one entry", "llm/vocabulary.yaml", strings.Replace(vocab, "  - the ankles: ankles, ankle", "  - {the ankles: ankles, the shins: shins}", 1), "want one name"},
		{"no images", "llm/vocabulary.yaml", vocab[:strings.Index(vocab, "images:")], "images is empty"},
		{"empty message", "llm/messages.yaml", strings.Replace(msgs, "begin: Begin the session.", "begin: ''", 1), "begin is missing"},
		{"empty safety", "llm/safety.md", "  \n", "safety.md is empty"},
	} {
		_, err := loadLLM(withFile(t, tc.path, tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	if _, err := loadLLM(llmFiles); err != nil {
		t.Fatalf("the embedded material: %v", err)
	}
}
