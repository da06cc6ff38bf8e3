package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

var sessionsHelp = help{
	use:     "sessions",
	aliases: []string{"s"},
	short:   "List, show, export, note, summarize, discard, delete or prune saved sessions",
}

var listHelp = help{
	use:     "list",
	short:   "List saved sessions, resumable first",
	long:    "List saved sessions, resumable first, then the latest active.\n\n--json prints them for scripts (format " + sessionsFormat + ", in the README).",
	example: "  lull sessions list\n  lull sessions list --json",
}

var showHelp = help{
	use:   "show ID",
	short: "Show one session: status, phases, progress",
	long: "Show one session: its status, intention, length, guide, voice, phases and\n" +
		"progress, mood and note, and where its files are.\n\n" +
		"--json prints it for scripts (format " + sessionShowFormat + ": the session as\n" +
		"lull sessions export --format json writes it, and whether a lull has it open).",
	example: "  lull sessions show 20261123-120000-k3f9\n  lull sessions show 20261123-120000-k3f9 --json",
}

var deleteHelp = help{
	use:   "delete ID",
	short: "Delete a session and its transcript",
}

func (c *cli) sessionsCmd() *cobra.Command {
	var listJSON, showJSON bool
	list := listHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		if listJSON {
			return c.withEnv(c.listSessionsJSON)
		}
		return c.withEnv(c.listSessions)
	})
	list.Flags().BoolVar(&listJSON, "json", false, "print the sessions as JSON, for scripts")
	show := showHelp.command(cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		if showJSON {
			return c.withEnv(func(env *environment) error { return c.showSessionJSON(env, args[0]) })
		}
		return c.withEnv(func(env *environment) error { return c.showSession(env, args[0]) })
	})
	show.Flags().BoolVar(&showJSON, "json", false, "print the session as JSON, for scripts")
	del := c.askingCmd(deleteHelp, c.deleteSession)
	cmd := sessionsHelp.group(list, show, del, c.noteCmd(), c.pruneCmd(), c.exportCmd())
	cmd.AddCommand(c.endSessionCmds()...)
	return cmd
}

func (c *cli) listSessions(env *environment) error {
	list, problems := env.app.List()
	if len(list) == 0 && len(problems) == 0 {
		fprintln(c.stdout, "No sessions yet. Begin one with: "+human.Command("new"))
		return nil
	}
	// On a narrow terminal the intention wraps, and the length, the
	// progress, the phase and the last activity are left out in turn:
	// sessions show has them all.
	t := newTable("", 7)
	t.cols[2].drop, t.cols[3].drop, t.cols[4].drop, t.cols[5].drop = 3, 2, 1, 4
	t.lastMin = 16
	t.add("ID", "STATUS", "PHASE", "PROGRESS", "LENGTH", "LAST ACTIVE", "INTENTION")
	now := time.Now()
	for _, s := range list {
		t.add(human.Line(s.ID), listStatus(s, now), s.Stage(), fmt.Sprintf("%d%%", int(s.Progress*100)),
			listLength(s.Length), human.Ago(s.LastActive, now), human.Line(listIntention(s.Intention, s.ReplayOf)))
	}
	if _, err := io.WriteString(c.stdout, t.render(columns(c.stdout))); err != nil {
		return err
	}
	for _, s := range list {
		switch {
		case s.Report.Rebuilt:
			c.note(fmt.Sprintf("session %s was rebuilt from its transcript; see: %s", s.ID, human.Command("sessions show "+s.ID)))
		case s.Report.FromBackup:
			c.note(fmt.Sprintf("session %s was read from its backup; see: %s", s.ID, human.Command("sessions show "+s.ID)))
		}
	}
	for _, p := range problems {
		fprintln(c.stderr, "lull:", human.Line(p.Error()))
	}
	return nil
}

// note tells the user something on stderr, printable and redacted: notes
// quote ids, file names and errors.
func (c *cli) note(n string) {
	fprint(c.stderr, "lull: note: "+human.Line(n)+"\n")
}

