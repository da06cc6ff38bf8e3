package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Removing the lock file while a lull holds the session does not let a
// second one in: the lock is on the folder, and the refusal still names
// the holder.
func TestRemovedLockFileStillLocks(t *testing.T) {
	s, home := openStore(t)
	create(t, s, newState(t, id))
	first, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := os.Remove(filepath.Join(home, "sessions", id, lockName)); err != nil {
		t.Fatal(err)
	}
	var locked *LockedError
	second, err := s.Resume(id)
	if err == nil {
		second.Close()
		t.Fatal("a second Resume was let in once the lock file was removed")
	}
	if !errors.As(err, &locked) {
		t.Fatalf("second Resume: %v", err)
	}
	if locked.PID != os.Getpid() {
		t.Errorf("the refusal names pid %d, want %d: %v", locked.PID, os.Getpid(), err)
	}
	if pid, held, err := s.Held(id); err != nil || !held || pid != os.Getpid() {
		t.Errorf("Held = %d, %v, %v; want %d, true", pid, held, err, os.Getpid())
	}
	if _, err := os.Stat(filepath.Join(home, "sessions", id, lockName)); err == nil {
		t.Error("the refused lull wrote a lock file")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := s.Held(id); err != nil || held {
		t.Errorf("after Close: held %v, %v", held, err)
	}
	again, err := s.Resume(id)
	if err != nil {
		t.Fatalf("Resume after the holder closed: %v", err)
	}
	again.Close()
}

// spokenOn is st with more guide lines spoken in phase p, as the engine
// adds them: history, the phase's count, the position.
func spokenOn(st engine.State, p engine.Phase, texts ...string) (engine.State, []engine.Entry) {
	st = st.Clone()
	if p != st.Phase {
		st.Phases[st.Phase].Status, st.Phases[st.Phase].CompletedAt = engine.PhaseCompleted, st.UpdatedAt
		st.Phases[p].Status, st.Phases[p].StartedAt = engine.PhaseActive, st.UpdatedAt
		st.Phase = p
	}
	var added []engine.Entry
	for _, text := range texts {
		st.UpdatedAt = st.UpdatedAt.Add(7 * time.Second)
		e := engine.Entry{At: st.UpdatedAt, Phase: p, Role: engine.RoleGuide, Text: text}
		st.History = append(st.History, e)
		st.Phases[p].Spoken++
		added = append(added, e)
	}
	st.Position = engine.Position{Phase: p, Sentence: st.Phases[p].Spoken}
	return st, added
}

// savesFailed transcribes entries to session id as a full disk lets it —
// the appends work, the saves do not — and resumes it afresh.
func savesFailed(t *testing.T, s *Store, id string, entries []engine.Entry) *Session {
	t.Helper()
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
	}
	sess.Close()
	if sess, err = s.Resume(id); err != nil {
		t.Fatal(err)
	}
	return sess
}

func headings(t *testing.T, path string) map[string]int {
	t.Helper()
	count := map[string]int{}
	for line := range strings.Lines(string(read(t, path))) {
		if strings.HasPrefix(line, "## ") {
			count[strings.TrimSpace(line[3:])]++
		}
	}
	return count
}

// transcriptSaid is the guide's lines the transcript's checked records hold.
func transcriptSaid(t *testing.T, path string) ([]string, *scan) {
	t.Helper()
	b := read(t, path)
	sc := scanTranscript(b, 0, int64(len(b)))
	var said []string
	for _, e := range sc.entries() {
		if e.Role == engine.RoleGuide {
			said = append(said, e.Text)
		}
	}
	return said, sc
}

// On a full disk the transcript can go on while session.yaml is stuck
// where it was. Resuming keeps what the transcript holds beyond it as
// spoken — the listener heard it — and goes on after it, in the phase it
// reached, without a second heading for a phase the transcript has.
func TestResumeKeepsWhatTheTranscriptWentOnTo(t *testing.T) {
	s, home := openStore(t)
	stuck := fullState(t, id) // paused in breathing, 4 spoken there
	spoke(t, s, newState(t, id), stuck)
	on, more := spokenOn(stuck, engine.Breathing, "Breathe in, slow.", "And out, slower.")
	on, later := spokenOn(on, engine.Sensory, "Notice your hands.", "Notice the air on your face.")
	sess := savesFailed(t, s, id, append(more, later...))
	defer sess.Close()
	got := sess.State()
	if got.Phase != engine.Sensory || got.Position != (engine.Position{Phase: engine.Sensory, Sentence: 2}) {
		t.Fatalf("resumes at %s, %+v; want sensory after its 2 sentences", got.Phase, got.Position)
	}
	if b, s := got.Phases[engine.Breathing], got.Phases[engine.Sensory]; b.Status != engine.PhaseCompleted || b.Spoken != 6 ||
		s.Status != engine.PhaseActive || s.Spoken != 2 || !s.StartedAt.Equal(later[0].At.Truncate(time.Millisecond)) {
		t.Errorf("breathing %s with %d spoken, sensory %s with %d from %v", b.Status, b.Spoken, s.Status, s.Spoken, s.StartedAt)
	}
	if want := on.Said(); !slices.Equal(got.Said(), want) {
		t.Errorf("said %q\nwant %q", got.Said(), want)
	}
	if got.Elapsed <= stuck.Elapsed || got.Status != engine.Paused {
		t.Errorf("elapsed %v (was %v), status %s", got.Elapsed, stuck.Elapsed, got.Status)
	}
	if u := got.Chain.Unchained; !slices.Equal(u[len(u)-4:], saidOneLine(on)[len(saidOneLine(on))-4:]) {
		t.Errorf("the chain's unchained lines %q do not end with the 4 kept", u)
	}
	mustContain(t, errors.New(strings.Join(sess.Report().Notes, "\n")),
		"transcript.md went further than session.yaml, whose last saves did not reach the disk: its 4 later sentences are kept as spoken, and the session goes on after them, in sensory (timing estimated).")

	// It runs on in sensory: no second heading, and it saves.
	next, _ := spokenOn(got, engine.Sensory, "Let the weight of your arms be held.")
	if err := sess.Transcribe(next.History[len(next.History)-1]); err != nil {
		t.Fatal(err)
	}
	if err := sess.Save(next); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "sessions", id, transcriptName)
	for title, n := range headings(t, path) {
		if n != 1 {
			t.Errorf("%d headings %q", n, title)
		}
	}
	said, sc := transcriptSaid(t, path)
	if sc.disorder != 0 || sc.damaged != 0 || !slices.Equal(said, saidOneLine(next)) {
		t.Errorf("transcript: %d out of order, %d damaged, said %q", sc.disorder, sc.damaged, said)
	}
	sess.Close()
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := sess.Report().Notes; len(n) != 0 {
		t.Errorf("once they agree, resuming notes %q", n)
	}
}

