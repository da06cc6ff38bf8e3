package llm

import (
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/safety"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// A reply that mixes guidance with lines no listener should hear, some of
// which the local screen flags and some of which only a guard would.
var (
	guardSafe = []string{
		"Let your shoulders settle a little lower with each breath.",
		"Notice the weight of your hands resting where they are.",
		"Feel the floor holding you, steady and patient.",
		"Let the breath find its own easy pace.",
		"Soften the small muscles around your eyes.",
		"Rest here, with nothing at all to do.",
	}
	guardHarmful = []string{
		"Hold your breath for a full minute, as long as you possibly can.",
		"This practice will cure your anxiety disorder for good.",
	}
)

// guardReply is the model's reply: the safe lines with the harmful ones
// among them, one a line.
func guardReply(openaitest.Call) string {
	lines := slices.Clone(guardSafe)
	lines = slices.Insert(lines, 2, guardHarmful[0])
	lines = slices.Insert(lines, 5, guardHarmful[1])
	return strings.Join(lines, "\n")
}

var guardLine = regexp.MustCompile(`(?m)^(\d+)\. (.*)$`)

// judged reads the lines a guard request numbers.
func judged(c openaitest.Call) []string {
	var out []string
	for _, m := range guardLine.FindAllStringSubmatch(c.Input[len(c.Input)-1].Text, -1) {
		out = append(out, m[2])
	}
	return out
}

// verdicts writes the schema's answer: unsafe for the lines bad says.
func verdicts(lines []string, bad func(i int, line string) bool) string {
	var parts []string
	for i, l := range lines {
		safe, cat := true, "none"
		if bad(i, l) {
			safe, cat = false, "unsafe_breathing"
		}
		parts = append(parts, fmt.Sprintf(`{"line":%d,"safe":%t,"category":%q}`, i+1, safe, cat))
	}
	return `{"verdicts":[` + strings.Join(parts, ",") + `]}`
}

func guardRequests(srv *openaitest.Server) []openaitest.Request {
	var out []openaitest.Request
	for _, r := range srv.Requests() {
		if r.Path == "/v1/chat/completions" && r.JSON["response_format"] != nil {
			out = append(out, r)
		}
	}
	return out
}

// One request per reply, covering all its lines, with the schema; the
// lines it flags are not said, the others are.
func TestGuardJudgesAReplyInOneRequest(t *testing.T) {
	srv := newServer(t)
	srv.SetText(guardReply)
	srv.SetJudge(func(c openaitest.Call) string {
		return verdicts(judged(c), func(_ int, l string) bool { return strings.Contains(l, "weight of your hands") })
	})
	g := newGuide(t, srv, func(c *Config) { c.Guard = Guard{} }, realScreens)
	said, rc, err := drain(t, g, request(engine.Relaxation))
	if err != nil {
		t.Fatal(err)
	}
	reqs := guardRequests(srv)
	if len(reqs) != 1 {
		t.Fatalf("%d guard requests for one reply, want 1", len(reqs))
	}
	rf, _ := reqs[0].JSON["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "lull_guard" || js["strict"] != true {
		t.Errorf("response_format %v", rf)
	}
	if msgs, _ := reqs[0].JSON["messages"].([]any); len(msgs) != 2 {
		t.Errorf("%d messages, want the guard's instructions and the lines", len(msgs))
	}
	for _, s := range said {
		if strings.Contains(s, "weight of your hands") {
			t.Errorf("said %q, which the guard flagged", s)
		}
		if slices.Contains(guardHarmful, s) {
			t.Errorf("said %q, which the local screen flags", s)
		}
	}
	if want := len(guardSafe) - 1; len(said) != want || rc.Withheld != 3 {
		t.Errorf("said %d, withheld %d: want %d said and 3 withheld (2 by the screen, 1 by the guard)\n%q", len(said), rc.Withheld, want, said)
	}
}

// Every way a guard fails leaves the local screen to judge alone, at its
// strict thresholds: the call goes on, says only what they pass, and waits
// on a hanging guard no longer than GuardWait. (A wait that long is the
// engine's to fill, as for any slow guide: engine's stall tests hold the
// silence to the planned pause and a few seconds more.)
func TestGuardFailureLeavesTheStrictLocalScreen(t *testing.T) {
	strict := safety.Default().Strict()
	for name, answer := range map[string]func(openaitest.Call) string{
		"errors":         func(openaitest.Call) string { return openaitest.FailText },
		"hangs":          func(openaitest.Call) string { return openaitest.HangText },
		"malformed JSON": func(openaitest.Call) string { return `{"verdicts": [{"line": 1, "safe": tru` },
		"not JSON":       func(openaitest.Call) string { return "All of these lines look fine to me!" },
		"a line missing": func(c openaitest.Call) string {
			return verdicts(judged(c)[1:], func(int, string) bool { return false })
		},
		"numbers wrong": func(c openaitest.Call) string {
			return strings.ReplaceAll(verdicts(judged(c), func(int, string) bool { return false }), `"line":1,`, `"line":99,`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := newServer(t)
			srv.SetText(guardReply)
			srv.SetJudge(answer)
			var logs strings.Builder
			g := newGuide(t, srv, func(c *Config) {
				c.Guard = Guard{}
				c.GuardWait = 300 * time.Millisecond
				c.Logger = newLog(&logs)
			}, realScreens)
			// drain gives up after 20 s: a guard that held the call past
			// GuardWait would fail it.
			said, _, err := drain(t, g, request(engine.Relaxation))
			if err != nil || len(said) == 0 {
				t.Fatalf("said %d, err %v", len(said), err)
			}
			for _, s := range said {
				if v := strict.Sentence(s, engine.Place{Phase: engine.Relaxation}); v.Flagged() {
					t.Errorf("said %q, which the strict screen flags (%s)", s, v.Rule)
				}
			}
			if !strings.Contains(logs.String(), "strict thresholds") {
				t.Error("the log does not say the screen judged alone")
			}
		})
	}
}

// A guard wrong one time in five, both ways: a line is said only when the
// guard and the local screen both pass it, and every line both pass is
// said.
func TestGuardWrongOneTimeInFive(t *testing.T) {
	srv := newServer(t)
	var mu sync.Mutex
	passed := map[string]bool{} // what the guard said of each line
	n := 0
	srv.SetText(guardReply)
	srv.SetJudge(func(c openaitest.Call) string {
		lines := judged(c)
		mu.Lock()
		defer mu.Unlock()
		return verdicts(lines, func(_ int, l string) bool {
			n++
			bad := slices.Contains(guardHarmful, l)
			if n%5 == 0 {
				bad = !bad // wrong
			}
			passed[l] = !bad
			return bad
		})
	})
	g := newGuide(t, srv, func(c *Config) { c.Guard = Guard{} }, realScreens)
	screen := safety.Default()
	for range 5 {
		said, _, err := drain(t, g, request(engine.Relaxation))
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		for _, l := range strings.Split(guardReply(openaitest.Call{}), "\n") {
			both := passed[l] && !screen.Sentence(l, engine.Place{Phase: engine.Relaxation}).Flagged()
			if slices.Contains(said, l) != both {
				t.Errorf("%q: said %v, guard passed %v, screen passed %v", l, slices.Contains(said, l), passed[l], both || !passed[l])
			}
		}
		mu.Unlock()
		for _, h := range guardHarmful {
			if slices.Contains(said, h) {
				t.Errorf("said %q", h)
			}
		}
	}
}

// A guard model of its own kind (Llama Guard) gets the lines as a turn to
// judge, no schema, and answers for them together.
func TestNativeGuardModel(t *testing.T) {
	for _, tc := range []struct {
		answer string
		said   int
	}{{"safe", len(guardSafe)}, {"unsafe\nS11", 0}, {"\n\nunsafe", 0}} {
		srv := newServer(t)
		srv.SetText(guardReply)
		var seen []openaitest.Call
		var mu sync.Mutex
		srv.SetText(func(c openaitest.Call) string {
			if c.Model == "llama-guard3" {
				mu.Lock()
				seen = append(seen, c)
				mu.Unlock()
				return tc.answer
			}
			return guardReply(c)
		})
		g := newGuide(t, srv, func(c *Config) { c.Guard = Guard{Model: "llama-guard3"} }, realScreens)
		said, _, err := drain(t, g, request(engine.Relaxation))
		if err != nil {
			t.Fatal(err)
		}
		if len(said) != tc.said {
			t.Errorf("guard answered %q: said %d, want %d", tc.answer, len(said), tc.said)
		}
		if len(seen) != 1 || len(seen[0].Input) != 1 || !strings.Contains(seen[0].Input[0].Text, guardSafe[0]) {
			t.Errorf("the guard model was asked %d times, with %+v", len(seen), seen)
		}
	}
}

func TestReadGuardVerdicts(t *testing.T) {
	ok := `{"verdicts":[{"line":2,"safe":false,"category":"explicit"},{"line":1,"safe":true,"category":"none"}]}`
	got, err := readGuardVerdicts(ok, 2)
	if err != nil || got[0] != "" || got[1] != "guard: explicit" {
		t.Errorf("%q, %v", got, err)
	}
	for _, bad := range []string{``, `[]`, `{"verdicts":[]}`, `{"verdicts":[{"line":1,"safe":true,"category":"none"}]}`,
		`{"verdicts":[{"line":1,"safe":true},{"line":1,"safe":true}]}`, `{"verdicts":[{"line":0,"safe":true},{"line":1,"safe":true}]}`,
		`{"verdicts":[{"line":1,"category":"x"},{"line":2,"safe":true}]}`} {
		if _, err := readGuardVerdicts(bad, 2); err == nil {
			t.Errorf("%q read as an answer", bad)
		}
	}
	for answer, want := range map[string]string{"safe": "", "unsafe": "guard", "unsafe\nS1,S11": "guard: s1,s11", " Unsafe\n": "guard"} {
		if got, err := readNativeGuard(answer); err != nil || got != want {
			t.Errorf("%q: %q, %v", answer, got, err)
		}
	}
	if _, err := readNativeGuard("I think so"); err == nil {
		t.Error("an answer neither safe nor unsafe was read")
	}
}

// newLog is a logger into b, safe from several goroutines.
func newLog(b *strings.Builder) *slog.Logger {
	return slog.New(slog.NewTextHandler(&lockedBuilder{b: b}, nil))
}

// A guard that fails reply after reply is asked no more: the strict
// thresholds stay, and the replies no longer wait on it.
func TestGuardThatKeepsFailingIsAskedNoMore(t *testing.T) {
	srv := newServer(t)
	srv.SetText(guardReply)
	srv.SetJudge(func(openaitest.Call) string { return "I cannot judge these lines." })
	g := newGuide(t, srv, func(c *Config) { c.Guard = Guard{} }, realScreens)
	strict := safety.Default().Strict()
	for range guardPatience + 3 {
		said, _, err := drain(t, g, request(engine.Relaxation))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range said {
			if strict.Sentence(s, engine.Place{Phase: engine.Relaxation}).Flagged() {
				t.Errorf("said %q, which the strict screen flags", s)
			}
		}
	}
	if n := len(guardRequests(srv)); n != guardPatience {
		t.Errorf("the guard was asked %d times, want %d", n, guardPatience)
	}
}
