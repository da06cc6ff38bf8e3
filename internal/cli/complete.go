package cli

import (
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// Shell completion. lull completion bash|zsh|fish prints cobra's script,
// which asks lull itself what may come next (the hidden lull __complete
// …): the commands, the sessions an ID may name, and the values each flag
// takes. Every list here is asked of its one source, never copied.

// flagValues complete the flags that take a value, by flag name: the same
// name takes the same values on every command.
var flagValues = map[string]cobra.CompletionFunc{
	"voice":       words(audio.Voices),
	"soundscape":  words(audio.Soundscapes),
	"guide":       words(app.Guides),
	"format":      words(exportFormats),
	"length":      lengths,
	"mood-before": moods,
	"mood-after":  moods,
}

// freeFlags take a value lull cannot list (a number, a name, some text):
// nothing is offered, not even files.
var freeFlags = []string{"intention", "seed", "model", "note", "minutes", "sleep-after", "older-than", "bell"}

// fileFlags take a file: the shell offers files.
var fileFlags = []string{"out", "captions"}

// sessionArgs say which sessions each command's ID may name, by command
// path.
var sessionArgs = map[string]func(sessions.Info) bool{
	"lull resume":             resumable,
	"lull replay":             replayable,
	"lull sessions show":      anySession,
	"lull sessions delete":    anySession,
	"lull sessions export":    anySession,
	"lull sessions note":      anySession,
	"lull sessions summarize": unfinished,
	"lull sessions discard":   unfinished,
}

func anySession(sessions.Info) bool { return true }

func resumable(s sessions.Info) bool { return s.Status.Resumable() && s.Newer == 0 }

func replayable(s sessions.Info) bool {
	return s.Status == engine.Completed && s.Practice == "" && s.Newer == 0
}

func unfinished(s sessions.Info) bool { return !s.Status.Finished() && s.Newer == 0 }

// addCompletions gives every command of root what completes its
// arguments and its flags' values.
func addCompletions(root *cobra.Command) {
	walk(root, func(cmd *cobra.Command) {
		if keep, ok := sessionArgs[cmd.CommandPath()]; ok {
			cmd.ValidArgsFunction = sessionIDs(keep)
		}
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if fn, ok := flagValues[f.Name]; ok {
				_ = cmd.RegisterFlagCompletionFunc(f.Name, fn)
			} else if slices.Contains(freeFlags, f.Name) {
				_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.NoFileCompletions)
			}
		})
	})
	breathe, _, _ := root.Find([]string{"breathe"})
	breathe.ValidArgsFunction = breathPatterns
}

// walk calls f on cmd and every command under it.
func walk(cmd *cobra.Command, f func(*cobra.Command)) {
	f(cmd)
	for _, sub := range cmd.Commands() {
		walk(sub, f)
	}
}

// words completes one of names.
func words(names []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// lengths are the lengths the new-session form offers, in minutes.
func lengths(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, n := range app.Lengths {
		if s := strconv.Itoa(n); strings.HasPrefix(s, toComplete) {
			out = append(out, cobra.CompletionWithDesc(s, s+" minutes"))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// moods are 1 to 5, each with its word.
func moods(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for m := engine.MinMood; m <= engine.MaxMood; m++ {
		if s := strconv.Itoa(m); strings.HasPrefix(s, toComplete) {
			out = append(out, cobra.CompletionWithDesc(s, engine.MoodWord(m)))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// breathPatterns are lull breathe's named patterns, each with its rhythm.
func breathPatterns(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, n := range engine.NamedBreaths {
		if strings.HasPrefix(n.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(n.Name, n.About))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// completionDescription is the most a session's description takes.
const completionDescription = 60

// sessionIDs completes the first argument with the saved sessions keep
// accepts, most relevant first (resumable, then the latest), each
// described by its intention. The sessions are read as lull sessions list
// reads them, but with the store opened only to read
// (sessions.OpenToRead): nothing is created, written or locked, so a
// playing lull is never waited for or disturbed. Any error means no
// completions, silently: a shell's completion has nowhere to say it.
func sessionIDs(keep func(sessions.Info) bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, s := range savedSessions() {
			if keep(s) && strings.HasPrefix(s.ID, toComplete) {
				out = append(out, cobra.CompletionWithDesc(s.ID, sessionDescription(s)))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// savedSessions lists the sessions without changing anything; nil when
// they cannot be read.
func savedSessions() []sessions.Info {
	home, err := sessions.Home()
	if err != nil {
		return nil
	}
	store, err := sessions.OpenToRead(home)
	if err != nil {
		return nil
	}
	defer store.Close()
	list, _ := store.List()
	return list
}

// sessionDescription is a session in a few words, one line: its
// intention (or what it was) and its status.
func sessionDescription(s sessions.Info) string {
	what := listIntention(s.Intention, s.ReplayOf)
	switch {
	case what != "":
	case s.Practice == engine.PracticeBreathe:
		what = "breathe " + s.Pattern
	case s.Practice == engine.PracticeSit:
		what = "sit"
	default:
		what = "no intention, " + s.Created.Local().Format("2 Jan 15:04")
	}
	d := human.Line(what + " · " + string(s.Status))
	if r := []rune(d); len(r) > completionDescription {
		d = string(r[:completionDescription-1]) + "…"
	}
	return d
}
