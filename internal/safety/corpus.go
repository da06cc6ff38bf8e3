package safety

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// A corpus is sentences as models write them, each with its category (or
// none: safe guidance) and the place in a session it is written for. The
// classifier is trained from prompts/safety/corpus/; its figures are
// measured on testdata/, written apart. The files are tab-separated:
//
//	phase<TAB>mode<TAB>text
//
// with mode "waking" or "sleep"; a file's name says its category
// ("self_harm.tsv"), or that it is safe guidance ("safe…").

// TrainingCorpus is what the classifier learns from: the corpora in
// corpus/ of fsys (prompts/safety), and every line of the built-in
// material as safe guidance, as it was when the classifier was last
// trained (builtin/, written by the training; see WriteBuiltinSnapshot).
// Material written since must pass the screen as it is (the guide's
// tests hold every line to it): a new line never moves the screen's
// thresholds under the held-out figures.
func TrainingCorpus(fsys fs.FS) ([]Example, error) {
	written, err := ReadCorpus(fsys, "corpus")
	if err != nil {
		return nil, err
	}
	builtin, err := ReadCorpus(fsys, "builtin")
	if err != nil {
		return nil, err
	}
	return append(written, builtin...), nil
}

// Example is one line of a corpus.
type Example struct {
	Category Category // "" for safe guidance
	At       Place
	Text     string
	Source   string // file:line, for messages
}

// ReadCorpus reads every .tsv file under dir in fsys, in name order.
func ReadCorpus(fsys fs.FS, dir string) ([]Example, error) {
	var names []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".tsv") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []Example
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ex, err := parseCorpus(name, data)
		if err != nil {
			return nil, err
		}
		out = append(out, ex...)
	}
	return out, nil
}

// CorpusCategory is the category a corpus file's name says: "" for safe
// guidance, ok false for a name that says neither. What follows a dot in
// the name says where the lines came from ("chatter.relabelled.tsv").
func CorpusCategory(name string) (c Category, ok bool) {
	base, _, _ := strings.Cut(strings.TrimSuffix(path.Base(name), ".tsv"), ".")
	if strings.HasPrefix(base, "safe") {
		return "", true
	}
	return base, slices.Contains(Classified, base)
}

func parseCorpus(name string, data []byte) ([]Example, error) {
	cat, ok := CorpusCategory(name)
	if !ok {
		return nil, fmt.Errorf("%s: the name is neither a category (%s) nor safe…", name, strings.Join(Classified, ", "))
	}
	var out []Example
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 3)
		if len(cols) != 3 {
			return nil, fmt.Errorf("%s:%d: want phase, mode and text, tab-separated", name, n)
		}
		p, err := engine.ParsePhase(cols[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		var sleep bool
		switch cols[1] {
		case "sleep":
			sleep = true
		case "waking":
		default:
			return nil, fmt.Errorf("%s:%d: mode %q: want waking or sleep", name, n, cols[1])
		}
		out = append(out, Example{Category: cat, At: Place{Phase: p, Sleep: sleep}, Text: cols[2], Source: fmt.Sprintf("%s:%d", name, n)})
	}
	return out, sc.Err()
}
