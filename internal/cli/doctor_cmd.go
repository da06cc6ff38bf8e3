package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/redact"
)

var doctorHelp = help{
	use:   "doctor",
	short: "Check the sound card, the voices and the settings lull would use",
	long: "Report what lull finds on this machine: whether a sound card opens, the voices\n" +
		"installed and which one auto picks, the local voices that would sound better and\n" +
		"how to install them, the soundscapes, the breathing rhythm, the guide and LLM\n" +
		"settings (never a key), and where the files are.\n\n" +
		"--json prints the same for scripts (format " + doctorFormat + ", in the README).",
	example: "  lull doctor\n  lull doctor --json",
}

func (c *cli) doctorCmd() *cobra.Command {
	var asJSON bool
	cmd := doctorHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		return c.withEnv(func(env *environment) error {
			r := c.examine(env)
			if asJSON {
				return c.printJSON(r)
			}
			c.printDoctor(r)
			return nil
		})
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON, for scripts (never a key)")
	return cmd
}

// doctorFormat names the JSON lull doctor --json prints; a change that
// could break a script reading it gets a new number.
const doctorFormat = "lull.doctor/1"

// doctorReport is what lull doctor finds: printed as text, or as JSON with
// these field names. Every string in it may come from the config, the
// environment or a device's error: each is redacted as it is put in
// (redact.Text), and no key is ever in it, only whether one is set.
type doctorReport struct {
	Format  string       `json:"format"` // doctorFormat
	Version string       `json:"version"`
	Sound   doctorSound  `json:"sound"`
	Voices  doctorVoices `json:"voices"`
	// BetterVoices are the local voices that would sound better, and how
	// to install them; empty when lull has the best it knows.
	BetterVoices []doctorAdvice  `json:"better_voices"`
	Soundscapes  []string        `json:"soundscapes"`
	Soundscape   string          `json:"soundscape"` // the config's
	Breathing    doctorBreathing `json:"breathing"`
	Length       int             `json:"length_minutes"` // the config's default
	Guide        doctorGuide     `json:"guide"`
	Environment  doctorEnv       `json:"environment"`
	Files        doctorFiles     `json:"files"`
}

type (
	doctorSound struct {
		Device  string `json:"device"`            // what opened; "" when none did
		Trouble string `json:"trouble,omitempty"` // why none did
		// Advice is how to get sound when none opened: a sound server, a
		// container's, SSH's way round.
		Advice []string `json:"advice,omitempty"`
	}
	doctorVoices struct {
		Engines     []doctorVoice `json:"engines"`      // best first
		Choice      string        `json:"choice"`       // the config's voice
		EspeakVoice string        `json:"espeak_voice"` // espeak.voice, auto by default
	}
	doctorVoice struct {
		Name      string `json:"name"`
		Available bool   `json:"available"`
		Where     string `json:"where"`      // a path or URL
		AutoPicks bool   `json:"auto_picks"` // what voice: auto speaks with
		Note      string `json:"note"`
	}
	doctorAdvice struct {
		Voice   string `json:"voice"`
		Why     string `json:"why"`
		Install string `json:"install"`
		Config  string `json:"config,omitempty"` // what to add to config.yaml, as YAML
	}
	doctorBreathing struct {
		Inhale float64 `json:"inhale_seconds"`
		Hold   float64 `json:"hold_seconds"`
		Exhale float64 `json:"exhale_seconds"`
		Rest   float64 `json:"rest_seconds"`
		Tone   bool    `json:"tone"`
	}
	doctorGuide struct {
		InUse string `json:"in_use"` // builtin or openai
		// The rest is said of an LLM guide only.
		Endpoint       string `json:"endpoint,omitempty"`
		Model          string `json:"model,omitempty"`
		ModelIsDefault bool   `json:"model_is_default,omitempty"` // no model was named: lull's default
		Memory         string `json:"memory,omitempty"`           // chained, private or kept
		Moderation     *bool  `json:"moderation,omitempty"`       // OpenAI's moderation checks every sentence
		Guard          string `json:"guard,omitempty"`            // auto (the session's model judges each reply), off, or the model that does
		OnFailure      string `json:"on_failure,omitempty"`       // builtin or interrupt
		APIKeySet      *bool  `json:"api_key_set,omitempty"`
	}
	doctorEnv struct {
		OpenAIKeySet  bool   `json:"openai_api_key_set"`
		OpenAIBaseURL string `json:"openai_base_url"` // "" when not set
	}
	doctorFiles struct {
		Config      string `json:"config"`
		ConfigFound bool   `json:"config_found"`
		ConfigError string `json:"config_error,omitempty"` // why it could not be looked at
		Sessions    string `json:"data"`                   // the data folder, which holds the sessions folder
		Count       int    `json:"session_count"`
		Unreadable  int    `json:"unreadable_sessions"`
		Log         string `json:"log"`
	}
)

