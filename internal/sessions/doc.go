// Package sessions owns lull's files on disk: the folder layout under the
// data home, the session.yaml schema and its checksum, atomic saves with a
// backup (through a small file-system interface, so a power cut can be
// simulated at every step), the three recovery levels — the backup, a
// rebuild from transcript.md's checked records, and a Salvage of what is
// left — validation on load, the per-session lock, the transcript, and
// listing. Nothing else in lull touches the layout.
//
// Every file operation under the sessions folder goes through an os.Root,
// so neither ".." nor a symbolic link can lead outside it.
package sessions
