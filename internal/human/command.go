package human

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// program is how hints name lull (see SetProgram): "lull" until lull
// says how it was run, and in tests.
var program = "lull"

// SetProgram decides, as lull starts, how every hint it prints names it:
// argv0 is the path it was run by (os.Args[0]).
func SetProgram(argv0 string) { program = programName(argv0, exec.LookPath) }

// Command is a command line for the user to type into their shell:
// lull, as their shell finds it, then args ("resume 20261124-…").
func Command(args string) string { return program + " " + args }

// programName is "lull" when the shell finds this very lull by that name;
// otherwise the path it was run by, made absolute (a hint may be read in
// another folder) and quoted for the shell where it needs to be. A name
// with no folder in it was found on PATH by the shell, and is kept.
func programName(argv0 string, lookPath func(string) (string, error)) string {
	if argv0 == "" {
		argv0, _ = os.Executable()
		if argv0 == "" {
			return "lull"
		}
	}
	if !strings.ContainsAny(argv0, separators()) {
		return argv0
	}
	self, err := filepath.Abs(argv0)
	if err != nil {
		self = argv0
	}
	if found, err := lookPath("lull"); err == nil && sameFile(found, self) {
		return "lull"
	}
	return shellQuote(self)
}

func separators() string {
	if runtime.GOOS == "windows" {
		return `\/`
	}
	return "/"
}

func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}

// shellQuote quotes path for the user's shell when it holds anything a
// shell would read as more than a word.
func shellQuote(path string) string {
	plain := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(`/\._-+:,@%=~`, r)
	}
	if strings.IndexFunc(path, func(r rune) bool { return !plain(r) }) < 0 {
		return path
	}
	if runtime.GOOS == "windows" {
		return `"` + path + `"`
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}
