// Command lull is guided relaxation in the terminal, spoken aloud.
package main

import (
	"os"

	"github.com/lull-dev/lull/internal/cli"
)

// version is set by a release build (-ldflags "-X main.version=…").
var version string

func main() {
	os.Exit(cli.Main(version, os.Args[1:], os.Stdout, os.Stderr))
}