func (c *cli) showSession(env *environment, id string) error {
	st, report, err := env.app.Store().Load(id)
	var unreadable *sessions.UnreadableError
	if errors.As(err, &unreadable) {
		// What is there and what can be done, rather than one long line.
		fprint(c.stdout, human.Lines(unreadable.Explain()))
		return &exitError{code: 1}
	}
	if _, ok := errors.AsType[*sessions.NewerError](err); ok {
		return c.showNewer(env, id, err)
	}
	if err != nil {
		return err
	}
	for _, n := range report.Notes {
		c.note(n)
	}
	dir, _ := env.app.Store().Dir(id)
	out := c.stdout
	fmt.Fprintf(out, "Session %s\n", human.Line(st.ID))
	// Every value may come from the file: each is made printable. A long
	// value wraps under itself.
	width := columns(out)
	kv := pageTable()
	row := func(k, v string) { kv.add(k, human.Line(v)) }
	pid, held, heldErr := env.app.Held(id)
	row("status", showStatus(st, pid, held || heldErr != nil, time.Now()))
	if st.Intention != "" {
		row("intention", st.Intention)
	}
	if st.ReplayOf != "" {
		row("replay of", st.ReplayOf+" (its words, paced afresh)")
	}
	guide := orNone(st.Guide)
	if st.Model != "" {
		guide += " (" + st.Model + ")"
	}
	row("length", fmt.Sprintf("%s · seed %d · guide %s · voice %s · soundscape %s",
		sitLength(st), st.Seed, guide, orNone(st.Voice), orNone(st.Soundscape)))
	if st.Sleep {
		row("sleep", sleepWords(st.SleepTail))
	}
	if st.Practice == engine.PracticeBreathe {
		row("practice", "paced breathing, "+st.Pattern)
	}
	if st.Practice == engine.PracticeSit {
		row("practice", "a silent sit, "+sitLength(st)+", "+sitBells(st.Pattern))
	}
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
		row("LLM", human.TokensCached(t.In, t.Cached, t.Out, st.Cost))
	}
	if n := len(st.Stored); n > 0 {
		row("stored", fmt.Sprintf("%d responses kept at the provider (deleted when the session ends, unless kept)", n))
	}
	row("created", createdLine(st.CreatedAt, st.UpdatedAt))
	if st.Length == 0 {
		row("progress", human.Clock(st.Elapsed)+" sat, with no set end")
	} else {
		row("progress", fmt.Sprintf("%s of %s (%d%%) · %s, sentence %d", human.Clock(st.Elapsed), human.Clock(st.Length),
			int(st.Progress()*100), st.Phase, st.Position.Sentence+1))
	}
	if st.Rendered > 0 {
		rendered := fmt.Sprintf("%s written to a file by lull render, heard by no one: not counted as practice", human.Clock(st.Rendered))
		if heard := st.Heard(); heard > 0 {
			rendered += fmt.Sprintf(" (%s played)", human.Clock(heard))
		}
		row("rendered", rendered)
	}
	io.WriteString(out, kv.render(width))
	kv.rows = nil
	fmt.Fprintln(out, "  phases")
	phases := newTable("    ", 5)
	for _, r := range st.Phases {
		cells := []string{r.Phase.String(), string(r.Status)}
		if r.Status != engine.PhasePending {
			cells = append(cells, fmt.Sprintf("%d of %d sentences", r.Spoken, r.Budget.Sentences), human.Clock(r.Elapsed))
		}
		if r.Tokens != (engine.Tokens{}) {
			cells = append(cells, human.TokensCached(r.Tokens.In, r.Tokens.Cached, r.Tokens.Out, r.Cost))
		}
		phases.add(cells...)
	}
	io.WriteString(out, phases.render(width))
	if n := st.Dropped(); n > 0 {
		row("withheld", fmt.Sprintf("%d sentences dropped by the safety check", n))
	}
	showRemarks(row, st)
	if s := st.Summary; s != nil {
		sum := fmt.Sprintf("%s · %d sentences", human.Clock(s.Duration), s.Sentences)
		if s.Partial {
			sum += " · partial (summarized before its end)"
		}
		row("summary", sum)
	}
	for _, h := range st.History {
		if h.Role == engine.RoleSystem {
			row("note", h.At.Local().Format("15:04")+" "+h.Text)
		}
	}
	row("folder", dir)
	io.WriteString(out, kv.render(width))
	if heldErr != nil {
		c.note(heldErr.Error())
	} else if !held {
		c.offerEnding(st, time.Now())
	}
	return nil
}

// sleepWords says what a sleep session does at its end.
func sleepWords(tail time.Duration) string {
	if tail <= 0 {
		return "a sleep session: nothing wakes you; the sound stops with the words"
	}
	return fmt.Sprintf("a sleep session: nothing wakes you; the sound plays on %d min after the words", int(tail.Minutes()))
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// deleteQuestion asks before a delete, naming the session by its status
// and its intention: "(completed, no intention)", not "(completed, —)".
func deleteQuestion(id string, st engine.State) string {
	intention := human.Line(st.Intention)
	if intention == "" {
		intention = "no intention"
	}
	return fmt.Sprintf("Delete session %s (%s, %s)?", id, st.Status, intention)
}

func (c *cli) deleteSession(env *environment, id string, yes bool) error {
	st, _, err := env.app.Store().Load(id)
	var unreadable *sessions.UnreadableError
	if errors.As(err, &unreadable) {
		return c.deleteUnreadable(env, id, yes)
	}
	if err != nil {
		return err
	}
	if ok, err := c.confirm(yes, "delete", deleteQuestion(id, st), "Kept."); !ok {
		return err
	}
	notes, err := env.app.Delete(id)
	for _, n := range notes {
		c.note(n)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "Deleted", human.Line(id))
	return nil
}

// deleteUnreadable deletes a session that cannot be read: there is no
// state to say what it stored at a provider, so only its folder goes.
func (c *cli) deleteUnreadable(env *environment, id string, yes bool) error {
	if ok, err := c.confirm(yes, "delete", fmt.Sprintf("Session %s cannot be read. Delete it with its transcript?", id), "Kept."); !ok {
		return err
	}
	if err := env.app.Store().Delete(id); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "Deleted", human.Line(id))
	return nil
}

func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }

// confirm asks question on the terminal unless yes was given. It reports
// whether to go on; without a terminal to ask on, it refuses with an error,
// and on any answer but yes it says kept and does not go on.
func (c *cli) confirm(yes bool, verb, question, kept string) (bool, error) {
	if yes {
		return true, nil
	}
	if !isTerminal(os.Stdin) {
		return false, fmt.Errorf("refusing to %s without confirmation: add --yes", verb)
	}
	fmt.Fprint(c.stdout, fitText(human.Lines(question)+" [y/N]", columns(c.stdout))+" ")
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		fmt.Fprintln(c.stdout, kept)
		return false, nil
	}
	return true, nil
}

// showNewer shows what this lull can read of a session a newer lull
// made, which it never writes: the list's header, and where its words are.
func (c *cli) showNewer(env *environment, id string, newer error) error {
	in, err := env.app.Store().Describe(id)
	if err != nil {
		return err
	}
	out := c.stdout
	fmt.Fprintf(out, "Session %s\n", human.Line(in.ID))
	kv := pageTable()
	row := func(k, v string) { kv.add(k, human.Line(v)) }
	row("status", fmt.Sprintf("made by a newer lull (schema version %d): shown as far as this lull can read it", in.Newer))
	if in.Intention != "" {
		row("intention", in.Intention)
	}
	if in.Length > 0 {
		row("progress", fmt.Sprintf("%s of %s (%d%%) · %s", human.Clock(in.Elapsed), human.Clock(in.Length), int(in.Progress*100), in.Phase))
	}
	if !in.Created.IsZero() {
		row("created", createdLine(in.Created, in.LastActive))
	}
	if dir, err := env.app.Store().Dir(id); err == nil {
		row("folder", dir+" (its words are in the transcript there)")
	}
	io.WriteString(out, kv.render(columns(out)))
	c.note(newer.Error())
	return nil
}

