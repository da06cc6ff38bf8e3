// Command train fits the safety screen's classifier to the corpora in
// prompts/safety/corpus/ and the built-in material (written first to
// prompts/safety/builtin/) and writes safety/model.bin, which the safety
// package embeds. Run it with `go generate ./safety` after changing a
// corpus or the vocabulary; a test fails while the model is older than
// them. After editing the guide's words, `go run ./internal/train -own`
// (from safety/) refreshes only the model's set of the material's lines,
// in a second, and a test fails until it has.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/safety"
)

func main() {
	own := flag.Bool("own", false, "only make the model's set of the built-in material's lines from the material as it is now (after editing the guide's words): no training")
	flag.Parse()
	run := train
	if *own {
		run = refreshOwn
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

// refreshOwn rewrites model.bin with the material's lines as they are
// now, the classifier as it was trained.
func refreshOwn() error {
	data, err := os.ReadFile("model.bin")
	if err != nil {
		return err
	}
	out, err := safety.RefreshOwn(data)
	if err != nil {
		return err
	}
	return os.WriteFile("model.bin", out, 0o644)
}

func train() error {
	// The material as it is now is what this model learns.
	f, err := os.Create("../prompts/safety/builtin/safe_guide.tsv")
	if err != nil {
		return err
	}
	if err := safety.WriteBuiltinSnapshot(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	corpus, err := safety.TrainingCorpus(os.DirFS("../prompts/safety"))
	if err != nil {
		return err
	}
	v, err := prompts.SafetyVocabulary()
	if err != nil {
		return err
	}
	model, rep := safety.Train(corpus, v, safety.DefaultTrainOptions)
	fmt.Print(rep)
	return os.WriteFile("model.bin", model, 0o644)
}
