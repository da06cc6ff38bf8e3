package sessions

// Flags for opening what lull reads and writes as its own. Windows has
// neither: no FIFO can be planted in a folder (its named pipes live in
// \\.\pipe\ only), and a link is refused by the Lstat that comes before
// every open (and os.Root never follows one out of its folder).
const (
	oNonblock = 0
	oNofollow = 0
)
