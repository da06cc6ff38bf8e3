//go:build !unix

package audio

// processAlive says yes where lull cannot ask: a folder is never removed
// from under a running lull.
func processAlive(int) bool { return true }

func ownedByUs(string) bool { return false }
