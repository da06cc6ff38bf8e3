package sessions

import (
	"crypto/rand"
	"fmt"
	"time"
)

// maxIDLength bounds an id, which is also a folder name.
const maxIDLength = 64

// idAlphabet is base32's: lowercase, no look-alike 0/1/8/9.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// NewID names a session created at now: "20261123-101500-x7kq". The UTC
// time makes ids sort chronologically; the random tail keeps two sessions
// begun in the same second apart.
func NewID(now time.Time) string {
	var b [4]byte
	rand.Read(b[:]) // never fails since Go 1.24
	tail := make([]byte, len(b))
	for i, c := range b {
		tail[i] = idAlphabet[c%32] // 256 is a multiple of 32: no bias
	}
	return now.UTC().Format(idTime) + "-" + string(tail)
}

// idTime is the layout of the time an id begins with.
const idTime = "20060102-150405"

// IDError refuses a string that cannot name a session folder.
type IDError struct {
	ID     string
	Reason string
}

func (e *IDError) Error() string {
	return fmt.Sprintf("%q is not a session id: %s", clip([]byte(e.ID), maxIDLength), e.Reason)
}

// CheckID allows only ids that are safe as a folder name:
// ^[a-z0-9][a-z0-9_-]{0,63}$. No dots, slashes or control characters.
func CheckID(id string) error {
	switch {
	case id == "":
		return &IDError{ID: id, Reason: "it is empty"}
	case len(id) > maxIDLength:
		return &IDError{ID: id, Reason: fmt.Sprintf("it is %d bytes long; the most is %d", len(id), maxIDLength)}
	case !lowerOrDigit(rune(id[0])):
		return &IDError{ID: id, Reason: "it must begin with a lowercase letter or a digit"}
	}
	for _, r := range id {
		if !lowerOrDigit(r) && r != '-' && r != '_' {
			return &IDError{ID: id, Reason: fmt.Sprintf("%q is not allowed; ids use a–z, 0–9, - and _", r)}
		}
	}
	return nil
}

func lowerOrDigit(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }
