package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// lull sit, in process: a timed sit with its bells, saved and counted;
// its length and bell checked before anything begins.
func TestSitCommand(t *testing.T) {
	home := t.TempDir()
	// 100 times faster, not runIn's 10000: a millisecond the engine is
	// busy is then a tenth of a second of the sit, not ten seconds.
	out, errOut, code := runEnv(t, home, []string{"LULL_TIME_SCALE=100"}, "sit", "2", "--bell", "1m", "--no-tui", "--soundscape", "none")
	if code != 0 {
		t.Fatalf("lull sit: %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"sitting · 2 min · a bell every 1 minute", "Bell · 0:00 · sitting", "Bell 1 · 1:00", "Bell, bell · 1:49 · the end", "Sit complete · 2:00. Saved as"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	list, _, _ := runIn(t, home, "sessions", "list", "--json")
	var doc struct {
		Sessions []struct {
			ID       string  `json:"id"`
			Status   string  `json:"status"`
			Practice string  `json:"practice"`
			Pattern  string  `json:"pattern"`
			Length   int     `json:"length_minutes"`
			Elapsed  float64 `json:"elapsed_seconds"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(list), &doc); err != nil || len(doc.Sessions) != 1 {
		t.Fatalf("sessions list --json: %v\n%s", err, list)
	}
	sessions := doc.Sessions
	if s := sessions[0]; s.Status != "completed" || s.Practice != "sit" || s.Pattern != "1m" || s.Length != 2 || s.Elapsed < 119 || s.Elapsed > 121 {
		t.Errorf("listed as %+v", s)
	}
	show, _, _ := runIn(t, home, "sessions", "show", sessions[0].ID)
	if !strings.Contains(show, "a silent sit, 2 min, a bell every 1 minute") {
		t.Errorf("sessions show:\n%s", show)
	}
	stats, _, _ := runIn(t, home, "stats")
	if !strings.Contains(stats, "1 session · 2 min") {
		t.Errorf("stats does not count the sit:\n%s", stats)
	}
	for args, want := range map[string]string{
		"sit 0":              "leave it out",
		"sit 241":            "from 1 to 240",
		"sit 10 --bell 10":   "shorter than the sit",
		"sit 10 --bell 0":    "bell",
		"sit --bell 2.5":     "bell",
		"sit 1.5":            "give minutes",
		"sit 90s":            "whole number of minutes",
		"sit ten":            "give minutes",
		"sit 5 --bell x":     "give minutes",
		"sit --soundscape x": "soundscape",
	} {
		out, errOut, code := runIn(t, home, strings.Fields(args)...)
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("lull %s: exit %d, want 1 and %q:\n%s%s", args, code, want, out, errOut)
		}
	}
}

// sessions show says an open-ended sit is open-ended, never "0 min" or
// "of 0:00".
func TestShowSaysAnOpenEndedSit(t *testing.T) {
	home := t.TempDir()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.NewState("20261129-210000-open", engine.Options{Practice: engine.PracticeSit, Soundscape: "none"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held, err := store.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	held.Close()
	store.Close()
	show, errOut, code := runIn(t, home, "sessions", "show", st.ID)
	if code != 0 {
		t.Fatalf("sessions show: %d\n%s%s", code, show, errOut)
	}
	for _, want := range []string{"length     open-ended", "with no set end", "a silent sit, open-ended"} {
		if !strings.Contains(show, want) {
			t.Errorf("no %q in:\n%s", want, show)
		}
	}
	for _, wrong := range []string{"0 min", "of 0:00"} {
		if strings.Contains(show, wrong) {
			t.Errorf("%q in:\n%s", wrong, show)
		}
	}
}
