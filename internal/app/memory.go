package app

import (
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
)

// memory is what the listener heard before st began: the sessions
// created before it (never itself), most recent first. It depends on st
// alone, so a session resumed tomorrow, in another lull, hears with the
// memory it began with. A session that cannot be read is left out and
// logged: it must not keep another from starting.
func (a *App) memory(st engine.State) guide.Memory {
	heard, problems := a.store.Heard(st.CreatedAt, guide.MemoryWindow, guide.MemorySessions)
	for _, p := range problems {
		a.log.Warn("left out of the built-in guide's memory", "session", st.ID, "err", p)
	}
	return guide.Memory{Heard: heard}
}

// builtin is the built-in guide for st, with its memory.
func (a *App) builtin(st engine.State) (engine.Guide, error) {
	return a.newBuiltin(a.memory(st))
}

// defaultBuiltin makes the built-in guide with the embedded material.
func defaultBuiltin(m guide.Memory) (engine.Guide, error) {
	g, err := guide.DefaultBuiltin(m)
	if err != nil {
		return nil, err // never a typed nil inside the interface
	}
	return g, nil
}
