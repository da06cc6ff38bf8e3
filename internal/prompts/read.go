package prompts

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// decodeStrict reads one YAML file of the material into v, the built-in
// guide's and the LLM guide's alike. Unknown keys are errors: a misspelt
// key must not silently empty a list or a field.
func decodeStrict(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("prompts: %s: %w", name, err)
	}
	return nil
}

// eachText gives read the name and text of each .txt file of dir in fsys,
// by name, but first the one named first when it is there ("" for none).
// A dir without a .txt file is an error: what says what it should hold.
func eachText(fsys fs.FS, dir, what, first string, read func(name, text string) error) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("prompts: no %s in %s", what, dir)
	}
	slices.SortFunc(names, func(a, b string) int {
		fa, fb := first != "" && path.Base(a) == first, first != "" && path.Base(b) == first
		switch {
		case fa && !fb:
			return -1
		case fb && !fa:
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		if err := read(name, string(data)); err != nil {
			return err
		}
	}
	return nil
}