// pageTable is the table of a session's page, a name and its value a
// row: the names at least ten wide, one space after them.
func pageTable() *table {
	kv := newTable("  ", 2)
	kv.gap, kv.cols[0].min = 1, 10
	return kv
}

// createdLine is when a session began and was last active, as its page
// says it.
func createdLine(created, active time.Time) string {
	return created.Local().Format("2006-01-02 15:04") + " · last active " + human.Ago(active, time.Now())
}

// listStatus is a session's status as lull sessions list shows it: a
// session left running by a lull that stopped, one running in another
// lull, and how long an unfinished one has waited.
func listStatus(s app.Listed, now time.Time) string {
	switch {
	case s.Newer > 0:
		return "made by a newer lull" // listed, never written: update lull to open it
	case s.LeftRunning():
		return "left running"
	case s.Open && s.Holder > 0:
		return fmt.Sprintf("running (pid %d)", s.Holder)
	case s.Open:
		return "running"
	}
	if idle := s.Idle(now); idle != engine.NotIdle {
		return fmt.Sprintf("%s (%s)", s.Status, idle)
	}
	if s.Partial {
		return "partial" // completed before its end: its phase and progress say where
	}
	return string(s.Status)
}

// showStatus is the status line of lull sessions show.
func showStatus(st engine.State, pid int, held bool, now time.Time) string {
	switch {
	case st.Status == engine.Running && held && pid > 0:
		return fmt.Sprintf("running, open in another lull (pid %d)", pid)
	case st.Status == engine.Running && held:
		return "running, open in another lull"
	case st.Status == engine.Running:
		return "running — left running when lull stopped (see below)"
	}
	status := string(st.Status)
	if s := st.Summary; st.Status == engine.Completed && s != nil && s.Partial {
		status += " (partial: summarized before its end)"
	}
	switch engine.Idleness(st.Status, st.UpdatedAt, now) {
	case engine.Stale:
		return status + " — stale: no activity for over a week (see below)"
	case engine.Inactive:
		status += " — inactive: no activity for over a day"
	}
	if st.Status.Resumable() && !held {
		status += "  (resume with: " + human.Command("resume "+st.ID) + ")"
	}
	return status
}

// offerEnding prints, under lull sessions show, what can be done with a
// session left running by a lull that stopped, or one gone stale.
func (c *cli) offerEnding(st engine.State, now time.Time) {
	out := c.stdout
	switch {
	case st.Status == engine.Running:
		fprint(out, fmt.Sprintf("\nThis session was left running when lull stopped (%s, %s of %s, last active %s):\n",
			st.Phase, human.Clock(st.Elapsed), human.Clock(st.Length), human.Ago(st.UpdatedAt, now)))
	case engine.Idleness(st.Status, st.UpdatedAt, now) == engine.Stale:
		fprint(out, fmt.Sprintf("\nThis session has waited since %s (%s, %s of %s):\n",
			st.UpdatedAt.Local().Format("2 Jan 2006"), st.Phase, human.Clock(st.Elapsed), human.Clock(st.Length)))
	default:
		return
	}
	t := newTable("  ", 2)
	t.add(human.Command("resume "+st.ID), "resume where it stopped")
	if st.Status != engine.Created {
		t.add(human.Command("sessions summarize "+st.ID), "keep what was spoken; mark it completed (partial)")
	}
	t.add(human.Command("sessions discard "+st.ID), "mark it abandoned (its words stay saved)")
	io.WriteString(out, t.render(columns(out)))
}

var summarizeHelp = help{
	use:   "summarize ID",
	short: "End an unfinished session as completed (partial), keeping what was spoken",
	long: "End a session you will not finish — left running when lull stopped, paused or\n" +
		"interrupted — as completed and partial. What was spoken is kept, with a summary\n" +
		"of how far it came. It cannot be resumed afterwards. A session open in another\n" +
		"lull is refused.",
}

