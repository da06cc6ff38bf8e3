package sessions

// Held reports whether a lull has session id open: its lock is held, by
// the process pid (0 when the holder had not yet written it). A session
// whose status says running but whose lock is free was left by a lull that
// died.
//
// Held only looks (see probe): it never blocks, and writes nothing.
func (s *Store) Held(id string) (pid int, held bool, err error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return 0, false, err
	}
	defer dir.Close()
	return probe(dir, id)
}
