package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/speech"
)

// messyGuide writes the way misbehaving models do: thinking left inline,
// an eager opener, a heading, a French sentence, a question for the
// listener and an AI speaking of itself before its lines, markup and
// stage directions in them, and a closer after the wind-down. Its lines
// are numbered so each is unique.
type messyGuide struct {
	mu       sync.Mutex
	requests []Request
}

// messyJunk is what every call writes before its lines; each is removed
// and counted. messyCloser follows the wind-down's lines: two more.
const (
	messyJunk = "<think>\nOkay, the user wants the %[1]s part. I should keep it calm.\n</think>\n\n" +
		"Sure! Here is the %[1]s phase:\n\n## Settling In\n\n" +
		"Fermez les yeux et respirez doucement. How are you feeling? As an AI, I cannot feel calm myself.\n\n"
	messyJunkRemoved   = 7
	messyCloser        = "\n\nThank you for using this app! Would you like to continue? 😊"
	messyCloserRemoved = 2
)

func (g *messyGuide) Name() string { return "messy" }

func (g *messyGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests = append(g.requests, req)
	var b strings.Builder
	fmt.Fprintf(&b, messyJunk, strings.ToLower(req.Phase.Title()))
	n := req.Budget.WindDownAt - req.Spoken
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken)
	}
	for k := range n {
		i := req.Spoken + k
		switch k % 3 {
		case 0:
			fmt.Fprintf(&b, "%d. *Rest* here softly, %s moment %d [pause 3 seconds]\n", k+1, req.Phase, i)
		case 1:
			fmt.Fprintf(&b, "- <emphasis>Rest</emphasis> here softly, %s moment %d. (soft music) 🌿\n", req.Phase, i)
		default:
			fmt.Fprintf(&b, "**Rest** here softly, %s moment %d. <break time=\"3s\"/>\n", req.Phase, i)
		}
	}
	if req.WindDown {
		b.WriteString(messyCloser)
	}
	return &chunkStream{text: b.String()}, nil
}

func TestWhatAModelShouldNotSayNeverReachesTheSpeaker(t *testing.T) {
	spk := newFakeSpeaker()
	g := &messyGuide{}
	e := newEngine(t, newSession(t, 10, ""), g, spk, &memStore{})
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	st := e.Snapshot()
	if st.Status != Completed {
		t.Fatalf("status %s", st.Status)
	}
	clean := regexp.MustCompile(`^Rest here softly, [a-z]+ moment \d+\.$`)
	played := spk.Played()
	if len(played) < 20 {
		t.Fatalf("only %d lines played", len(played))
	}
	for _, s := range played {
		if !clean.MatchString(s) {
			t.Errorf("the speaker heard %q", s)
		}
	}
	for _, ev := range <-events {
		if ev.Kind == EventSentence && !clean.MatchString(ev.Text) {
			t.Errorf("a view was shown %q", ev.Text)
		}
	}
	calls := map[Phase]int{}
	windDowns := map[Phase]int{}
	for _, r := range g.requests {
		calls[r.Phase]++
		if r.WindDown {
			windDowns[r.Phase]++
		}
	}
	total := 0
	for _, p := range Phases {
		// Every call's opening junk is read before its first line; the
		// closer only when the phase reads its wind-down to the end.
		least := calls[p] * messyJunkRemoved
		most := least + windDowns[p]*messyCloserRemoved
		if got := st.Phases[p].Removed; got < least || got > most {
			t.Errorf("%s: removed %d, want %d to %d (%d calls, %d wind-downs)", p, got, least, most, calls[p], windDowns[p])
		}
		if st.Phases[p].Dropped != 0 {
			t.Errorf("%s: the safety check dropped %d: the cleaner should have removed them first", p, st.Phases[p].Dropped)
		}
		total += st.Phases[p].Removed
	}
	if total == 0 {
		t.Error("nothing counted as removed")
	}
}

// removingGuide's calls say the remote cleaner removed some of their text.
type removingGuide struct{ calls map[Phase]int }

func (g *removingGuide) Name() string { return "removing" }

func (g *removingGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	g.calls[req.Phase]++
	n := max(1, req.Budget.WindDownAt-req.Spoken)
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken)
	}
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "Rest here, %s moment %d.\n\n", req.Phase, req.Spoken+k)
	}
	return &removedStream{chunkStream{text: b.String()}}, nil
}

type removedStream struct{ chunkStream }

func (s *removedStream) Receipt() Receipt { return Receipt{Removed: 3} }

func TestRemovedInAReceiptIsBookedInThePhase(t *testing.T) {
	g := &removingGuide{calls: map[Phase]int{}}
	e := newEngine(t, newSession(t, 5, ""), g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()
	for _, p := range Phases {
		if got, want := st.Phases[p].Removed, 3*g.calls[p]; got != want || want == 0 {
			t.Errorf("%s: removed %d, want %d", p, got, want)
		}
	}
}

// The log says what was removed and why, never the words at Info: a log
// may be shared, and a model's words may hold what the listener wrote.
func TestRemovalsAreLoggedByReasonNotByWords(t *testing.T) {
	var info, debug strings.Builder
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: &info}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	st := newSession(t, 5, "")
	e, err := New(st, Config{Screen: fakeScreen{}, Guide: &messyGuide{}, Speaker: newFakeSpeaker(), Logger: log, Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := info.String()
	for _, reason := range []speech.Reason{speech.RemovedThinking, speech.RemovedChatter, speech.RemovedMeta, speech.RemovedHeading, speech.RemovedLanguage, speech.RemovedQuestion, speech.RemovedAI} {
		if !strings.Contains(got, string(reason)) {
			t.Errorf("the log does not say %q:\n%s", reason, got)
		}
	}
	for _, words := range []string{"Fermez", "the user", "Settling In", "How are you", "As an AI", "Sure"} {
		if strings.Contains(got, words) {
			t.Errorf("the Info log holds %q", words)
		}
	}

	// At Debug, a short prefix of each, enough to see what went.
	dlog := slog.New(slog.NewTextHandler(&lockedWriter{w: &debug}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	speech.LogRemovals(dlog, Sensory.String(), []speech.Removal{{Reason: speech.RemovedLanguage, Text: "Fermez les yeux et respirez doucement, longuement."}})
	if d := debug.String(); !strings.Contains(d, "Fermez les yeux") || strings.Contains(d, "longuement") {
		t.Errorf("debug log %q: want a short prefix", d)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