var discardHelp = help{
	use:   "discard ID",
	short: "Abandon an unfinished session; its words stay saved",
	long: "Mark an unfinished session abandoned: it leaves the sessions to resume, and its\n" +
		"words stay saved (lull sessions delete removes them). A session open in another\n" +
		"lull is refused.",
}

// endSessionCmds are lull sessions summarize and discard: the choices
// offered for a session left running, or any unfinished one.
func (c *cli) endSessionCmds() []*cobra.Command {
	end := func(verb string) func(*environment, string, bool) error {
		return func(env *environment, id string, yes bool) error { return c.endSession(env, id, verb, yes) }
	}
	return []*cobra.Command{c.askingCmd(summarizeHelp, end("summarize")), c.askingCmd(discardHelp, end("discard"))}
}

// askingCmd is lull sessions VERB ID: do acts on the session, asking
// first unless --yes says not to (delete, summarize, discard).
func (c *cli) askingCmd(h help, do func(env *environment, id string, yes bool) error) *cobra.Command {
	var yes bool
	cmd := h.command(cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		return c.withEnv(func(env *environment) error { return do(env, args[0], yes) })
	})
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

// endSession summarizes or discards a session, after asking.
func (c *cli) endSession(env *environment, id, verb string, yes bool) error {
	st, _, err := env.app.Store().Load(id)
	if err != nil {
		return err
	}
	if pid, held, err := env.app.Held(id); err != nil {
		return err
	} else if held {
		return &sessions.LockedError{ID: id, PID: pid}
	}
	to := engine.Completed
	if verb == "discard" {
		to = engine.Abandoned
	}
	if !engine.CanTransition(st.Status, to) {
		if st.Status == engine.Created && verb == "summarize" {
			return fmt.Errorf("session %s never began: there is nothing to summarize (discard it with: %s)", id, human.Command("sessions discard "+id))
		}
		return fmt.Errorf("session %s is %s already: there is nothing to %s", id, st.Status, verb)
	}
	what := "It is marked completed (partial), keeping what was spoken, and cannot be resumed."
	if verb == "discard" {
		what = "It is marked abandoned and cannot be resumed; its words stay saved."
	}
	question := fmt.Sprintf("%s session %s (%s, %s, %s of %s)?\n%s", strings.ToUpper(verb[:1])+verb[1:], id,
		showWord(st), st.Phase, human.Clock(st.Elapsed), human.Clock(st.Length), what)
	if ok, err := c.confirm(yes, verb, question, "Left as it is."); !ok {
		return err
	}
	end := env.app.Summarize
	if verb == "discard" {
		end = env.app.Discard
	}
	st, notes, err := end(id)
	for _, n := range notes {
		c.note(n)
	}
	if err != nil {
		return err
	}
	if s := st.Summary; verb == "summarize" && s != nil {
		fprintf(c.stdout, "Summarized %s: %d sentences kept (%s of %s); marked completed (partial).\n",
			id, s.Sentences, human.Clock(s.Duration), human.Clock(st.Length))
		return nil
	}
	fprintf(c.stdout, "Discarded %s: marked abandoned; its words stay saved.\n", id)
	return nil
}

// showWord is a status as a person reads it.
func showWord(st engine.State) string {
	if st.Status == engine.Running {
		return "left running when lull stopped"
	}
	return string(st.Status)
}

var pruneHelp = help{
	use:   "prune",
	short: "Delete old sessions (lists them first; --yes deletes)",
	long: "List the sessions older than --older-than, and with --yes delete them and their\n" +
		"transcripts. Without --yes nothing is deleted: it is a dry run.\n\n" +
		"Age counts from the last activity of an unfinished session (created, paused,\n" +
		"interrupted, left running), from when a completed session completed, and from\n" +
		"when an abandoned one was abandoned. A session open in a lull is never pruned.\n\n" +
		"Ages: 30d (days), 2w (weeks), 3mo (months of 30 days) or 12h (hours). m is\n" +
		"refused: it could mean minutes or months.",
	example: "  lull sessions prune                      # what is older than 30 days\n" +
		"  lull sessions prune --older-than 2w --yes",
}

