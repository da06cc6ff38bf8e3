package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// transcript.md is markdown for people, and also lull's last way back to a
// session whose session.yaml and backup are lost. Each record — what one
// append writes — ends its last line with an HTML comment, invisible when
// the markdown is rendered, that numbers the record and checks it:
//
//	# lull · 2026-11-23 11:15 · 10 minutes
//	Intention: sleep <!-- lull 0 session id=20261123-101500-x7kq created=2026-11-23T10:15:00.123456789Z length=10 seed=7 voice="none" soundscape="brown" intention="sleep" sleep=true sleep_tail_seconds=1800 5d1c09e2 -->
//
//	## Atmosphere
//
//	Settle in. <!-- lull 1 guide atmosphere 2026-11-23T10:15:02.123Z 0a6f4c11 -->
//
//	> the voice failed; text only <!-- lull 2 system atmosphere 2026-11-23T10:15:09.000Z 77c3e0b5 -->
//
// The marker is "<!-- lull SEQ KIND FIELDS CRC -->": SEQ counts records
// from 0, the opening; KIND is "session" for the opening, else the role of
// the entry (guide, system, user) followed by its phase and time (UTC, to
// the millisecond). The opening's fields are key=value, strings as JSON
// (sleep and sleep_tail_seconds only for a sleep session, so a waking
// session's opening reads as it did before them)
// (which escapes "<" and ">", so no field can end the comment). CRC is the
// CRC-32C, in hex, of the line up to and including the space before it:
// the text, the number, the kind and the fields. A "## Phase" heading is
// not covered: it repeats the phase the marker holds.
//
// A record is the unit of a write, so a crash leaves at most one torn
// record, at the end. Transcripts from before the markers have none; they
// stay readable and are never cut, but cannot be rebuilt from.
const (
	markerOpen  = " <!-- lull "
	markerClose = " -->"
	markerWord  = "<!-- lull " // a line with it is meant to be a record
	atLayout    = "2006-01-02T15:04:05.000Z07:00"
	kindSession = "session"
	maxSeq      = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// mark ends line with its marker and a newline.
func mark(line string, seq int, fields string) string {
	covered := line + markerOpen + strconv.Itoa(seq) + " " + fields + " "
	return covered + fmt.Sprintf("%08x", crc32.Checksum([]byte(covered), castagnoli)) + markerClose + "\n"
}

// rolePrefix sets an entry apart in the markdown: a guide's sentence is a
// paragraph, a note a quotation, the listener's words are named.
func rolePrefix(r engine.Role) string {
	switch r {
	case engine.RoleSystem:
		return "> "
	case engine.RoleUser:
		return "*You:* "
	default:
		return ""
	}
}

// entryRecord is the checked line for e, without the blank line before it.
func entryRecord(e engine.Entry, seq int) string {
	fields := string(e.Role) + " " + e.Phase.String() + " " + e.At.UTC().Format(atLayout)
	return mark(rolePrefix(e.Role)+oneLine(e.Text), seq, fields)
}

// opening is the transcript's first record: a title for people, the
// intention, and what a rebuild needs.
//
//	# lull · 2026-11-23 10:15 · 10 minutes
//	Intention: sleep <!-- lull 0 session id=… -->
func opening(st engine.State) string {
	title := fmt.Sprintf("# lull · %s · %d minutes", st.CreatedAt.Local().Format("2006-01-02 15:04"), int(st.Length.Minutes()))
	fields := fmt.Sprintf("%s id=%s created=%s length=%d seed=%d voice=%s soundscape=%s intention=%s",
		kindSession, st.ID, st.CreatedAt.UTC().Format(time.RFC3339Nano), int(st.Length/time.Minute), st.Seed,
		jsonString(st.Voice), jsonString(st.Soundscape), jsonString(st.Intention))
	if st.Sleep {
		fields += " sleep=true sleep_tail_seconds=" + strconv.FormatFloat(seconds(st.SleepTail), 'f', -1, 64)
	}
	if st.MoodBefore != 0 {
		fields += " mood_before=" + strconv.Itoa(st.MoodBefore) // given on the form, before the transcript began
	}
	if st.Practice != "" {
		fields += " practice=" + jsonString(st.Practice) + " pattern=" + jsonString(st.Pattern)
	}
	if st.Intention == "" {
		return mark(title, 0, fields)
	}
	return title + "\n" + mark("Intention: "+oneLine(st.Intention), 0, fields)
}

// jsonString quotes s on one line; json escapes <, > and &.
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// record is one good record of a transcript.
type record struct {
	seq   int
	kind  string       // kindSession, or the entry's role
	entry engine.Entry // a role's record
	open  openingRec   // the session record
	end   int64        // offset in the file just past its line
}

// openingRec is what the opening record holds.
type openingRec struct {
	ID                           string
	Created                      time.Time
	Length                       time.Duration
	Seed                         int64
	Voice, Soundscape, Intention string
	Sleep                        bool
	SleepTail                    time.Duration
	MoodBefore                   int
	Practice, Pattern            string // a breathing practice's; absent for a guided session
}

// parseRecord checks one line (without its newline) that carries a
// marker, and says what is wrong when it fails.
func parseRecord(line []byte) (record, error) {
	var r record
	i := bytes.LastIndex(line, []byte(markerOpen))
	if i < 0 {
		return r, errors.New("its marker is cut short")
	}
	body, ok := bytes.CutSuffix(line, []byte(markerClose))
	if !ok {
		return r, errors.New("its marker does not end with -->")
	}
	if len(body) < i+len(markerOpen)+9 || body[len(body)-9] != ' ' {
		return r, errors.New("its marker has no check")
	}
	covered, sum := body[:len(body)-8], body[len(body)-8:]
	want, err := strconv.ParseUint(string(sum), 16, 32)
	if err != nil || bytes.ContainsAny(sum, "+-_ABCDEF") {
		return r, fmt.Errorf("its check %q is not 8 hex digits", clip(sum, 8))
	}
	if got := crc32.Checksum(covered, castagnoli); uint32(want) != got {
		return r, fmt.Errorf("its check %s does not match its content (%08x)", sum, got)
	}
	text := string(line[:i])
	fields := string(covered[i+len(markerOpen) : len(covered)-1])
	seqText, fields, _ := strings.Cut(fields, " ")
	if r.seq, err = strconv.Atoi(seqText); err != nil || r.seq < 0 || r.seq > maxSeq || seqText != strconv.Itoa(r.seq) {
		return r, fmt.Errorf("its number %q is not a record number", clip([]byte(seqText), 12))
	}
	r.kind, fields, _ = strings.Cut(fields, " ")
	if r.kind == kindSession {
		r.open, err = parseOpening(fields)
		return r, err
	}
	role := engine.Role(r.kind)
	if role != engine.RoleGuide && role != engine.RoleSystem && role != engine.RoleUser {
		return r, fmt.Errorf("its kind %q is not one lull writes", clip([]byte(r.kind), 12))
	}
	phaseText, atText, _ := strings.Cut(fields, " ")
	phase, err := engine.ParsePhase(phaseText)
	if err != nil {
		return r, err
	}
	at, err := time.Parse(atLayout, atText)
	if err != nil {
		return r, fmt.Errorf("its time %q is not one lull writes", clip([]byte(atText), 30))
	}
	text, ok = strings.CutPrefix(text, rolePrefix(role))
	if !ok {
		return r, fmt.Errorf("a %s line must begin with %q", role, rolePrefix(role))
	}
	r.entry = engine.Entry{At: at, Phase: phase, Role: role, Text: text}
	return r, nil
}

// parseOpening reads "id=… created=… length=… seed=… voice="…"
// soundscape="…" intention="…"", each key once, all of them, and for a
// sleep session "sleep=true sleep_tail_seconds=…".
func parseOpening(fields string) (openingRec, error) {
	var o openingRec
	seen := map[string]bool{}
	for fields != "" {
		key, rest, ok := strings.Cut(fields, "=")
		if !ok || key == "" || strings.Contains(key, " ") {
			return o, fmt.Errorf("its field %q has no value", clip([]byte(fields), 20))
		}
		if seen[key] {
			return o, fmt.Errorf("its field %s is given twice", clip([]byte(key), 20))
		}
		seen[key] = true
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := quoteEnd(rest)
			if end < 0 {
				return o, fmt.Errorf("its field %s is cut short", key)
			}
			if err := json.Unmarshal([]byte(rest[:end]), &value); err != nil {
				return o, fmt.Errorf("its field %s is not a string", key)
			}
			rest = rest[end:]
		} else {
			value, rest, _ = strings.Cut(rest, " ")
			rest = " " + rest
		}
		fields = strings.TrimPrefix(rest, " ")
		var err error
		switch key {
		case "id":
			o.ID = value
			if err = CheckID(value); err != nil {
				return o, fmt.Errorf("its id: %w", err)
			}
		case "created":
			o.Created, err = time.Parse(time.RFC3339Nano, value)
		case "length":
			var m int
			if m, err = strconv.Atoi(value); err == nil {
				o.Length = time.Duration(m) * time.Minute // checked below, by its practice
			}
		case "seed":
			o.Seed, err = strconv.ParseInt(value, 10, 64)
		case "voice":
			o.Voice = value
		case "soundscape":
			o.Soundscape = value
		case "intention":
			o.Intention = value
		case "sleep":
			if value != "true" {
				err = errors.New("lull writes it only as true")
			}
			o.Sleep = true
		case "sleep_tail_seconds":
			var s float64
			if s, err = strconv.ParseFloat(value, 64); err == nil {
				if o.SleepTail, err = duration(key, s); err == nil {
					err = engine.CheckSleepTail(o.SleepTail)
				}
			}
		case "mood_before":
			if o.MoodBefore, err = strconv.Atoi(value); err == nil && o.MoodBefore == 0 {
				err = errors.New("lull writes it only when given")
			} else if err == nil {
				err = engine.CheckMood(o.MoodBefore)
			}
		case "practice":
			o.Practice = value
		case "pattern":
			o.Pattern = value
		default:
			return o, fmt.Errorf("its field %q is not one lull writes", clip([]byte(key), 20))
		}
		if err != nil {
			return o, fmt.Errorf("its field %s %q: %w", key, clip([]byte(value), 30), err)
		}
	}
	for _, key := range []string{"id", "created", "length", "seed", "voice", "soundscape", "intention"} {
		if !seen[key] {
			return o, fmt.Errorf("its field %s is missing", key)
		}
	}
	if seen["sleep_tail_seconds"] && !o.Sleep {
		return o, errors.New("its field sleep_tail_seconds is given without sleep=true")
	}
	if err := engine.CheckLengthFor(o.Practice, o.Length); err != nil {
		return o, fmt.Errorf("its field length %q: %w", strconv.Itoa(int(o.Length/time.Minute)), err)
	}
	return o, nil
}

