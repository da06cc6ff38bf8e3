package safety

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/lull-dev/lull/internal/prompts"
)

// The embedded model was trained from the corpora, the vocabulary, the
// rules' lists and the settings as they are now: after a change to any of
// them, `go generate ./safety` trains it again.
func TestModelIsCurrent(t *testing.T) {
	m, err := defaultModel()
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := TrainingCorpus(os.DirFS("../prompts/safety"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := prompts.SafetyVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if Digest(corpus, v, DefaultTrainOptions) != m.corpus {
		t.Fatal("safety/model.bin is older than what it is trained from: run go generate ./safety")
	}
	if len(m.classes) != len(Classified) {
		t.Fatalf("the model has %d classes, want %d", len(m.classes), len(Classified))
	}
	for i, c := range m.classes {
		if c.category != Classified[i] || !(c.strict <= c.threshold) || c.threshold <= 0 || c.threshold >= 1 {
			t.Errorf("class %d: %+v", i, c)
		}
	}
}

// A damaged model file is refused, never half read.
func TestModelFileIsChecked(t *testing.T) {
	good := embeddedModel
	if _, err := readModel(good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"empty":     nil,
		"not one":   []byte("LULLSAFX" + string(good[8:])),
		"truncated": good[:len(good)-1],
		"overlong":  append(append([]byte(nil), good...), 0),
		"header":    good[:40],
	} {
		if _, err := readModel(bad); err == nil {
			t.Errorf("%s: read as a model", name)
		}
	}
}

// The model's set of the built-in material's lines is the material as it
// is: a line edited since is otherwise classified as it is spoken (and
// one classification reads most of the model into memory).
func TestOwnLinesAreCurrent(t *testing.T) {
	m, err := defaultModel()
	if err != nil {
		t.Fatal(err)
	}
	lines, err := BuiltinExamples()
	if err != nil {
		t.Fatal(err)
	}
	if want := ownSet(lines); !bytes.Equal(m.own, want) {
		t.Fatalf("safety/model.bin knows %d lines of the built-in material, which has %d (or others): run `go run ./internal/train -own` in internal/safety",
			len(m.own)/8, len(want)/8)
	}
}

// RefreshOwn changes the set of the material's lines and nothing else.
func TestRefreshOwnKeepsTheClassifier(t *testing.T) {
	out, err := RefreshOwn(embeddedModel)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := readModel(embeddedModel)
	b, err := readModel(out)
	if err != nil {
		t.Fatal(err)
	}
	if a.corpus != b.corpus || !slices.Equal(a.classes, b.classes) || !bytes.Equal(a.hashes, b.hashes) || !bytes.Equal(a.weights, b.weights) || a.known != b.known {
		t.Error("refreshing the material's lines changed the classifier")
	}
}
