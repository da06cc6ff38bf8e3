//go:build unix && !linux

package sessions

import "testing"

// tmpfs skips: a tmpfs of its own is mounted on Linux only.
func tmpfs(t *testing.T, _ string) string {
	t.Helper()
	t.Skip("mounting a tmpfs is Linux's")
	return ""
}
