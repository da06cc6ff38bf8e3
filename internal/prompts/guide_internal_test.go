package prompts

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// guideWith is the embedded guide material with one file (a path under
// guide/) changed by edit.
func guideWith(t *testing.T, file string, edit func(string) string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(guideFiles, "guide", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(guideFiles, p)
		if err != nil {
			return err
		}
		if p == "guide/"+file {
			data = []byte(edit(string(data)))
		}
		m[p] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInsteadNamesASkeletonStep: a journey words only steps the skeleton
// has, on their own part of the breath; anything else is refused at load.
func TestInsteadNamesASkeletonStep(t *testing.T) {
	if _, err := LoadGuide(guideWith(t, "journeys/counting-breaths.yaml", func(s string) string { return s }), "guide"); err != nil {
		t.Fatalf("the material as it is: %v", err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown step", "      - name: counts-fade\n        breath: in\n", "      - name: counts-fading\n        breath: in\n", "the skeleton has no such step"},
		{"other part of the breath", "      - name: counts-fade\n        breath: in\n", "      - name: counts-fade\n        breath: out\n", "own part of the breath"},
	} {
		fsys := guideWith(t, "journeys/counting-breaths.yaml", func(s string) string {
			if !strings.Contains(s, tc.from) {
				t.Fatalf("%s: the journey no longer holds %q", tc.name, tc.from)
			}
			return strings.Replace(s, tc.from, tc.to, 1)
		})
		_, err := LoadGuide(fsys, "guide")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestOrdersNameEveryStepOnce: an order the steps may be said in names
// each of them once; anything else is refused at load, and a journey has
// none of its own.
func TestOrdersNameEveryStepOnce(t *testing.T) {
	const order = "      - [posture, eyes, intention, arriving, body-weight, journey, permission]\n"
	for _, tc := range []struct{ name, file, from, to, want string }{
		{"a step left out", "skeleton.yaml", order, "      - [posture, eyes, intention, arriving, body-weight, journey]\n", "each once"},
		{"a step twice", "skeleton.yaml", order, "      - [posture, eyes, eyes, arriving, body-weight, journey, permission]\n", "each once"},
		{"an unknown step", "skeleton.yaml", order, "      - [posture, eyes, intention, arrival, body-weight, journey, permission]\n", "each once"},
		{"a journey's order", "journeys/lake.yaml", "  sensory:\n", "  sensory:\n    orders:\n      - [arrive]\n", "orders: belong to the skeleton"},
	} {
		fsys := guideWith(t, tc.file, func(s string) string {
			if !strings.Contains(s, tc.from) {
				t.Fatalf("%s: %s no longer holds %q", tc.name, tc.file, tc.from)
			}
			return strings.Replace(s, tc.from, tc.to, 1)
		})
		_, err := LoadGuide(fsys, "guide")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
