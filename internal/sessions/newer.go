package sessions

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/lull-dev/lull/internal/engine"
)

// NewerError says a session's file was written by a newer lull, in a
// schema this one does not know. Such a session is listed and never
// written: resuming, summarizing, discarding or noting it would put this
// lull's older schema over what the newer one wrote, and rebuilding it
// from its transcript would replace both files. Match it with errors.As.
type NewerError struct {
	ID      string
	Version int // the file's schema version
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("session %s was made by a newer lull (its file is schema version %d; this lull reads version %d), "+
		"and is left as it is: update lull to open it", e.ID, e.Version, schemaVersion)
}

// newerVersion is the version a file names when it is one a newer lull
// wrote, else 0.
func newerVersion(found string) int {
	v, err := strconv.Atoi(found)
	if err != nil || v <= schemaVersion {
		return 0
	}
	return v
}

// newerOf is the version a file that failed to read with err was written
// in, when a newer lull wrote it; else 0.
func newerOf(err error) int {
	if ne, ok := errors.AsType[*NewerError](err); ok {
		return ne.Version
	}
	return 0
}

// describeNewer is what can be read of a session a newer lull wrote, for
// the list: its header, read leniently, since its schema may hold fields
// this lull does not know. Nothing of it is trusted beyond display.
func describeNewer(dir *os.Root, id, folder string, version int) Info {
	in := Info{ID: id, Newer: version, Status: engine.Status("unknown")}
	b, err := readTrusted(dir, primaryName, folder, nil)
	if err != nil {
		return in
	}
	body, err := unseal(b)
	if err != nil {
		body = b // a newer lull may seal differently: the header is still worth a try
	}
	head, err := headOf(body)
	if err != nil {
		return in
	}
	var h header
	if yaml.Unmarshal(head, &h) != nil {
		return in
	}
	st, _ := h.state() // what reads, reads
	in = describe(st)
	in.ID, in.Newer = id, version
	if !in.Status.Known() {
		in.Status = engine.Status("unknown")
	}
	return in
}
