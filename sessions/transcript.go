package sessions

import (
	"fmt"
	"os"
	"strings"

	"lull/engine"
)

// transcript is transcript.md, open for appending while its session is:
// what was spoken, for people to read, a heading per phase.
type transcript struct {
	f       *os.File
	phase   engine.Phase // the phase of the last heading written
	heading bool         // whether any heading has been written
}

// openTranscript opens transcript.md for appending, writing the header if
// the file is new or empty. history is what earlier runs spoke, so their
// last phase is not given a second heading.
func openTranscript(dir *os.Root, st engine.State) (*transcript, error) {
	f, err := dir.OpenFile(transcriptName, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		return nil, bare(err)
	}
	t := &transcript{f: f}
	for _, e := range st.History {
		if e.Role == engine.RoleGuide {
			t.phase, t.heading = e.Phase, true
		}
	}
	info, err := f.Stat()
	if err == nil {
		err = f.Chmod(fileMode)
	}
	if err == nil && info.Size() == 0 {
		t.heading = false // a lost transcript starts over
		err = t.append(opening(st))
	}
	if err != nil {
		f.Close()
		return nil, bare(err)
	}
	return t, nil
}

// opening is "# lull · 2026-11-23 10:15 · 10 minutes", then the intention.
func opening(st engine.State) string {
	h := fmt.Sprintf("# lull · %s · %d minutes\n", st.CreatedAt.Local().Format("2006-01-02 15:04"), int(st.Length.Minutes()))
	if st.Intention != "" {
		h += "Intention: " + oneLine(st.Intention) + "\n"
	}
	return h
}

// add appends one entry, with a heading when it opens a new phase.
func (t *transcript) add(e engine.Entry) error {
	var b strings.Builder
	if !t.heading || e.Phase != t.phase {
		b.WriteString("\n## " + e.Phase.Title() + "\n")
	}
	switch e.Role {
	case engine.RoleSystem:
		b.WriteString("\n> " + oneLine(e.Text) + "\n")
	case engine.RoleUser:
		b.WriteString("\n*You:* " + oneLine(e.Text) + "\n")
	default:
		b.WriteString("\n" + oneLine(e.Text) + "\n")
	}
	if err := t.append(b.String()); err != nil {
		return err
	}
	t.phase, t.heading = e.Phase, true
	return nil
}

// append writes s and fsyncs: a transcript line is there once spoken.
func (t *transcript) append(s string) error {
	if _, err := t.f.WriteString(s); err != nil {
		return bare(err)
	}
	return bare(t.f.Sync())
}

func (t *transcript) close() error { return bare(t.f.Close()) }

// oneLine keeps an entry to one paragraph so the file stays readable
// markdown whatever the text holds.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
