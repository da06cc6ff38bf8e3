package guide

import "time"

// Memory is what the listener heard in earlier sessions: each session's
// spoken sentences, the most recent session first. The built-in guide
// picks, for every step of its script, the variant heard least recently,
// and a journey not taken lately, so no two evenings sound alike. It is
// read from the sessions already saved; lull keeps no other store of it.
type Memory struct {
	Heard [][]string
}

// What the guide remembers: the sessions begun within MemoryWindow before
// the one it guides, MemorySessions at most. Longer than a step's turn
// comes round: a line forgotten would seem the freshest of all, and a
// session three weeks on would say again what was said the day it was
// forgotten.
const (
	MemorySessions = 60
	MemoryWindow   = 60 * 24 * time.Hour
)

// ages is when each sentence was last heard: 0 in the latest session.
type ages map[string]int

func (m Memory) ages() ages {
	a := ages{}
	for i := len(m.Heard) - 1; i >= 0; i-- {
		for _, s := range m.Heard[i] {
			a[s] = i
		}
	}
	return a
}

// never is the age of a sentence never heard: older than any heard one.
const never = 1 << 30

// age is how many sessions ago s was last heard; never when not at all.
func (a ages) age(s string) int {
	if i, ok := a[s]; ok {
		return i
	}
	return never
}
