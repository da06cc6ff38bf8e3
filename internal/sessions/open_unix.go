//go:build unix

package sessions

import "golang.org/x/sys/unix"

// Flags for opening what lull reads and writes as its own: O_NONBLOCK
// keeps a FIFO planted under one of its names from hanging lull, and
// O_NOFOLLOW refuses a link put in its place.
const (
	oNonblock = unix.O_NONBLOCK
	oNofollow = unix.O_NOFOLLOW
)
