package audio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/redact"
)

// speech is a voice from an OpenAI-compatible POST {base}/audio/speech.
// OpenAI has announced that its Speech API models shut down on 2027-01-06
// (its own voice moves to the Realtime API); the same adapter serves any
// compatible server — Kokoro-FastAPI, LocalAI, openedai-speech — through
// SpeechConfig.BaseURL, so nothing here depends on OpenAI's models.
type speech struct {
	api     openai.AudioSpeechService
	where   string // the base URL, for messages
	model   string
	voice   string
	format  string        // "wav" or "pcm"
	timeout time.Duration // per attempt
}

// The speech server's model and voice when the config names none.
const (
	DefaultSpeechModel = "gpt-4o-mini-tts"
	DefaultSpeechVoice = "sage"
)

const (
	speechTimeout = 30 * time.Second
	// speechRetries lets openai-go try again after a 429, a 5xx or a
	// dropped connection.
	speechRetries = 2
	// pcmRate is what OpenAI's raw pcm format is: 24 kHz, 16-bit LE, mono.
	pcmRate = 24000
	// openaiBase is openai-go's default, said in messages.
	openaiBase = "https://api.openai.com/v1"
)

// speechInstructions tell a steerable model how each phase sounds.
var speechInstructions = [len(engine.Phases)]string{
	engine.Atmosphere: "Speak softly and warmly, unhurried, like a calm guide welcoming someone. Leave a little space after each phrase.",
	engine.Breathing:  "Speak slowly and evenly, soft and steady, in time with a slow breath: easy on the in-breath, long and gentle on the out-breath.",
	engine.Sensory:    "Speak slowly, softly and warmly, a little hushed and close, lingering on words of touch, sound and warmth.",
	engine.Relaxation: "Speak very slowly, softer and a little lower, almost a murmur, with long, restful pauses between phrases. Deeply calm, never flat.",
	engine.Resolution: "Speak gently brighter and a little quicker, warm and grounding, like a guide helping someone come back to the room, refreshed and awake.",
}

// speechSpeed is the speed asked at a pace of 1, for servers that ignore
// instructions (most local ones honour speed; gpt-4o-mini-tts follows its
// instructions instead). Their voices speak near 150 words a minute at 1.
const speechSpeed = 0.85

// speedOf is a line's speed, to two places; 1 is left unsaid.
func speedOf(l engine.Line) float64 { return math.Round(100*speechSpeed*paceOf(l)) / 100 }

// newSpeech sets up the client. The key is sent only when there is one:
// a local server needs none, and openai-go then sends no Authorization.
// OPENAI_API_KEY is never read here, so a key meant for OpenAI cannot
// reach another server.
func newSpeech(cfg SpeechConfig) *speech {
	s := &speech{model: cfg.Model, voice: cfg.Voice, format: cfg.Format, timeout: speechTimeout}
	if s.model == "" {
		s.model = DefaultSpeechModel
	}
	if s.voice == "" {
		s.voice = DefaultSpeechVoice
	}
	if s.format != "pcm" {
		s.format = "wav"
	}
	opts := []option.RequestOption{option.WithEnvironmentProduction(), option.WithMaxRetries(speechRetries)}
	base := speechBase(cfg)
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
		redact.Key(cfg.APIKey) // whatever a server echoes of it is masked
	}
	s.where = redact.URL(base)
	if base == "" {
		s.where = openaiBase
	}
	s.api = openai.NewAudioSpeechService(opts...)
	return s
}

// speechBase is the configured server, else OPENAI_BASE_URL, else ""
// (openai-go's default). It includes the /v1.
func speechBase(cfg SpeechConfig) string {
	if cfg.BaseURL != "" {
		return cfg.BaseURL
	}
	return os.Getenv("OPENAI_BASE_URL")
}

func (s *speech) Name() string { return "openai" }

// String keeps the key out of anything that prints the voice.
func (s *speech) String() string   { return "openai speech at " + s.where }
func (s *speech) GoString() string { return s.String() }

func (s *speech) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	text := l.Text
	var raw *http.Response // the answer even when it is an error
	res, err := s.api.New(ctx, s.params(l), option.WithRequestTimeout(s.timeout), option.WithResponseInto(&raw))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, s.failure(err, raw)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxClipBytes+1))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, s.fail("timed out: the audio from %s did not finish within %v", s.where, s.timeout)
	case err != nil:
		return nil, s.fail("the audio broke off: %v", err)
	case len(body) > maxClipBytes:
		return nil, s.fail("sent more than %d MiB for one sentence", maxClipBytes>>20)
	}
	return s.decode(body, res.Header.Get("Content-Type"), text, rate)
}

func (s *speech) params(l engine.Line) openai.AudioSpeechNewParams {
	params := openai.AudioSpeechNewParams{
		Input:          l.Text,
		Model:          s.model,
		Voice:          openai.AudioSpeechNewParamsVoiceUnion{OfString: openai.String(s.voice)},
		ResponseFormat: openai.AudioSpeechNewParamsResponseFormat(s.format),
	}
	// tts-1 and tts-1-hd take no instructions.
	if !strings.HasPrefix(s.model, "tts-1") {
		params.Instructions = openai.String(phaseStyle(&speechInstructions, l.Phase))
	}
	if sp := speedOf(l); sp != 1 {
		params.Speed = openai.Float(sp)
	}
	return params
}

// decode reads WAV (OpenAI streams it with 0xFFFFFFFF sizes: decodeWAV
// reads to the end) or raw pcm, whichever came.
func (s *speech) decode(body []byte, contentType, text string, rate beep.SampleRate) ([]float32, error) {
	media, params, _ := mime.ParseMediaType(contentType)
	switch {
	case bytes.HasPrefix(body, []byte("RIFF")):
		mono, from, err := decodeSpeech(s.Name(), body, text)
		if err != nil {
			return nil, err
		}
		return resample(mono, beep.SampleRate(from), rate), nil
	case strings.HasSuffix(media, "json"):
		return nil, s.fail("answered with a message instead of audio: %s", serverMessage(body))
	case s.format == "pcm" || media == "audio/pcm" || media == "audio/x-pcm" || media == "audio/raw":
		from := pcmRate
		if r, err := strconv.Atoi(params["rate"]); err == nil && r >= 4000 {
			from = r
		}
		mono := make([]float32, len(body)/2)
		for i := range mono {
			mono[i] = float32(int16(binary.LittleEndian.Uint16(body[2*i:]))) / 32768
		}
		if len(mono) == 0 && hasWords(text) {
			return nil, s.fail("sent no speech")
		}
		return resample(mono, beep.SampleRate(from), rate), nil
	}
	return nil, s.fail("unreadable audio (%s, %d bytes): neither WAV nor pcm", or(contentType, "no content type"), len(body))
}
