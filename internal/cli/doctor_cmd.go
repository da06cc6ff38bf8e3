package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/redact"
)

func (c *cli) doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the sound card, the voices and the settings lull would use",
		Long: "Report what lull finds on this machine: whether a sound card opens, the voices\n" +
			"installed and which one auto picks, the local voices that would sound better and\n" +
			"how to install them, the soundscapes, the breathing rhythm, the guide and LLM\n" +
			"settings (never a key), and where the files are.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withEnv(func(env *environment) error { return c.doctor(env) })
		},
	}
}

func (c *cli) doctor(env *environment) error {
	cfg := env.app.Config()
	out := c.stdout
	section := func(name string) { fmt.Fprintf(out, "\n%s\n", name) }
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	// Every cell may hold text from the config, the environment or a
	// device's error: each is made printable and redacted.
	row := func(cells ...string) {
		for i, c := range cells {
			cells[i] = human.Line(c)
		}
		fmt.Fprintln(w, "  "+strings.Join(cells, "\t"))
	}

	fmt.Fprintf(out, "lull %s\n", version)

	section("Sound")
	if desc, err := audio.ProbeDevice(func() func() { return redirectStderr(env.logf) }); err != nil {
		row("device", "none — sessions play to a silent output that keeps time")
		row("", deviceTrouble(err))
	} else {
		row("device", "ok: "+desc)
	}
	w.Flush()

	section("Voices (auto picks the one marked *)")
	for _, v := range audio.DescribeVoices(env.app.Voices()) {
		mark, where := " ", v.Where
		if v.Default {
			mark = "*"
		}
		if where == "" {
			where = "—"
		}
		state := "available"
		if !v.Available {
			state = "not available"
		}
		row(mark+" "+v.Name, state, where, v.Note)
	}
	row("  your choice", cfg.Voice)
	espeakVoice := cfg.Espeak.Voice
	if espeakVoice == "" {
		espeakVoice = "auto"
	}
	row("  espeak.voice", espeakVoice)
	w.Flush()

	section("Better local voices")
	if advice := audio.AdviseVoices(env.app.Voices()); len(advice) == 0 {
		row("none", "lull already has the most natural local voice it knows")
	} else {
		for _, a := range advice {
			row(a.Voice, a.Why)
			row("", a.Install)
		}
	}
	w.Flush()

	section("Sound settings")
	var scapes []string
	for _, s := range audio.Soundscapes {
		if s == cfg.Soundscape {
			s += " (yours)"
		}
		scapes = append(scapes, s)
	}
	row("soundscapes", strings.Join(scapes, ", "))
	b := cfg.Breathing
	tone := "on"
	if !b.ToneOn() {
		tone = "off"
	}
	row("breathing", fmt.Sprintf("in %s · hold %s · out %s · rest %s · pacer tone %s",
		secs(b.Inhale), secs(b.Hold), secs(b.Exhale), secs(b.HoldOut), tone))
	row("length", fmt.Sprintf("%d minutes by default", cfg.Length))
	w.Flush()

	section("Guide")
	g := env.app.Guide()
	if g.Guide == engine.GuideBuiltin {
		row("in use", "builtin: lull's own material, composed fresh for each session; nothing leaves this machine")
	} else {
		l := g.LLM
		base := l.BaseURL
		if base == "" {
			base = llm.OpenAIBaseURL
		}
		model := l.Model
		if model == "" {
			model = llm.DefaultModel + " (the default)"
		}
		row("in use", "openai: written fresh by a language model through the Responses API")
		row("endpoint", redact.URL(base))
		row("model", model)
		mode := "chained: responses stored at the provider (store: true), deleted when the session ends"
		switch {
		case l.Private:
			mode = "private: nothing stored at the provider; the history is sent with each call"
		case l.KeepResponses:
			mode = "chained: responses stored at the provider and kept after the session (keep_responses)"
		}
		row("memory", mode)
		row("moderation", map[bool]string{true: "omni-moderation-latest checks every sentence", false: "none (not OpenAI's API)"}[l.Moderate])
		row("guard", guardWords(l.Guard, model))
		row("on failure", map[bool]string{true: "the session is interrupted: r to retry, b for the built-in guide", false: "the built-in guide carries on, and says so"}[g.Interrupt])
		row("API key", setOrNot(l.APIKey != ""))
	}
	row("OPENAI_API_KEY", setOrNot(os.Getenv("OPENAI_API_KEY") != ""))
	if u := os.Getenv("OPENAI_BASE_URL"); u != "" {
		row("OPENAI_BASE_URL", redact.URL(u))
	} else {
		row("OPENAI_BASE_URL", "not set")
	}
	w.Flush()

	section("Files")
	paths := env.paths
	row("config", paths.Config, exists(paths.Config, "not there: the defaults are in use"))
	row("sessions", paths.Data, countSessions(env.app))
	row("log", paths.Log, "")
	w.Flush()
	return nil
}

// guardWords says what judges each reply beside the local screen.
func guardWords(g llm.Guard, model string) string {
	switch {
	case g.Off:
		return "off: the local screen alone (safety.guard)"
	case g.Model != "":
		return g.Model + " judges each reply (safety.guard)"
	}
	return strings.TrimSuffix(model, " (the default)") + " judges each reply, as a second opinion (safety.guard: auto)"
}

func secs(x float64) string { return (time.Duration(x * float64(time.Second))).String() }

func setOrNot(set bool) string {
	if set {
		return "set (never shown)"
	}
	return "not set"
}

func exists(path, otherwise string) string {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return otherwise
	} else if err != nil {
		return err.Error()
	}
	return "found"
}

func countSessions(a *app.App) string {
	list, problems := a.Store().List()
	s := fmt.Sprintf("%d sessions", len(list))
	if len(problems) > 0 {
		s += fmt.Sprintf(", %d unreadable (%s tells which)", len(problems), human.Command("sessions list"))
	}
	return s
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
