package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

func completed(t *testing.T, id string) engine.State {
	t.Helper()
	st := fullState(t, id)
	st.Status = engine.Completed
	st.MoodBefore, st.MoodAfter, st.Note, st.MoodAsked = 0, 0, "", false
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	return st
}

// What the listener says after a session is saved in its header, and
// reads back as given; nothing else of the session changes.
func TestRemarkSavesMoodAndNote(t *testing.T) {
	s, home := openStore(t)
	before := completed(t, id)
	saved(t, s, newState(t, id), before)

	note := "  slept well,\n\tthe rain helped  "
	got, err := s.Remark(id, Remark{MoodBefore: 2, MoodAfter: 4, Note: &note})
	if err != nil {
		t.Fatal(err)
	}
	if got.MoodBefore != 2 || got.MoodAfter != 4 || got.Note != "slept well, the rain helped" {
		t.Errorf("saved %d → %d %q", got.MoodBefore, got.MoodAfter, got.Note)
	}
	loaded, _, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	want := before.Clone()
	want.MoodBefore, want.MoodAfter, want.Note = 2, 4, "slept well, the rain helped"
	sameState(t, loaded, want)
	yaml := string(read(t, filepath.Join(home, "sessions", id, primaryName)))
	for _, line := range []string{"mood_before: 2\n", "mood_after: 4\n", "note: slept well, the rain helped\n"} {
		if !strings.Contains(yaml, line) {
			t.Errorf("session.yaml lacks %q", line)
		}
	}
	// The listing reads them from the header.
	infos, _ := s.List()
	if len(infos) != 1 || infos[0].MoodAfter != 4 || infos[0].Note != "slept well, the rain helped" {
		t.Errorf("listed %+v", infos)
	}

	// Given alone, the mood after leaves the rest; an empty note clears it.
	empty := ""
	if got, err = s.Remark(id, Remark{MoodAfter: 5, Note: &empty}); err != nil {
		t.Fatal(err)
	}
	if got.MoodBefore != 2 || got.MoodAfter != 5 || got.Note != "" {
		t.Errorf("saved %d → %d %q", got.MoodBefore, got.MoodAfter, got.Note)
	}
}

// A skip after a sleep session is remembered: asked, no mood.
func TestRemarkRemembersTheAsking(t *testing.T) {
	s, _ := openStore(t)
	saved(t, s, newState(t, id), completed(t, id))
	if _, err := s.Remark(id, Remark{Asked: true}); err != nil {
		t.Fatal(err)
	}
	infos, _ := s.List()
	if len(infos) != 1 || !infos[0].MoodAsked || infos[0].MoodAfter != 0 {
		t.Errorf("listed %+v", infos)
	}
}

// Bad input is refused with what is wrong, and the file is left as it was.
func TestRemarkRefuses(t *testing.T) {
	s, home := openStore(t)
	saved(t, s, newState(t, id), completed(t, id))
	paused := "20260101-090000-pause"
	saved(t, s, newState(t, paused), fullState(t, paused))
	path := filepath.Join(home, "sessions", id, primaryName)
	was := read(t, path)
	long := strings.Repeat("a", engine.MaxNote+1)
	for _, c := range []struct {
		id   string
		r    Remark
		want string
	}{
		{id, Remark{MoodAfter: 6}, "a mood is 1 to 5, not 6"},
		{id, Remark{MoodBefore: -1}, "a mood is 1 to 5, not -1"},
		{id, Remark{Note: &long}, "a note holds up to 280 characters, this one has 281"},
		{"20260101-090000-nope", Remark{MoodAfter: 3}, "no such session"},
		{"../x", Remark{MoodAfter: 3}, "../x"},
		{paused, Remark{MoodAfter: 3}, "is paused: the mood after is for a session that has ended"},
	} {
		_, err := s.Remark(c.id, c.r)
		mustContain(t, err, c.want)
	}
	if now, err := os.ReadFile(path); err != nil || string(now) != string(was) {
		t.Errorf("a refused remark changed session.yaml (%v)", err)
	}
	// The mood before may be given to a paused session.
	if st, err := s.Remark(paused, Remark{MoodBefore: 3}); err != nil || st.MoodBefore != 3 {
		t.Errorf("mood before on a paused session: %d, %v", st.MoodBefore, err)
	}
}

// A session a lull has open is not written under it.
func TestRemarkRefusesAnOpenSession(t *testing.T) {
	s, _ := openStore(t)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	_, err = s.Remark(id, Remark{MoodBefore: 3})
	if !errors.As(err, new(*LockedError)) {
		t.Errorf("not refused as open in a lull: %v", err)
	}
}

// The mood before is known when the transcript begins: its opening record
// keeps it, so a session rebuilt from the transcript keeps it too.
func TestMoodBeforeIsRebuiltFromTheTranscript(t *testing.T) {
	s, home := openStore(t)
	created := newState(t, id)
	created.MoodBefore = 3
	full := fullState(t, id)
	full.MoodBefore = 3
	spoke(t, s, created, full)
	dir := filepath.Join(home, "sessions", id)
	if tr := read(t, filepath.Join(dir, transcriptName)); !strings.Contains(string(tr), ` mood_before=3 `) {
		t.Errorf("the opening record does not keep the mood before:\n%s", tr[:200])
	}
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	got, report, err := s.Load(id)
	if err != nil || !report.Rebuilt {
		t.Fatalf("load: %v %+v", err, report)
	}
	if got.MoodBefore != 3 {
		t.Errorf("rebuilt with mood before %d", got.MoodBefore)
	}
	if waking := opening(newState(t, id)); strings.Contains(waking, "mood_before") {
		t.Errorf("an opening with no mood mentions it: %s", waking)
	}
	line := func(fields string) []byte {
		return []byte(strings.TrimSuffix(mark("# lull", 0, "session id="+id+` created=2026-11-23T10:15:00Z length=10 seed=7 voice="none" soundscape="none" intention=""`+fields), "\n"))
	}
	for fields, says := range map[string]string{" mood_before=0": "lull writes it only when given", " mood_before=6": "a mood is 1 to 5", " mood_before=x": "mood_before"} {
		_, err := parseRecord(line(fields))
		mustContain(t, err, says)
	}
}
