package cli

import (
	"log/slog"
	"strings"
	"testing"
)

func TestLogLevel(t *testing.T) {
	for v, want := range map[string]slog.Level{"": slog.LevelInfo, "debug": slog.LevelDebug, " WARN ": slog.LevelWarn, "error": slog.LevelError, "info": slog.LevelInfo} {
		t.Setenv("LULL_LOG_LEVEL", v)
		if got, err := logLevel(); err != nil || got != want {
			t.Errorf("LULL_LOG_LEVEL=%q: %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"loud", "info+2", "debug-4", "3"} {
		t.Setenv("LULL_LOG_LEVEL", v)
		if _, err := logLevel(); err == nil || !strings.Contains(err.Error(), "want debug, info, warn or error") {
			t.Errorf("LULL_LOG_LEVEL=%q: %v", v, err)
		}
	}
}
