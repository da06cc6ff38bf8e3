//go:build unix && !linux

package e2e

import "testing"

// smallTmpfs skips: a tmpfs of its own is mounted on Linux only.
func smallTmpfs(t *testing.T, _ string) string {
	t.Helper()
	t.Skip("mounting a tmpfs is Linux's")
	return ""
}