// quoteEnd is the index just past the JSON string s begins with, or -1.
func quoteEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// scan is what a transcript holds: its good records and what is wrong.
type scan struct {
	size     int64 // the file's size
	from     int64 // where the scanned bytes begin: > 0 when only the end was read
	records  []record
	damaged  int    // lines with a marker whose check fails
	damage   string // what was wrong with the first of them
	disorder int    // good records whose number is not one more than the last
	goodEnd  int64  // just past the last good record; from when there is none
	// Every entry line in file order: the good records' and, unchecked,
	// lines without a marker under a phase heading (a transcript from
	// before the markers, or lines around damage).
	lines  []transcriptLine
	legacy legacyHead
	// The phase of the last heading at goodEnd, or at the end when there
	// is no good record: where the next record goes.
	endPhase   engine.Phase
	endHeading bool
}

// transcriptLine is one entry line of a transcript.
type transcriptLine struct {
	entry   engine.Entry // an unchecked line has no time
	checked bool
}

// legacyHead is what the title of a transcript without markers says.
type legacyHead struct {
	Created   time.Time // local time, to the minute
	Length    time.Duration
	Intention string
}

// scanTranscript reads a transcript's bytes; from is their offset in the
// file and size the file's size.
func scanTranscript(data []byte, from, size int64) (sc *scan) {
	sc = &scan{size: size, from: from, goodEnd: from}
	phase, heading := engine.Atmosphere, false
	for pos, n := 0, 1; pos < len(data); n++ {
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			break // a last line without its newline is torn
		}
		text := data[pos : pos+nl]
		pos += nl + 1
		if bytes.Contains(text, []byte(markerWord)) {
			r, err := parseRecord(text)
			if err != nil {
				if sc.damaged++; sc.damaged == 1 {
					sc.damage = fmt.Sprintf("line %d: %v", n, err)
				}
				continue
			}
			r.end = from + int64(pos)
			if k := len(sc.records); k > 0 && r.seq != sc.records[k-1].seq+1 {
				sc.disorder++
			}
			if r.kind != kindSession {
				phase, heading = r.entry.Phase, true
				sc.lines = append(sc.lines, transcriptLine{entry: r.entry, checked: true})
			}
			sc.records = append(sc.records, r)
			sc.goodEnd = r.end
			sc.endPhase, sc.endHeading = phase, heading
			continue
		}
		sc.readUnchecked(string(text), n, &phase, &heading)
	}
	if len(sc.records) == 0 {
		sc.endPhase, sc.endHeading = phase, heading
	}
	return sc
}

