// Package sessions owns lull's files on disk: the folder layout under the
// data home, the session.yaml schema and its checksum, atomic saves with a
// backup, recovery from that backup, validation on load, the per-session
// lock, the transcript, and listing. Nothing else in lull touches the
// layout.
//
// Every file operation under the sessions folder goes through an os.Root,
// so neither ".." nor a symbolic link can lead outside it.
package sessions
