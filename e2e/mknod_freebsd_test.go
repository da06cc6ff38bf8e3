package e2e

import "golang.org/x/sys/unix"

// makeNode makes a device node (root only); FreeBSD's device numbers are 64 bits.
func makeNode(path string, mode uint32, major, minor uint32) error {
	return unix.Mknod(path, mode, unix.Mkdev(major, minor))
}