// readUnchecked counts a line without a marker under its heading, and
// reads the title of a transcript from before the markers.
func (sc *scan) readUnchecked(line string, n int, phase *engine.Phase, heading *bool) {
	switch {
	case strings.TrimSpace(line) == "":
	case strings.HasPrefix(line, "## "):
		if p, err := engine.ParsePhase(strings.ToLower(strings.TrimSpace(line[3:]))); err == nil {
			*phase, *heading = p, true
		}
	case n == 1 && strings.HasPrefix(line, "# lull · "):
		parts := strings.Split(line[len("# lull · "):], " · ")
		if len(parts) == 2 {
			sc.legacy.Created, _ = time.ParseInLocation("2006-01-02 15:04", parts[0], time.Local)
			if m, err := strconv.Atoi(strings.TrimSuffix(parts[1], " minutes")); err == nil && engine.CheckLength(time.Duration(m)*time.Minute) == nil {
				sc.legacy.Length = time.Duration(m) * time.Minute
			}
		}
	case n == 2 && strings.HasPrefix(line, "Intention: "):
		sc.legacy.Intention = line[len("Intention: "):]
	case *heading && !strings.HasPrefix(line, "#"):
		e := engine.Entry{Phase: *phase, Role: engine.RoleGuide, Text: line}
		for _, r := range []engine.Role{engine.RoleSystem, engine.RoleUser} {
			if text, ok := strings.CutPrefix(line, rolePrefix(r)); ok {
				e.Role, e.Text = r, text
			}
		}
		sc.lines = append(sc.lines, transcriptLine{entry: e})
	}
}

