package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"lull/engine"
	"lull/human"
)

func (c *cli) sessionsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "sessions",
		Aliases: []string{"s"},
		Short:   "List, show or delete saved sessions",
		Args:    cobra.NoArgs,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List saved sessions, resumable first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.withEnv(c.listSessions)
		},
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show one session: status, phases, progress",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.withEnv(func(env *environment) error { return c.showSession(env, args[0]) })
		},
	}
	var yes bool
	del := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a session and its transcript",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.withEnv(func(env *environment) error { return c.deleteSession(env, args[0], yes) })
		},
	}
	del.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	cmd.AddCommand(list, show, del)
	return cmd
}

func (c *cli) listSessions(env *environment) error {
	list, problems := env.app.Store().List()
	if len(list) == 0 && len(problems) == 0 {
		fmt.Fprintln(c.stdout, "No sessions yet. Begin one with: lull new")
		return nil
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tSTATUS\tPHASE\tPROGRESS\tLENGTH\tLAST ACTIVE\tINTENTION")
	now := time.Now()
	for _, s := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d%%\t%d min\t%s\t%s\n", s.ID, s.Status, s.Phase, int(s.Progress*100),
			int(s.Length.Minutes()), human.Ago(s.LastActive, now), s.Intention)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(c.stderr, "lull: cannot read", p)
	}
	return nil
}

func (c *cli) showSession(env *environment, id string) error {
	st, report, err := env.app.Store().Load(id)
	if err != nil {
		return err
	}
	for _, n := range report.Notes {
		fmt.Fprintln(c.stderr, "lull: note:", n)
	}
	dir, _ := env.app.Store().Dir(id)
	out := c.stdout
	fmt.Fprintf(out, "Session %s\n", st.ID)
	status := string(st.Status)
	if st.Status.Resumable() {
		status += "  (resume with: lull resume " + st.ID + ")"
	}
	row := func(k, v string) { fmt.Fprintf(out, "  %-10s %s\n", k, v) }
	row("status", status)
	if st.Intention != "" {
		row("intention", st.Intention)
	}
	guide := orNone(st.Guide)
	if st.Model != "" {
		guide += " (" + st.Model + ")"
	}
	row("length", fmt.Sprintf("%d min · seed %d · guide %s · voice %s · soundscape %s",
		int(st.Length.Minutes()), st.Seed, guide, orNone(st.Voice), orNone(st.Soundscape)))
	if len(st.Runs) > 1 {
		var runs []string
		for _, r := range st.Runs {
			s := r.Guide
			if r.Model != "" {
				s += " (" + r.Model + ")"
			}
			runs = append(runs, s+" from "+r.StartedAt.Local().Format("15:04"))
		}
		row("runs", strings.Join(runs, ", "))
	}
	if t := st.Tokens(); t != (engine.Tokens{}) {
		row("LLM", human.Tokens(t.In, t.Out, st.Cost))
	}
	if n := len(st.Stored); n > 0 {
		row("stored", fmt.Sprintf("%d responses kept at the provider (deleted when the session ends, unless kept)", n))
	}
	row("created", st.CreatedAt.Local().Format("2006-01-02 15:04")+" · last active "+human.Ago(st.UpdatedAt, time.Now()))
	row("progress", fmt.Sprintf("%s of %s (%d%%) · %s, sentence %d", human.Clock(st.Elapsed), human.Clock(st.Length),
		int(st.Progress()*100), st.Phase, st.Position.Sentence+1))
	fmt.Fprintln(out, "  phases")
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, r := range st.Phases {
		line := fmt.Sprintf("    %s\t%s", r.Phase, r.Status)
		if r.Status != engine.PhasePending {
			line += fmt.Sprintf("\t%d of %d sentences\t%s", r.Spoken, r.Budget.Sentences, human.Clock(r.Elapsed))
		}
		fmt.Fprintln(w, line)
	}
	w.Flush()
	if n := st.Dropped(); n > 0 {
		row("withheld", fmt.Sprintf("%d sentences dropped by the safety check", n))
	}
	if s := st.Summary; s != nil {
		row("summary", fmt.Sprintf("%s · %d sentences", human.Clock(s.Duration), s.Sentences))
	}
	for _, h := range st.History {
		if h.Role == engine.RoleSystem {
			row("note", h.At.Local().Format("15:04")+" "+h.Text)
		}
	}
	row("folder", dir)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (c *cli) deleteSession(env *environment, id string, yes bool) error {
	st, _, err := env.app.Store().Load(id)
	if err != nil {
		return err
	}
	if !yes {
		if !isTerminal(os.Stdin) {
			return errors.New("refusing to delete without confirmation: add --yes")
		}
		fmt.Fprintf(c.stdout, "Delete session %s (%s, %s)? [y/N] ", id, st.Status, orNone(st.Intention))
		answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(c.stdout, "Kept.")
			return nil
		}
	}
	notes, err := env.app.Delete(id)
	for _, n := range notes {
		fmt.Fprintln(c.stderr, "lull: note:", n)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "Deleted", id)
	return nil
}

func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }
