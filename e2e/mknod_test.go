//go:build unix && !freebsd

package e2e

import "golang.org/x/sys/unix"

// makeNode makes a device node (root only).
func makeNode(path string, mode uint32, major, minor uint32) error {
	return unix.Mknod(path, mode, int(unix.Mkdev(major, minor)))
}
