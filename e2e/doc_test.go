//go:build unix

// Package e2e drives the built lull binary as a person would: commands,
// a terminal in tmux, signals, hostile files and environments, a fake
// OpenAI server. TestMain builds ./cmd/lull once; the CLI's own unit
// tests live beside it in internal/cli and build nothing.
//
// They are unix only (go:build unix in every file): a terminal in tmux,
// signals, FIFOs and device nodes. Elsewhere the package has no files.
package e2e
