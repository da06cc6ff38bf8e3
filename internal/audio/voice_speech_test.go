package audio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// speechRequest is what a client sent to /v1/audio/speech.
type speechRequest struct {
	Method, Path, Auth string
	Body               map[string]any
}

// speechServer is a local stand-in for an OpenAI-compatible speech server:
// it records each request and answers with reply.
func speechServer(t *testing.T, reply http.HandlerFunc) (*httptest.Server, <-chan speechRequest) {
	t.Helper()
	got := make(chan speechRequest, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := speechRequest{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &req.Body); err != nil {
			t.Errorf("the body is not JSON: %q", b)
		}
		select {
		case got <- req:
		default:
		}
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// streamedWAV answers like OpenAI streaming wav: 24 kHz, sizes 0xFFFFFFFF,
// sent in pieces.
func streamedWAV(d time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		b := toneWAV(pcmRate, d, true)
		for len(b) > 0 {
			n := min(len(b), 8192)
			w.Write(b[:n])
			w.(http.Flusher).Flush()
			b = b[n:]
		}
	}
}

// openAIError answers with OpenAI's error shape.
func openAIError(status int, message, typ, code string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": message, "type": typ, "param": nil, "code": code}})
	}
}

func speechFor(srv *httptest.Server, key string) *speech {
	return newSpeech(SpeechConfig{BaseURL: srv.URL + "/v1", APIKey: key})
}

func TestSpeechSendsThePhaseAndDecodesStreamedWAV(t *testing.T) {
	srv, got := speechServer(t, streamedWAV(1500*time.Millisecond))
	s := speechFor(srv, "sk-test-key-123")
	clip, err := s.Speak(context.Background(), engine.Line{Text: "Let your shoulders soften.", Phase: engine.Relaxation}, Rate)
	if err != nil {
		t.Fatal(err)
	}
	if d := Rate.D(len(clip)); !near(d, 1500*time.Millisecond, 5*time.Millisecond) {
		t.Errorf("1.5 s at 24 kHz became %v at the output rate", d)
	}
	if r := clipRMS(clip); r < 0.1 {
		t.Errorf("nearly silent: rms %.3f", r)
	}
	req := <-got
	if req.Method != http.MethodPost || req.Path != "/v1/audio/speech" {
		t.Errorf("%s %s, want POST /v1/audio/speech", req.Method, req.Path)
	}
	if req.Auth != "Bearer sk-test-key-123" {
		t.Errorf("Authorization %q", req.Auth)
	}
	want := map[string]any{"model": "gpt-4o-mini-tts", "input": "Let your shoulders soften.", "voice": "sage",
		"response_format": "wav", "speed": 0.72} // 0.85 at a pace of 1, times relaxation's 0.85
	for k, v := range want {
		if req.Body[k] != v {
			t.Errorf("%s = %v, want %v", k, req.Body[k], v)
		}
	}
	if in, _ := req.Body["instructions"].(string); !strings.Contains(in, "slowly") || !strings.Contains(in, "lower") {
		t.Errorf("relaxation's instructions %q do not ask for slow and low", in)
	}
}

func TestSpeechInstructionsFollowThePhase(t *testing.T) {
	srv, got := speechServer(t, streamedWAV(100*time.Millisecond))
	s := newSpeech(SpeechConfig{BaseURL: srv.URL + "/v1", Model: "my-tts", Voice: "calm"})
	for p, words := range map[engine.Phase][]string{
		engine.Atmosphere: {"softly", "warmly", "unhurried"},
		engine.Resolution: {"brighter", "quicker", "grounding"},
	} {
		if _, err := s.Speak(context.Background(), engine.Line{Text: "Hello.", Phase: p}, Rate); err != nil {
			t.Fatal(err)
		}
		req := <-got
		if req.Body["model"] != "my-tts" || req.Body["voice"] != "calm" {
			t.Errorf("model %v, voice %v: the configured ones were not sent", req.Body["model"], req.Body["voice"])
		}
		if want := speechSpeed * p.Rate(); req.Body["speed"] != want {
			t.Errorf("%v: speed %v, want %v", p, req.Body["speed"], want)
		}
		in, _ := req.Body["instructions"].(string)
		for _, w := range words {
			if !strings.Contains(in, w) {
				t.Errorf("%v: instructions %q lack %q", p, in, w)
			}
		}
	}
}

func TestSpeechWithoutAKeySendsNone(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment") // meant for OpenAI, not this server
	srv, got := speechServer(t, streamedWAV(100*time.Millisecond))
	if _, err := speechFor(srv, "").Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.Auth != "" {
		t.Errorf("Authorization %q sent to a server with no key configured", req.Auth)
	}
}

func TestSpeechTakesOpenAIsBaseURLFromTheEnvironment(t *testing.T) {
	srv, got := speechServer(t, streamedWAV(100*time.Millisecond))
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	s := newSpeech(SpeechConfig{APIKey: "sk-x"})
	if _, err := s.Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.Path != "/v1/audio/speech" {
		t.Errorf("path %q", req.Path)
	}
}

