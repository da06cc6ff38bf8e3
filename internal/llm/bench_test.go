package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// Time to the first spoken sentence against a server with a fixed time
// to first token (200 ms) and a steady 5 ms per token. The baseline is a
// bare openai-go stream of the same request, stopped the moment its text
// holds a whole sentence; lull's overhead is the difference. Run with
// `make bench`.
const (
	benchTTFT     = 200 * time.Millisecond
	benchPerToken = 5 * time.Millisecond
)

func benchServer(b *testing.B) *openaitest.Server {
	srv := openaitest.New()
	b.Cleanup(srv.Close)
	srv.SetLatency(benchTTFT, benchPerToken)
	// Guidance as a model writes it: the server's default text names its
	// phase ("the atmosphere phase, moment 3"), which lull rightly keeps
	// from the listener, and a bench of nothing said times nothing.
	srv.SetText(func(openaitest.Call) string { return benchReply })
	return srv
}

const benchReply = "Let your shoulders soften as you settle where you are. " +
	"There is nothing you need to do for a while. " +
	"Feel the weight of your hands resting where they are. " +
	"Each breath can come and go in its own time. " +
	"The room around you can stay just as it is. " +
	"Rest here a little longer, with nowhere else to be. "

// BenchmarkFirstSentence/baseline: openai-go alone.
// BenchmarkFirstSentence/guide: lull's guide, Stream to the first Next.
// BenchmarkFirstSentence/guide-moderated: the same, each sentence moderated.
// BenchmarkFirstSentence/engine: a whole engine, Run to the first Play.
func BenchmarkFirstSentence(b *testing.B) {
	b.Run("baseline", func(b *testing.B) {
		srv := benchServer(b)
		client := openai.NewClient(option.WithBaseURL(srv.URL+"/"), option.WithAPIKey("k"), option.WithMaxRetries(0))
		g, err := New(Config{APIKey: "k", BaseURL: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		req := request(engine.Atmosphere)
		for b.Loop() {
			ctx, cancel := context.WithCancel(context.Background())
			st := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{
				Model:        DefaultModel,
				Instructions: openai.String(g.instructions(req)),
				Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String("Begin the session.")},
				Store:        openai.Bool(true),
			})
			var text strings.Builder
			for st.Next() {
				ev := st.Current()
				if ev.Type == "response.output_text.delta" {
					text.WriteString(ev.Delta)
					if strings.Contains(text.String(), ". ") {
						break
					}
				}
			}
			cancel()
			st.Close()
		}
		report(b)
	})
	b.Run("guide", func(b *testing.B) { benchGuide(b, false) })
	// The moderation request before the first sentence: against this
	// server only its local cost shows; OpenAI adds a round trip.
	b.Run("guide-moderated", func(b *testing.B) { benchGuide(b, true) })
	b.Run("engine", func(b *testing.B) {
		srv := benchServer(b)
		g, err := New(Config{APIKey: "k", BaseURL: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			st, err := engine.NewState("bench", engine.Options{Length: 10 * time.Minute}, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Speaker: &firstPlay{cancel: cancel}})
			if err != nil {
				b.Fatal(err)
			}
			if err := e.Run(ctx); !errors.Is(err, context.Canceled) {
				b.Fatalf("Run: %v", err)
			}
		}
		report(b)
	})
}

// benchGuide times the guide alone, from Stream to its first sentence.
func benchGuide(b *testing.B, moderate bool) {
	srv := benchServer(b)
	g, err := New(Config{APIKey: "k", BaseURL: srv.URL, Moderate: moderate})
	if err != nil {
		b.Fatal(err)
	}
	req := request(engine.Atmosphere)
	for b.Loop() {
		st, err := g.Stream(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Next(context.Background()); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
	report(b)
}

func report(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/first-sentence")
}

// firstPlay is a speaker that stops the run as the first line starts.
type firstPlay struct{ cancel context.CancelFunc }

type instant struct{}

func (instant) Duration() time.Duration { return time.Second }

func (f *firstPlay) Prepare(context.Context, engine.Line) (engine.Utterance, error) {
	return instant{}, nil
}
func (f *firstPlay) Play(ctx context.Context, _ engine.Utterance) error {
	f.cancel()
	return ctx.Err()
}
func (f *firstPlay) Rest(ctx context.Context, _ time.Duration) error { return ctx.Err() }
func (f *firstPlay) Chime()                                          {}
func (f *firstPlay) Pause()                                          {}
func (f *firstPlay) Resume()                                         {}
func (f *firstPlay) Position() time.Duration                         { return 0 }