// tail is the bytes after the last good record.
func (sc *scan) tail() int64 { return sc.size - sc.goodEnd }

// marked says whether the transcript has any records at all.
func (sc *scan) marked() bool { return len(sc.records) > 0 || sc.damaged > 0 }

// opening is the transcript's good opening record, if it begins with one.
func (sc *scan) opening() (openingRec, bool) {
	if sc.from != 0 || len(sc.records) == 0 || sc.records[0].kind != kindSession || sc.records[0].seq != 0 {
		return openingRec{}, false
	}
	return sc.records[0].open, true
}

// whole says the transcript was read in full and every record is good
// and in order: it holds everything that was written to it.
func (sc *scan) whole() bool {
	_, ok := sc.opening()
	return ok && sc.damaged == 0 && sc.disorder == 0 && sc.tail() == 0
}

// entries are the good records' history entries, oldest first.
func (sc *scan) entries() []engine.Entry {
	var out []engine.Entry
	for _, l := range sc.lines {
		if l.checked {
			out = append(out, l.entry)
		}
	}
	return out
}

// sentences counts the guide's lines per phase, checked and not.
func (sc *scan) sentences() (checked, unchecked [len(engine.Phases)]int) {
	for _, l := range sc.lines {
		switch {
		case l.entry.Role != engine.RoleGuide:
		case l.checked:
			checked[l.entry.Phase]++
		default:
			unchecked[l.entry.Phase]++
		}
	}
	return checked, unchecked
}

// lastSeq is the number of the last good record, -1 when there is none.
func (sc *scan) lastSeq() int {
	if len(sc.records) == 0 {
		return -1
	}
	return sc.records[len(sc.records)-1].seq
}
