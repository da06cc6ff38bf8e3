//go:build unix && !linux

package cli

import "golang.org/x/sys/unix"

// dupTo makes fd to a copy of fd from.
func dupTo(from, to int) error { return unix.Dup2(from, to) }