func (c *cli) pruneCmd() *cobra.Command {
	var olderThan string
	var yes bool
	cmd := pruneHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		age, err := parseAge(olderThan)
		if err != nil {
			return fmt.Errorf("--older-than: %w", err)
		}
		return c.withEnv(func(env *environment) error { return c.prune(env, olderThan, age, yes) })
	})
	cmd.Flags().StringVar(&olderThan, "older-than", "30d", "delete sessions older than this: 30d, 2w, 3mo (months), 12h")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete them (without it, only list them)")
	return cmd
}

func (c *cli) prune(env *environment, olderThan string, age time.Duration, yes bool) error {
	list, problems := env.app.Prunable(age)
	for _, p := range problems {
		fprintln(c.stderr, "lull: cannot read", human.Line(fmt.Sprint(p)))
	}
	if len(list) == 0 {
		fprintf(c.stdout, "No session is older than %s.\n", olderThan)
		return nil
	}
	now := time.Now()
	t := newTable("", 4)
	t.lastMin = 16
	t.add("ID", "STATUS", "AGE", "INTENTION")
	for _, p := range list {
		since := "last active "
		switch p.Status {
		case engine.Completed:
			since = "completed "
		case engine.Abandoned:
			since = "abandoned "
		}
		t.add(human.Line(p.ID), string(p.Status), since+human.Ago(p.Since, now), human.Line(p.Intention))
	}
	io.WriteString(c.stdout, t.render(columns(c.stdout)))
	if !yes {
		fprint(c.stdout, fmt.Sprintf("\nDry run: nothing was deleted. To delete these %d sessions: %s\n", len(list), human.Command("sessions prune --older-than "+olderThan+" --yes")))
		return nil
	}
	var failed []error
	for _, p := range list {
		notes, err := env.app.Delete(p.ID)
		for _, n := range notes {
			c.note(n)
		}
		if err != nil {
			failed = append(failed, err)
			continue
		}
		fmt.Fprintln(c.stdout, "Deleted", human.Line(p.ID))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d sessions were not deleted: %w", len(failed), len(list), errors.Join(failed...))
	}
	return nil
}

// parseAge reads an age: a whole number and a unit that cannot be
// mistaken — h (hours), d (days), w (weeks) or mo (months of 30 days).
// "m" is refused by name: minutes to a Go duration, months to most people,
// and prune deletes on the difference.
func parseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	digits := strings.TrimLeft(s, "0123456789")
	number, unit := strings.TrimSuffix(s, digits), strings.ToLower(digits)
	if strings.HasSuffix(unit, "m") || strings.HasPrefix(unit, "min") { // 1m, 90m, 1h30m, 5min
		return 0, fmt.Errorf("%q: m could mean minutes or months; write months as mo (1mo), or give days, weeks or hours: 30d, 2w, 12h", s)
	}
	per, ok := ageUnits[unit]
	n, err := strconv.Atoi(number)
	if !ok || err != nil || number == "" {
		return 0, fmt.Errorf("%q is not an age: give a whole number and a unit, like 30d, 2w, 3mo or 12h", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q: an age must be more than nothing", s)
	}
	if n > int(maxAge/per) {
		return 0, fmt.Errorf("%q is longer than any session has been kept: give at most 100 years", s)
	}
	return time.Duration(n) * per, nil
}

// ageUnits are the units an age may be given in.
var ageUnits = map[string]time.Duration{
	"h":  time.Hour,
	"d":  24 * time.Hour,
	"w":  7 * 24 * time.Hour,
	"mo": 30 * 24 * time.Hour,
}

// maxAge bounds an age: a hundred years, far from overflowing a duration.
const maxAge = 100 * 365 * 24 * time.Hour
