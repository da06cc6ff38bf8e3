package sessions

import (
	"fmt"
	"os"
)

// replace puts b in place of session.yaml so that a crash at any moment
// leaves a complete primary, or a complete backup beside a damaged one.
// previous, the last primary known to be good, becomes the backup; it comes
// from memory because after a recovery the primary on disk is the damaged
// one. On failure the primary is untouched and no temporary file is left.
func replace(dir *os.Root, b, previous []byte) (err error) {
	defer func() {
		if err != nil {
			dir.Remove(tempName) // best effort: the error already says what failed
		}
	}()
	if err := writeFile(dir, tempName, b); err != nil {
		return fmt.Errorf("writing %s: %w", tempName, err)
	}
	if previous != nil {
		if err := writeFile(dir, backupName, previous); err != nil {
			return fmt.Errorf("writing %s: %w", backupName, err)
		}
	}
	if err := dir.Rename(tempName, primaryName); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", tempName, primaryName, bare(err))
	}
	if err := syncFolder(dir); err != nil {
		return fmt.Errorf("syncing the session folder: %w", err)
	}
	return nil
}