// examine finds what lull doctor reports.
func (c *cli) examine(env *environment) doctorReport {
	cfg := env.app.Config()
	r := doctorReport{Format: doctorFormat, Version: version, Soundscapes: audio.Soundscapes,
		Soundscape: redact.Text(cfg.Soundscape), Length: cfg.Length}
	if desc, err := audio.ProbeDevice(func() func() { return redirectStderr(env.logf) }); err != nil {
		r.Sound.Trouble = redact.Text(deviceTrouble(err))
		r.Sound.Advice = onThisMachine()
	} else {
		r.Sound.Device = redact.Text(desc)
	}
	for _, v := range audio.DescribeVoices(env.app.Voices()) {
		r.Voices.Engines = append(r.Voices.Engines, doctorVoice{Name: v.Name, Available: v.Available,
			Where: redact.Text(v.Where), AutoPicks: v.Default, Note: redact.Text(v.Note)})
	}
	r.Voices.Choice = redact.Text(cfg.Voice)
	r.Voices.EspeakVoice = redact.Text(cmp.Or(cfg.Espeak.Voice, "auto"))
	r.BetterVoices = []doctorAdvice{}
	for _, a := range audio.AdviseVoices(env.app.Voices()) {
		r.BetterVoices = append(r.BetterVoices, doctorAdvice{Voice: a.Voice, Why: redact.Text(a.Why), Install: redact.Text(a.Install),
			Config: redact.Text(a.Config)})
	}
	b := cfg.Breathing
	r.Breathing = doctorBreathing{Inhale: b.Inhale, Hold: b.Hold, Exhale: b.Exhale, Rest: b.HoldOut, Tone: b.ToneOn()}

	g := env.app.Guide()
	r.Guide.InUse = g.Guide
	if g.Guide != engine.GuideBuiltin {
		l := g.LLM
		r.Guide.Endpoint = redact.URL(cmp.Or(l.BaseURL, llm.OpenAIBaseURL))
		r.Guide.Model = redact.Text(cmp.Or(l.Model, llm.DefaultModel))
		r.Guide.ModelIsDefault = l.Model == ""
		r.Guide.Memory = "chained"
		switch {
		case l.Private:
			r.Guide.Memory = "private"
		case l.KeepResponses:
			r.Guide.Memory = "kept"
		}
		r.Guide.Moderation = &l.Moderate
		switch {
		case l.Guard.Off:
			r.Guide.Guard = "off"
		case l.Guard.Model != "":
			r.Guide.Guard = redact.Text(l.Guard.Model)
		default:
			r.Guide.Guard = "auto"
		}
		r.Guide.OnFailure = map[bool]string{true: "interrupt", false: "builtin"}[g.Interrupt]
		set := l.APIKey != ""
		r.Guide.APIKeySet = &set
	}
	r.Environment.OpenAIKeySet = os.Getenv("OPENAI_API_KEY") != ""
	if u := os.Getenv("OPENAI_BASE_URL"); u != "" {
		r.Environment.OpenAIBaseURL = redact.URL(u)
	}

	paths := env.paths
	r.Files = doctorFiles{Config: redact.Text(paths.Config), Sessions: redact.Text(paths.Data), Log: redact.Text(paths.Log)}
	if _, err := os.Stat(paths.Config); err == nil {
		r.Files.ConfigFound = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		r.Files.ConfigError = redact.Text(err.Error())
	}
	list, problems := env.app.Store().List()
	r.Files.Count, r.Files.Unreadable = len(list), len(problems)
	return r
}

