package cli

import (
	"bytes"
	"strings"
	"testing"
)

// runIn runs lull in this process with home as LULL_HOME, no key in the
// environment and all pacing 10000 times faster (sound to the silent
// output), and returns what it printed and its exit code. It sets the
// environment: a test that uses it does not run in parallel.
func runIn(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runEnv(t, home, nil, args...)
}

// runEnv is runIn with env (NAME=value) set as well.
func runEnv(t *testing.T, home string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv("LULL_HOME", home)
	t.Setenv("LULL_TIME_SCALE", "10000")
	for _, name := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "LULL_LLM_API_KEY", "LULL_SPEECH_API_KEY"} {
		t.Setenv(name, "")
	}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}
