package llm

import (
	"slices"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// A model behind a server that leaves its thinking inline and writes
// markdown, chatter and a refusal: the guide hands out only what would be
// spoken, moderation sees only that, and the receipt counts what went.
func TestModelOutputIsCleanedBeforeModerationAndSpeech(t *testing.T) {
	for _, api := range []string{"responses", "chat"} {
		t.Run(api, func(t *testing.T) {
			srv := newServer(t)
			if api == "chat" {
				srv.SetNoResponses(true)
			}
			srv.SetText(func(openaitest.Call) string {
				return "<think>\nOkay, the user wants the sensory phase. Let me keep it short.\n</think>\n\n" +
					"Sure! Here is the sensory phase:\n\n## Listening\n\n" +
					"1. **Listen** for the farthest sound you can hear. [pause]\n" +
					"2. *Then* the nearest one 🌿\n\n" +
					"I'm sorry, but I can't help with that request. Écoutez le silence autour de vous.\n\n" +
					"Was this helpful?"
			})
			g := newGuide(t, srv, func(c *Config) { c.Moderate = true })
			said, rc, err := drain(t, g, request(engine.Sensory))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"Listen for the farthest sound you can hear.", "Then the nearest one."}
			if !slices.Equal(said, want) {
				t.Errorf("said %q, want %q", said, want)
			}
			// thinking, "Sure!", "Here is…", the heading, the refusal, the
			// French sentence, the question
			if rc.Removed != 7 {
				t.Errorf("receipt counts %d removed, want 7", rc.Removed)
			}
			var moderated []string
			for _, r := range srv.Requests() {
				if r.Path != "/v1/moderations" {
					continue
				}
				in, _ := r.JSON["input"].([]any)
				for _, s := range in {
					text, _ := s.(string)
					moderated = append(moderated, text)
				}
			}
			if !slices.Equal(moderated, want) {
				t.Errorf("moderation saw %q, want what would be spoken", moderated)
			}
		})
	}
}
