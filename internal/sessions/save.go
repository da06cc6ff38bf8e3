package sessions

import (
	"fmt"
)

// backupTempName is where the backup is written before it is renamed
// into place.
const backupTempName = backupName + ".tmp"

// replace puts b in place of session.yaml so that a power cut at any
// moment leaves a complete primary or a complete backup, and one of them
// is the last save that returned or this one. previous, the last primary
// known to be good, becomes the backup. When inPlace says session.yaml
// holds it, as after every save that returned, the backup is a second
// name for that file, whose data is already on the disk: nothing is
// written or synced twice. Otherwise it comes from memory, because after
// a recovery the primary on disk is the damaged one; so too where the
// folder refuses links. On failure no temporary file is left and the
// primary is untouched, unless only the folder's fsync failed: then the
// new one may be in place.
func replace(dir fsys, b, previous []byte, inPlace bool) (err error) {
	defer func() {
		if err != nil { // best effort: the error already says what failed
			dir.remove(tempName)
			dir.remove(backupTempName)
		}
	}()
	if err := writeFile(dir, tempName, b); err != nil {
		return err
	}
	if previous != nil {
		// Renamed, not rewritten in place: after a recovery the primary
		// is damaged, and a backup torn by a power cut would leave nothing.
		if err := stageBackup(dir, previous, inPlace); err != nil {
			return err
		}
		if err := dir.rename(backupTempName, backupName); err != nil {
			return fmt.Errorf("renaming %s to %s: %w", backupTempName, backupName, err)
		}
	}
	if err := dir.rename(tempName, primaryName); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", tempName, primaryName, err)
	}
	if err := dir.syncFolder(); err != nil {
		return fmt.Errorf("syncing the session folder: %w", err)
	}
	return nil
}

// stageBackup puts previous at backupTempName: a link to session.yaml
// when it holds previous, else a copy written and synced.
func stageBackup(dir fsys, previous []byte, inPlace bool) error {
	if inPlace && dir.link(primaryName, backupTempName) == nil {
		return nil
	}
	// The name may be left from a crash, and then perhaps a link to the
	// primary: it is removed, never written through.
	dir.remove(backupTempName)
	return writeFile(dir, backupTempName, previous)
}