// The other way: session.yaml was saved with lines the transcript could
// not take. Resuming writes them to it, in order, under their headings.
func TestResumeAddsWhatTheTranscriptLacks(t *testing.T) {
	s, home := openStore(t)
	full := fullState(t, id)
	spoke(t, s, newState(t, id), full)
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	ahead, _ := spokenOn(full, engine.Breathing, "Breathe in, slow.")
	ahead, _ = spokenOn(ahead, engine.Sensory, "Notice your hands.", "Notice the air on your face.")
	if err := sess.Save(ahead); err != nil { // the save worked; the appends did not
		t.Fatal(err)
	}
	sess.Close()

	sess, err = s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	sameState(t, sess.State(), ahead)
	mustContain(t, errors.New(strings.Join(sess.Report().Notes, "\n")),
		"transcript.md lacked the last 3 sentences session.yaml holds (writing them had failed); they are added to it.")
	path := filepath.Join(home, "sessions", id, transcriptName)
	said, sc := transcriptSaid(t, path)
	if sc.disorder != 0 || sc.damaged != 0 || !slices.Equal(said, saidOneLine(ahead)) {
		t.Errorf("transcript: %d out of order, %d damaged, said %q\nwant %q", sc.disorder, sc.damaged, said, saidOneLine(ahead))
	}
	if h := headings(t, path); h["Breathing"] != 1 || h["Sensory"] != 1 {
		t.Errorf("headings %v", h)
	}
}

// A session.yaml that never got past created, with a transcript that went
// on: the words were spoken, so the session resumes after them, paused.
func TestResumeAfterTheFirstSaveFailed(t *testing.T) {
	s, _ := openStore(t)
	created := newState(t, id)
	sess, err := s.Create(created)
	if err != nil {
		t.Fatal(err)
	}
	_, heard := spokenOn(created, engine.Atmosphere, "Settle in.", "Let the room go quiet.")
	for _, e := range heard {
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
	}
	sess.Close()
	sess, err = s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	got := sess.State()
	if got.Status != engine.Paused || got.Position != (engine.Position{Phase: engine.Atmosphere, Sentence: 2}) ||
		got.History[0].Role != engine.RoleUser || !got.SealedAt.Equal(heard[0].At.Truncate(time.Millisecond)) {
		t.Errorf("resumes %s at %+v, history %+v", got.Status, got.Position, got.History)
	}
}

// A session whose folder is removed while it runs cannot be saved, and
// says so; lull makes nothing again in its place.
func TestRemovedFolderIsGone(t *testing.T) {
	s, home := openStore(t)
	full := fullState(t, id)
	spoke(t, s, newState(t, id), full)
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if d := sess.OnDisk(); d.Gone || d.Err != nil || d.State.Spoken() != full.Spoken() {
		t.Fatalf("on disk before: %+v", d)
	}
	folder := filepath.Join(home, "sessions", id)
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	next, added := spokenOn(full, engine.Breathing, "Breathe in, slow.")
	terr := sess.Transcribe(added[0])
	serr := sess.Save(next)
	if serr == nil {
		t.Error("a save into a removed folder worked")
	}
	t.Logf("transcribe: %v; save: %v", terr, serr)
	if d := sess.OnDisk(); !d.Gone || d.Folder != folder {
		t.Errorf("on disk after: %+v", d)
	}
	sess.Close()
	if _, err := os.Lstat(folder); err == nil {
		t.Error("the removed folder is there again")
	}
	entries, _ := os.ReadDir(filepath.Join(home, "sessions"))
	if len(entries) != 0 {
		t.Errorf("the sessions folder holds %v", entries)
	}
	if _, _, err := s.Load(id); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load: %v", err)
	}
}

// OnDisk reads back what resuming would find: session.yaml as it was
// last saved, and the lines the transcript holds beyond it.
func TestOnDiskReadsBackWhatResumeWouldFind(t *testing.T) {
	s, _ := openStore(t)
	created := newState(t, id)
	sess, err := s.Create(created)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if d := sess.OnDisk(); d.Gone || d.Err != nil || d.State.Status != engine.Created {
		t.Errorf("on disk: %+v, want created", d)
	}
	_, heard := spokenOn(created, engine.Atmosphere, "Settle in.", "Let the room go quiet.")
	for _, e := range heard {
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
	}
	if d := sess.OnDisk(); d.Gone || d.Err != nil || d.State.Spoken() != 2 || d.State.Status != engine.Paused {
		t.Errorf("on disk: %+v, want paused with the 2 lines the transcript holds", d)
	}
}
