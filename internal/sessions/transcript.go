package sessions

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// transcript is transcript.md, open for appending while its session is:
// what was spoken, for people to read, a heading per phase, each record
// checked (see record.go).
type transcript struct {
	f       *os.File
	size    int64        // the file's size: one writer, so it is known
	seq     int          // the next record's number
	phase   engine.Phase // the phase of the last heading written
	heading bool         // whether any heading has been written
	broken  bool         // the file does not end with a newline: begin with one
	// found is what the file held when it was opened, when it held a
	// session's records: for reconciling it with session.yaml.
	found *scan
}

// maxTorn is the most lull cuts from the end of a transcript: far more
// than one record, so what is cut is only ever a write that did not end.
const maxTorn = 64 << 10

// openTranscript opens transcript.md for appending, writing the opening
// if the file is new or empty. An existing transcript is checked first: a
// torn or damaged tail after its last good record is cut off, and the
// notes say so. folder is the session folder's path, for messages.
func openTranscript(dir *os.Root, folder string, st engine.State) (*transcript, []string, error) {
	f, err := openForAppend(dir, folder)
	if err != nil {
		return nil, nil, err
	}
	t := &transcript{f: f}
	notes, err := t.start(st)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return t, notes, nil
}

// openForAppend opens transcript.md to read and append, creating it if
// it is not there. What is there must be a file lull could have written.
func openForAppend(dir *os.Root, folder string) (*os.File, error) {
	return appendTo(dir, transcriptName, filepath.Join(folder, transcriptName), os.O_RDWR)
}

// start checks what the file holds and readies the next record.
func (t *transcript) start(st engine.State) ([]string, error) {
	info, err := t.f.Stat()
	if err != nil {
		return nil, human.Bare(err)
	}
	t.size = info.Size()
	if t.size == 0 {
		return nil, t.begin(st) // a lost transcript starts over
	}
	data, from, err := readEnd(t.f, t.size)
	if err != nil {
		return nil, human.Bare(err)
	}
	sc := scanTranscript(data, from, t.size)
	t.phase, t.heading = sc.endPhase, sc.endHeading
	t.broken = len(data) > 0 && data[len(data)-1] != '\n'
	if len(sc.records) == 0 {
		if sc.damaged == 0 && onlyTitle(data, from) {
			// The title of an old transcript with nothing under it, or an
			// opening cut short as it was first written: write it whole.
			var notes []string
			if tornTitle(data, st) {
				notes = append(notes, tornNote(t.size))
			}
			if err := t.cut(0); err != nil {
				return nil, err
			}
			return notes, t.begin(st)
		}
		t.seq = 1 // an old transcript, or one with no good record: kept as it is
		return nil, nil
	}
	t.seq = sc.lastSeq() + 1
	t.found = sc
	switch n := sc.tail(); {
	case n == 0:
		return nil, nil
	case n <= maxTorn:
		if err := t.cut(sc.goodEnd); err != nil {
			return nil, err
		}
		return []string{tornNote(n)}, nil
	default:
		return []string{fmt.Sprintf("%s has %d bytes after its last good record, too many to be one torn record; they are left as they are.",
			transcriptName, n)}, nil
	}
}

func tornNote(n int64) string {
	return fmt.Sprintf("%s ended in a torn record; %d bytes cut.", transcriptName, n)
}

// begin writes the opening record.
func (t *transcript) begin(st engine.State) error {
	t.heading, t.seq = false, 0
	if err := t.append(opening(st)); err != nil {
		return err
	}
	t.seq = 1
	return nil
}

// cut truncates the file to size n and makes that durable.
func (t *transcript) cut(n int64) error {
	t.broken = false // cut at the end of a line, or to nothing
	if err := t.f.Truncate(n); err != nil {
		return fmt.Errorf("cutting its torn end: %w", human.Bare(err))
	}
	if err := t.f.Sync(); err != nil {
		return fmt.Errorf("cutting its torn end: %w", human.Bare(err))
	}
	t.size = n
	return nil
}

// readEnd reads the last maxFileSize bytes of f, from the start of a line.
func readEnd(f io.ReaderAt, size int64) (data []byte, from int64, err error) {
	from = max(size-maxFileSize, 0)
	data = make([]byte, size-from)
	if _, err := f.ReadAt(data, from); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, err
	}
	if from > 0 {
		i := strings.IndexByte(string(data), '\n') + 1
		data, from = data[i:], from+int64(i)
	}
	return data, from, nil
}

// onlyTitle says whether data is no more than a transcript's first lines
// as lull writes them, perhaps cut short: the title and the intention.
func onlyTitle(data []byte, from int64) bool {
	if from != 0 {
		return false
	}
	title, rest, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(title, "# lull · ") && !strings.HasPrefix("# lull · ", title) {
		return false
	}
	line, after, _ := strings.Cut(rest, "\n")
	return line == "" && after == "" ||
		after == "" && (strings.HasPrefix(line, "Intention: ") || strings.HasPrefix("Intention: ", line))
}

// tornTitle says whether the first lines onlyTitle accepted were cut
// short, rather than being a whole title from before the markers.
func tornTitle(data []byte, st engine.State) bool {
	s := string(data)
	return !strings.HasSuffix(s, "\n") || st.Intention != "" && !strings.Contains(s, "\nIntention: ")
}

// add appends one entry, with a heading when it opens a new phase.
func (t *transcript) add(e engine.Entry) error {
	var b strings.Builder
	if t.broken {
		b.WriteString("\n")
	}
	if !t.heading || e.Phase != t.phase {
		b.WriteString("\n## " + e.Phase.Title() + "\n")
	}
	b.WriteString("\n" + entryRecord(e, t.seq))
	if err := t.append(b.String()); err != nil {
		return err
	}
	t.phase, t.heading, t.broken = e.Phase, true, false
	t.seq++
	return nil
}

// append writes s and fsyncs: a transcript line is there once spoken. A
// write that fails is taken back as far as it can be, so that the next
// record does not follow a torn one.
func (t *transcript) append(s string) error {
	n, err := t.f.WriteString(s)
	if err == nil {
		err = t.f.Sync()
	}
	if err != nil {
		if n > 0 && t.f.Truncate(t.size) == nil {
			t.f.Sync()
		}
		return human.Bare(err)
	}
	t.size += int64(n)
	return nil
}

func (t *transcript) close() error { return human.Bare(t.f.Close()) }

// oneLine keeps an entry to one paragraph so the file stays readable
// markdown whatever the text holds.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
