package prompts

import (
	"bytes"
	"fmt"
	"io/fs"

	"gopkg.in/yaml.v3"
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
