package cli

import (
	"os"
	"strings"
	"testing"
)

// Every variable lull reads is in the README, and the keys among them are
// known to the redactor.
func TestEnvironmentVariablesAreDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range environmentVariables {
		if !strings.Contains(string(readme), "`"+v.Name) {
			t.Errorf("the README does not name %s", v.Name)
		}
	}
	if strings.Join(keyVariables, " ") != "OPENAI_API_KEY LULL_LLM_API_KEY LULL_SPEECH_API_KEY" {
		t.Errorf("the keys are %q", keyVariables)
	}
}
