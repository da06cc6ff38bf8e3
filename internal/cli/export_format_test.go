package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Text from the session (an intention, a model's words) never becomes
// markup in the Markdown export, nor a comment.
func TestMarkdownExportEscapesTheSessionsText(t *testing.T) {
	t.Parallel()
	st, err := engine.NewState("20261123-120000-k3f9", engine.Options{Length: 10 * time.Minute, Intention: "calm *now* <!-- x --> #1"}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	st.History = append(st.History, engine.Entry{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "# Breathe <!-- in --> [softly](x)."})
	md := string(exportMarkdown(st))
	if strings.Contains(md, "<!--") || strings.Contains(md, "\n# Breathe") || strings.Contains(md, "[softly](x)") {
		t.Errorf("the session's text became markup:\n%s", md)
	}
	js, err := exportJSON(st)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js, &back); err != nil || back["intention"] != st.Intention {
		t.Errorf("the JSON does not carry the intention as it is (%v): %v", err, back["intention"])
	}
}
