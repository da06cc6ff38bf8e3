package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// lull man is made from the commands and flags --help knows: every one
// is in it, in the sections a manual has.
func TestManPageHasEveryCommandAndFlag(t *testing.T) {
	page, stderr, code := runIn(t, t.TempDir(), "man")
	if code != 0 || stderr != "" || !strings.HasPrefix(page, ".TH LULL 1 ") {
		t.Fatalf("exit %d, stderr %q, page begins %q", code, stderr, page[:min(len(page), 40)])
	}
	at := -1
	for _, section := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "FILES", "ENVIRONMENT", "EXAMPLES"} {
		i := strings.Index(page, "\n.SH "+section+"\n")
		if i < at {
			t.Errorf("section %s is missing or out of order", section)
		}
		at = i
	}
	root := newRoot(&cli{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)})
	root.InitDefaultCompletionCmd()
	walk(root, func(cmd *cobra.Command) {
		if !cmd.IsAvailableCommand() && cmd != root || cmd.Name() == "help" {
			return
		}
		if cmd != root && !strings.Contains(page, `\fB`+roff(cmd.CommandPath())+`\fR`) {
			t.Errorf("the manual has no %s", cmd.CommandPath())
		}
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !strings.Contains(page, `\fB\-\-`+roff(f.Name)+`\fR`) {
				t.Errorf("the manual has no %s --%s", cmd.CommandPath(), f.Name)
			}
		})
		for _, line := range strings.Split(cmd.Example, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.Contains(page, roff(line)) {
				t.Errorf("the manual lacks the example %q", line)
			}
		}
	})
	for _, v := range environmentVariables {
		if !strings.Contains(page, `\fB`+roff(v.Name)+`\fR`) {
			t.Errorf("the manual has no %s", v.Name)
		}
	}
}

// groff reads the page without a warning, and man renders it.
func TestManPageRenders(t *testing.T) {
	page, _, _ := runIn(t, t.TempDir(), "man")
	path := filepath.Join(t.TempDir(), "lull.1")
	if err := os.WriteFile(path, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff is not installed (make test installs it)")
	}
	for _, device := range []string{"ps", "utf8", "ascii"} {
		out, err := exec.Command("groff", "-man", "-ww", "-z", "-T"+device, path).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("groff -man -ww -z -T%s: %v\n%s", device, err, out)
		}
	}
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("man is not installed (make test installs it)")
	}
	cmd := exec.Command("man", "-l", path)
	cmd.Env = append(os.Environ(), "MANWIDTH=80", "MANPAGER=cat", "PAGER=cat")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("man -l: %v", err)
	}
	text := string(out)
	for _, want := range []string{"LULL(1)", "NAME\n       lull - guided relaxation", "lull sessions show ID", "--older-than", "LULL_HOME"} {
		if !strings.Contains(text, want) {
			t.Errorf("man -l shows no %q", want)
		}
	}
	if regexp.MustCompile(`\\[(\[]|\\f[BIR]`).MatchString(text) {
		t.Errorf("an escape shows through:\n%s", text)
	}
}

func TestRoffEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`.hidden`:           `\&.hidden`,
		`a\b`:               `a\eb`,
		"--json":            `\-\-json`,
		"it's `x`":          `it\(aqs \(gax\(ga`,
		"5–60 · café → end": `5\[u2013]60 \[u00B7] caf\[u00E9] \[u2192] end`,
		"bell\a":            "bell",
	} {
		if got := roff(in); got != want {
			t.Errorf("roff(%q) = %q, want %q", in, got, want)
		}
	}
}
