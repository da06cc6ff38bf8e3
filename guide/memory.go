package guide

// Memory is what the listener heard in earlier sessions: each session's
// spoken sentences, the most recent session first. The built-in guide
// picks, for every step of its script, the variant heard least recently,
// and a journey not taken lately, so no two evenings sound alike. It is
// read from the sessions already saved; lull keeps no other store of it.
type Memory struct {
	Heard [][]string
}
