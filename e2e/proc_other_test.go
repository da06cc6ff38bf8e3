//go:build unix && !linux

package e2e

import (
	"os"
	"testing"
)

// These helpers read /proc and Linux's termios; elsewhere the tests that
// need them are skipped.

func childNamed(t testing.TB, _ int, _ string) int {
	t.Skip("finding lull's process needs Linux's /proc")
	return 0
}

func procState(int) byte { return 0 }

func cookedMode(t testing.TB, _ string) bool {
	t.Skip("reading the terminal's mode is done on Linux only")
	return false
}

func pipeHolds(t testing.TB, _ *os.File) int {
	t.Skip("asking a pipe what it holds is done on Linux only")
	return 0
}
