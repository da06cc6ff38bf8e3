// Command saveloop saves one session over and over and prints "ack N"
// each time Save returns: the process the sessions kill -9 test kills.
// N, the save's number, is the session's elapsed seconds. A run first
// says which save it loaded, "saving from N", with " (backup)" when the
// primary was unreadable, and goes on from there.
//
//	saveloop HOME ID
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: saveloop HOME ID")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "saveloop:", err)
		os.Exit(1)
	}
}

func run(home, id string) error {
	store, err := sessions.Open(home)
	if err != nil {
		return err
	}
	sess, err := store.Resume(id)
	if errors.Is(err, sessions.ErrNotFound) {
		var st engine.State
		if st, err = quarterHour(id); err == nil {
			sess, err = store.Create(st)
		}
	}
	if err != nil {
		return err
	}
	st := sess.State()
	n := int(st.Elapsed / time.Second)
	if sess.Report().FromBackup {
		fmt.Printf("saving from %d (backup)\n", n)
	} else {
		fmt.Printf("saving from %d\n", n)
	}
	for {
		n++
		st.Elapsed = time.Duration(n) * time.Second
		if err := sess.Save(st); err != nil {
			return err
		}
		fmt.Printf("ack %d\n", n)
	}
}

// quarterHour is a session a quarter of an hour in: 150 sentences spoken.
func quarterHour(id string) (engine.State, error) {
	start := time.Now().Add(-15 * time.Minute)
	st, err := engine.NewState(id, engine.Options{Length: 20 * time.Minute, Intention: "sleep", Seed: 1, Voice: "none"}, start)
	if err != nil {
		return st, err
	}
	st.Status = engine.Running
	st.Phases[0].Status, st.Phases[0].StartedAt = engine.PhaseActive, start
	for i := range 150 {
		st.History = append(st.History, engine.Entry{At: start.Add(time.Duration(i) * 6 * time.Second), Phase: engine.Atmosphere, Role: engine.RoleGuide,
			Text: fmt.Sprintf("Let your breath settle, slow and easy, as the evening light fades, sentence %d.", i+1)})
	}
	st.Phases[0].Spoken, st.Position.Sentence = 150, 150
	return st, st.Validate()
}