func TestSpeechReadsRawPCM(t *testing.T) {
	pcm := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/pcm")
		w.Write(tonePCM(pcmRate, pcmRate)) // one second
	}
	srv, got := speechServer(t, pcm)
	// Asked for, and also when only the content type says so.
	for _, format := range []string{"pcm", ""} {
		s := newSpeech(SpeechConfig{BaseURL: srv.URL + "/v1", Format: format})
		clip, err := s.Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Breathing}, Rate)
		if err != nil {
			t.Fatalf("format %q: %v", format, err)
		}
		if d := Rate.D(len(clip)); !near(d, time.Second, 5*time.Millisecond) {
			t.Errorf("format %q: one second of pcm became %v", format, d)
		}
		if want := map[string]string{"pcm": "pcm", "": "wav"}[format]; (<-got).Body["response_format"] != want {
			t.Errorf("format %q: response_format is not %s", format, want)
		}
	}
}

func TestSpeechSaysWhyAWrongKeyFailsWithoutTheKey(t *testing.T) {
	const key = "sk-proj-secret-do-not-print"
	var calls atomic.Int32
	srv, _ := speechServer(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		openAIError(http.StatusUnauthorized, "Incorrect API key provided: "+key+". You can find your API key at https://platform.openai.com/account/api-keys.",
			"invalid_request_error", "invalid_api_key")(w, r)
	})
	_, err := speechFor(srv, key).Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, w := range []string{"openai: ", "401", "Incorrect API key provided"} {
		if !strings.Contains(msg, w) {
			t.Errorf("%q does not say %q", msg, w)
		}
	}
	if strings.Contains(msg, key) {
		t.Errorf("the key is in the error: %q", msg)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("a 401 was tried %d times", n)
	}
}

func TestSpeechSaysAnotherServersError(t *testing.T) {
	srv, _ := speechServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"detail":"Voice 'sage' not found"}`)
	})
	_, err := speechFor(srv, "").Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request: Voice 'sage' not found") {
		t.Errorf("got %v", err)
	}
}

func TestSpeechRetriesAServerError(t *testing.T) {
	var calls atomic.Int32
	srv, _ := speechServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			openAIError(http.StatusInternalServerError, "The server had an error while processing your request.", "server_error", "")(w, r)
			return
		}
		streamedWAV(200*time.Millisecond)(w, r)
	})
	clip, err := speechFor(srv, "sk-x").Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 || len(clip) == 0 {
		t.Errorf("%d calls, %d samples: want a retry that succeeds", calls.Load(), len(clip))
	}
}

func TestSpeechGivesUpOnAServerThatNeverAnswers(t *testing.T) {
	srv, _ := speechServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	s := speechFor(srv, "sk-x")
	s.timeout = 200 * time.Millisecond
	start := time.Now()
	_, err := s.Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "openai: timed out: no answer from "+srv.URL) {
		t.Errorf("got %v", err)
	}
	if took := time.Since(start); took > 30*time.Second { // the server never answers
		t.Errorf("took %v", took)
	}

	// The session's own cancellation is the context's error, as it is.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s.timeout = time.Minute
	if _, err := s.Speak(ctx, engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's error", err)
	}
}

func TestSpeechRefusesAHugeAnswer(t *testing.T) {
	srv, _ := speechServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(toneWAV(pcmRate, 0, true))
		chunk := make([]byte, 1<<20)
		for range 40 {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
	})
	_, err := speechFor(srv, "").Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "more than 32 MiB") {
		t.Errorf("got %v", err)
	}
}

func TestSpeechRefusesWhatIsNotAudio(t *testing.T) {
	for name, reply := range map[string]http.HandlerFunc{
		"html": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>proxy login</html>")
		},
		"json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"error":"model is loading"}`)
		},
	} {
		srv, _ := speechServer(t, reply)
		_, err := speechFor(srv, "").Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
		if err == nil {
			t.Errorf("%s: decoded", name)
		} else if !strings.HasPrefix(err.Error(), "openai: ") {
			t.Errorf("%s: %q does not name the voice", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

func TestSpeechSaysWhenTheServerIsNotThere(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	s := newSpeech(SpeechConfig{BaseURL: url + "/v1", APIKey: "sk-secret"})
	_, err := s.Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "openai: could not reach "+url) || strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("got %v", err)
	}
}

func TestSpeechNeverPrintsItsKey(t *testing.T) {
	s := newSpeech(SpeechConfig{BaseURL: "http://127.0.0.1:1/v1", APIKey: "sk-printed"})
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%+v", s), fmt.Sprintf("%#v", s)} {
		if strings.Contains(out, "sk-printed") {
			t.Errorf("printed %q", out)
		}
	}
}
