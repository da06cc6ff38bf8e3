// Command crosscheck type-checks lull, its tests included, as the
// compiler for another platform sees it: scripts/cross --check runs it
// for darwin/arm64 and windows/amd64 in make test. Building for those
// platforms compiles the standard library and every dependency once more
// for each, 150 s of CPU on a fresh machine; reading them for their
// declarations takes a tenth of that, and the errors a platform's files
// can make in lull's code (a name only another platform's file defines,
// a type that differs, an import left unused) are type errors. What only
// a compiler or linker finds (assembly, a body-less function) is the
// dependencies' to get right; make cross and the releases compile for
// every platform.
//
//	go run ./internal/crosscheck darwin/arm64 windows/amd64 [-- packages]
package main

import (
	"context"
	"fmt"
	"os"
	"slices"
)

func main() {
	platforms, patterns := os.Args[1:], []string{"./..."}
	if i := slices.Index(platforms, "--"); i >= 0 {
		platforms, patterns = platforms[:i], platforms[i+1:]
	}
	if len(platforms) == 0 {
		fmt.Fprintln(os.Stderr, "usage: crosscheck GOOS/GOARCH... [-- packages]")
		os.Exit(2)
	}
	failed := false
	for _, platform := range platforms {
		r, err := Check(context.Background(), ".", platform, patterns)
		if err != nil {
			fmt.Fprintln(os.Stderr, "crosscheck:", err)
			os.Exit(1)
		}
		if r.Own == 0 && len(r.Errors) == 0 {
			r.Errors = append(r.Errors, fmt.Sprintf("no package of the module's matches %v", patterns))
		}
		for _, e := range r.Errors {
			fmt.Fprintf(os.Stderr, "%s: %s\n", platform, e)
		}
		if len(r.Errors) > 0 {
			failed = true
			continue
		}
		fmt.Printf("crosscheck: %s: %d packages and test variants of lull's type-check (%d others read)\n", platform, r.Own, r.Deps)
	}
	if failed {
		os.Exit(1)
	}
}
