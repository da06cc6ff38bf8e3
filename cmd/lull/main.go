// Command lull is guided relaxation in the terminal, spoken aloud.
package main

import (
	"os"

	"github.com/lull-dev/lull/internal/cli"
	"github.com/lull-dev/lull/internal/human"
)

// version is set by a release build (-ldflags "-X main.version=…").
var version string

func main() {
	human.SetProgram(os.Args[0]) // hints name lull as the user's shell finds it
	os.Exit(cli.Main(version, os.Args[1:], os.Stdout, os.Stderr))
}
