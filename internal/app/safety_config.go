package app

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/lull-dev/lull/internal/llm"
)

// SafetyConfig is what stands between a model and the listener beyond the
// local screen, which always runs.
type SafetyConfig struct {
	Guard GuardSetting `yaml:"guard"`
}

// GuardSetting is the config's safety.guard: "auto" (the default: the
// session's own model judges each reply), "off", or a mapping naming the
// model to ask, such as a Llama Guard model on Ollama:
//
//	safety:
//	  guard:
//	    model: llama-guard3
type GuardSetting struct {
	Off   bool
	Model string
}

// LLM is the setting as the LLM guide takes it.
func (g GuardSetting) LLM() llm.Guard { return llm.Guard{Off: g.Off, Model: g.Model} }

// checkNode checks the setting's YAML before it is decoded: a word, or
// settings under it, each named in the message by line, never quoted.
func (g *GuardSetting) checkNode(v *yaml.Node, name string) error {
	want := fmt.Errorf("line %d: key %s: want auto, off, or a model under it (model: llama-guard3)", v.Line, name)
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Value != "auto" && v.Value != "off" {
			return want
		}
		return nil
	case yaml.MappingNode:
		if len(v.Content) != 2 || v.Content[0].Value != "model" {
			return want
		}
		m := v.Content[1]
		if m.Kind != yaml.ScalarNode || m.Tag != "!!str" || CheckModelName(m.Value) != nil {
			return fmt.Errorf("line %d: key %s.model: want a model's name", m.Line, name)
		}
		return nil
	}
	return want
}

// UnmarshalYAML reads a setting checkNode has passed.
func (g *GuardSetting) UnmarshalYAML(v *yaml.Node) error {
	if err := g.checkNode(v, "safety.guard"); err != nil {
		return err
	}
	*g = GuardSetting{}
	switch {
	case v.Kind == yaml.ScalarNode:
		g.Off = v.Value == "off"
	default:
		g.Model = v.Content[1].Value
	}
	return nil
}

// nodeChecker is a setting that checks its own YAML (checkSettings).
type nodeChecker interface {
	checkNode(v *yaml.Node, name string) error
}
