package sessions

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// sleepState is fullState as a sleep session whose soundscape plays on
// for half an hour after its last word.
func sleepState(t testing.TB, id string) engine.State {
	t.Helper()
	st := fullState(t, id)
	st.Sleep, st.SleepTail = true, 30*time.Minute
	return st
}

// A sleep session and its tail are kept in session.yaml's header, in
// seconds like every duration there, and come back whole: from the file,
// through the store, and in the list, which reads the header alone.
func TestSleepIsSaved(t *testing.T) {
	want := sleepState(t, id)
	b, err := encode(want)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "\n"+phasesKey)
	if !strings.Contains(head, "\nsleep: true\nsleep_tail_seconds: 1800\n") {
		t.Errorf("the header does not say sleep: true, sleep_tail_seconds: 1800:\n%s", head)
	}
	got, err := decode(b, id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, got, want)

	s, _ := openStore(t)
	spoke(t, s, newSleepState(t, id), want)
	loaded, report, err := s.Load(id)
	if err != nil || report.FromBackup || report.Rebuilt {
		t.Fatalf("load: %v %+v", err, report)
	}
	sameState(t, loaded, want)
	infos, errs := s.List()
	if len(errs) > 0 || len(infos) != 1 || !infos[0].Sleep {
		t.Errorf("list: %+v %v", infos, errs)
	}
}

func newSleepState(t testing.TB, id string) engine.State {
	t.Helper()
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Intention: "sleep", Seed: 7, Voice: "none",
		Soundscape: "brown", Sleep: true, SleepTail: 30 * time.Minute}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A waking session writes neither key, so its file reads as it did before
// sleep sessions, and a file from before them loads as a waking session.
func TestWakingSessionFilesHaveNoSleep(t *testing.T) {
	b, err := encode(fullState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("sleep:")) || bytes.Contains(b, []byte("sleep_tail")) {
		t.Errorf("a waking session's file mentions sleep:\n%s", b)
	}
	got, err := decode(b, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sleep || got.SleepTail != 0 {
		t.Errorf("a file without sleep loads as sleep %v, tail %v", got.Sleep, got.SleepTail)
	}
}

// A tail lull would not play is refused on load, with the field named.
func TestBadSleepTailIsRefused(t *testing.T) {
	good, err := encode(sleepState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ value, says string }{
		{"-60", "sleep_tail_seconds is -60"},
		{"90000", "plays for 0 to 8 hours, not 25 hours"},
		{".nan", "sleep_tail_seconds is NaN"},
	} {
		bad := reseal(t, good, func(s string) string {
			return strings.Replace(s, "sleep_tail_seconds: 1800", "sleep_tail_seconds: "+c.value, 1)
		})
		_, err := decode(bad, id)
		mustContain(t, err, c.says)
	}
}

// When session.yaml and its backup are lost, the session rebuilt from its
// transcript is still a sleep session with its tail: the opening record
// keeps them.
func TestSleepIsRebuiltFromTheTranscript(t *testing.T) {
	s, home := openStore(t)
	full := sleepState(t, id)
	spoke(t, s, newSleepState(t, id), full)
	dir := filepath.Join(home, "sessions", id)
	tr := read(t, filepath.Join(dir, transcriptName))
	if !bytes.Contains(tr, []byte(` intention="sleep" sleep=true sleep_tail_seconds=1800 `)) {
		t.Errorf("the opening record does not keep sleep:\n%s", tr[:bytes.IndexByte(tr, '\n')+200])
	}
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	got, report, err := s.Load(id)
	if err != nil || !report.Rebuilt {
		t.Fatalf("load: %v %+v", err, report)
	}
	if !got.Sleep || got.SleepTail != 30*time.Minute {
		t.Errorf("rebuilt as sleep %v, tail %v", got.Sleep, got.SleepTail)
	}
	sv, err := s.Salvage(id)
	if err != nil {
		t.Fatal(err)
	}
	if f := sv.Transcript; !f.Sleep || f.SleepTail != 30*time.Minute {
		t.Errorf("salvage found sleep %v, tail %v", f.Sleep, f.SleepTail)
	}
}

// The opening record of a waking session is as it was before sleep
// sessions; one that says more than lull writes is refused.
func TestSleepInTheOpeningRecord(t *testing.T) {
	waking := opening(newState(t, id))
	if strings.Contains(waking, "sleep=") {
		t.Errorf("a waking session's opening mentions sleep: %s", waking)
	}
	r, err := parseRecord([]byte(strings.TrimSuffix(waking, "\n")[strings.LastIndex(strings.TrimSuffix(waking, "\n"), "\n")+1:]))
	if err != nil || r.open.Sleep || r.open.SleepTail != 0 {
		t.Errorf("a waking opening reads as %+v (%v)", r.open, err)
	}
	line := func(fields string) []byte {
		return []byte(strings.TrimSuffix(mark("# lull", 0, "session id="+id+` created=2026-11-23T10:15:00Z length=10 seed=7 voice="none" soundscape="none" intention=""`+fields), "\n"))
	}
	if r, err := parseRecord(line(" sleep=true sleep_tail_seconds=600.5")); err != nil || !r.open.Sleep || r.open.SleepTail != 600500*time.Millisecond {
		t.Errorf("a sleep opening reads as %+v (%v)", r.open, err)
	}
	for fields, says := range map[string]string{
		" sleep=false":                       "lull writes it only as true",
		" sleep_tail_seconds=60":             "sleep_tail_seconds is given without sleep=true",
		" sleep=true sleep_tail_seconds=1e9": "sleep_tail_seconds",
	} {
		_, err := parseRecord(line(fields))
		mustContain(t, err, says)
	}
}