// printDoctor prints the report for a person.
func (c *cli) printDoctor(r doctorReport) {
	out := c.stdout
	width := columns(out)
	section := func(name string) { fmt.Fprintf(out, "\n%s\n", name) }
	// Each section is a table fitted to the terminal: its last column
	// wraps under itself. Every cell may hold text from the config, the
	// environment or a device's error: each is made printable and redacted.
	t := newTable("  ", 0)
	row := func(cells ...string) {
		for i, c := range cells {
			cells[i] = human.Line(c)
		}
		t.add(cells...)
	}
	flush := func() {
		io.WriteString(out, t.render(width))
		t.rows, t.cols = nil, nil
	}

	fmt.Fprintf(out, "lull %s\n", r.Version)

	section("Sound")
	if r.Sound.Device == "" {
		row("device", "none — sessions play to a silent output that keeps time")
		row("", r.Sound.Trouble)
		for _, a := range r.Sound.Advice {
			row("", a)
		}
	} else {
		row("device", "ok: "+r.Sound.Device)
	}
	flush()

	section("Voices (auto picks the one marked *)")
	// Narrow, where each voice is goes first, then whether it is there.
	t.cols = []column{{}, {drop: 2}, {drop: 1}}
	for _, v := range r.Voices.Engines {
		mark := " "
		if v.AutoPicks {
			mark = "*"
		}
		state := "available"
		if !v.Available {
			state = "not available"
		}
		row(mark+" "+v.Name, state, cmp.Or(v.Where, "—"), v.Note)
	}
	row("  your choice", r.Voices.Choice)
	row("  espeak.voice", r.Voices.EspeakVoice)
	flush()

	section("Better local voices")
	if len(r.BetterVoices) == 0 {
		row("none", "lull already has the most natural local voice it knows")
	}
	names := 0 // one width for the names, across the snippets between them
	for _, a := range r.BetterVoices {
		names = max(names, ansi.StringWidth(human.Line(a.Voice)))
	}
	for _, a := range r.BetterVoices {
		t.cols = []column{{min: names}}
		row(a.Voice, a.Why)
		row("", a.Install)
		if a.Config == "" {
			continue
		}
		// YAML to paste: its lines whole and as indented as written,
		// under the advice.
		flush()
		for _, l := range strings.Split(a.Config, "\n") {
			if text := strings.TrimLeft(l, " "); text != "" {
				fprintln(out, "    "+unbroken(l[:len(l)-len(text)]+human.Line(text)))
			}
		}
	}
	flush()

	section("Sound settings")
	var scapes []string
	for _, s := range r.Soundscapes {
		if s == r.Soundscape {
			s += " (yours)"
		}
		scapes = append(scapes, s)
	}
	row("soundscapes", strings.Join(scapes, ", "))
	b := r.Breathing
	row("breathing", fmt.Sprintf("in %s · hold %s · out %s · rest %s · pacer tone %s",
		secs(b.Inhale), secs(b.Hold), secs(b.Exhale), secs(b.Rest), onOff(b.Tone)))
	row("length", fmt.Sprintf("%d minutes by default", r.Length))
	flush()

	section("Guide")
	g := r.Guide
	if g.InUse == engine.GuideBuiltin {
		row("in use", "builtin: lull's own material, composed fresh for each session; nothing leaves this machine")
	} else {
		model := g.Model
		if g.ModelIsDefault {
			model += " (the default)"
		}
		row("in use", "openai: written fresh by a language model through the Responses API")
		row("endpoint", g.Endpoint)
		row("model", model)
		row("memory", map[string]string{
			"chained": "chained: responses stored at the provider (store: true), deleted when the session ends",
			"private": "private: nothing stored at the provider; the history is sent with each call",
			"kept":    "chained: responses stored at the provider and kept after the session (keep_responses)",
		}[g.Memory])
		row("moderation", map[bool]string{true: "omni-moderation-latest checks every sentence", false: "none (not OpenAI's API)"}[*g.Moderation])
		row("guard", guardWords(g.Guard, g.Model))
		row("on failure", map[string]string{"interrupt": "the session is interrupted: r to retry, b for the built-in guide", "builtin": "the built-in guide carries on, and says so"}[g.OnFailure])
		row("API key", setOrNot(*g.APIKeySet))
	}
	row("OPENAI_API_KEY", setOrNot(r.Environment.OpenAIKeySet))
	row("OPENAI_BASE_URL", cmp.Or(r.Environment.OpenAIBaseURL, "not set"))
	flush()

	section("Files")
	f := r.Files
	found := "not there: the defaults are in use"
	switch {
	case f.ConfigFound:
		found = "found"
	case f.ConfigError != "":
		found = f.ConfigError
	}
	// Each path is a whole line's last cell: on a narrow terminal it
	// moves under its name rather than be broken.
	row("config", f.Config)
	row("", found)
	sessionsNote := fmt.Sprintf("%d sessions", f.Count)
	if f.Unreadable > 0 {
		sessionsNote += fmt.Sprintf(", %d unreadable (%s tells which)", f.Unreadable, human.Command("sessions list"))
	}
	row("sessions", f.Sessions)
	row("", sessionsNote)
	row("log", f.Log)
	flush()
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// guardWords says what judges each reply beside the local screen: guard
// is auto (the session's model), off, or the model that judges.
func guardWords(guard, model string) string {
	switch guard {
	case "off":
		return "off: the local screen alone (safety.guard)"
	case "auto":
		return model + " judges each reply, as a second opinion (safety.guard: auto)"
	}
	return guard + " judges each reply (safety.guard)"
}

func secs(x float64) string { return (time.Duration(x * float64(time.Second))).String() }

func setOrNot(set bool) string {
	if set {
		return "set (never shown)"
	}
	return "not set"
}

// deviceTrouble is a device error short enough to read: ALSA lists every
// device it tried; the first says enough.
func deviceTrouble(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if i := strings.Index(s, "snd_pcm_open: "); i >= 0 {
		first, rest, _ := strings.Cut(s[i+len("snd_pcm_open: "):], ", ")
		s = "ALSA could open no device: " + first
		if rest != "" {
			s += " (and the others it tried)"
		}
	}
	return s
}
