package app

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/redact"
	"github.com/lull-dev/lull/internal/sessions"
)

// The config written out: commented, with every default, by lull config
// init; as lull uses it, each value saying where it came from, by lull
// config show. Both walk Config itself, so a key added to it is in both;
// a test fails for a key without words in configDocs.

// configDocs say what each key is for, by its dotted name: the comment
// after it in the file lull config init writes.
var configDocs = map[string]string{
	"length": fmt.Sprintf("default session length in minutes (%d–%d)",
		int(engine.MinLength.Minutes()), int(engine.MaxLength.Minutes())),
	"voice":      strings.Join(audio.Voices, ", "),
	"soundscape": strings.Join(audio.Soundscapes, ", "),
	"voice_rate": fmt.Sprintf("the voice's pace, a factor of the normal one (%g–%g; [ and ] in a session)",
		engine.MinVoiceRate, engine.MaxVoiceRate),
	"soundscape_volume": fmt.Sprintf("the soundscape's level under the voice, 0–%d (%d is lull's own; , and . in a session)",
		engine.MaxVolume, engine.DefaultVolume),
	"piper":              "a local neural voice: https://github.com/rhasspy/piper",
	"piper.binary":       "the piper program, like /opt/piper/piper",
	"piper.model":        "its voice, like /opt/piper/en_US-amy-medium.onnx (its .onnx.json beside it)",
	"speech":             "an OpenAI-compatible speech server of your own",
	"speech.base_url":    "with the /v1, like http://localhost:8880/v1 (its key: LULL_SPEECH_API_KEY)",
	"speech.model":       "default gpt-4o-mini-tts",
	"speech.voice":       "default sage",
	"speech.format":      "wav or pcm",
	"espeak":             "espeak-ng's voice",
	"espeak.voice":       "auto (an installed mbrola English voice, else en-us+f2) or any voice espeak-ng --voices lists",
	"breathing":          "the breathing phase's rhythm, in seconds",
	"breathing.inhale":   "breathing in",
	"breathing.hold":     "holding the breath in: lull never asks for a long hold",
	"breathing.exhale":   "breathing out",
	"breathing.rest":     "a pause after the exhale",
	"breathing.tone":     "the soft pacer tone",
	"sleep":              "a sleep session: nothing wakes you at its end",
	"sleep.after":        fmt.Sprintf("minutes the soundscape plays on after its last word (0–%d)", MaxSleepAfter),
	"guide":              "auto (openai when a key or a base URL is set), builtin or openai",
	"llm":                "the language model that writes the words",
	"llm.model":          "its name (default gpt-4.1-mini on OpenAI; needed for any other server)",
	"llm.base_url":       "an OpenAI-compatible server, like http://localhost:11434/v1 (default: OpenAI; its key: LULL_LLM_API_KEY)",
	"llm.private":        "true: store nothing at the provider, send the history with each call",
	"llm.keep_responses": "true: keep the responses stored at OpenAI after the session",
	"llm.on_failure":     "builtin (the built-in guide carries on) or interrupt (stop and ask)",
	"keep_awake":         "while a session plays, ask the OS not to sleep",
	"stats":              "lull stats and the home screen",
	"stats.streak":       "false hides the streak of days",
	"safety":             "what judges each reply of a model, beside the local screen",
	"safety.guard":       "auto (the session's own model), off, or {model: llama-guard3}",
}

// Effective is the config with every default filled in, as lull uses it.
func (c Config) Effective() Config {
	yes := func() *bool { b := true; return &b }
	c.Length = cmp.Or(c.Length, defaultConfig.Length)
	c.Voice = cmp.Or(c.Voice, defaultConfig.Voice)
	c.Soundscape = cmp.Or(c.Soundscape, defaultConfig.Soundscape)
	c.Espeak.Voice = cmp.Or(c.Espeak.Voice, "auto")
	if c.Breathing.Tone == nil {
		c.Breathing.Tone = yes()
	}
	if c.VoiceRate == nil {
		one := 1.0
		c.VoiceRate = &one
	}
	if c.SoundscapeVolume == nil {
		level := engine.DefaultVolume
		c.SoundscapeVolume = &level
	}
	if c.Sleep.After == nil {
		after := DefaultSleepAfter
		c.Sleep.After = &after
	}
	c.Guide = cmp.Or(c.Guide, "auto")
	c.LLM.OnFailure = cmp.Or(c.LLM.OnFailure, "builtin")
	if c.KeepAwake == nil {
		c.KeepAwake = yes()
	}
	if c.Stats.Streak == nil {
		c.Stats.Streak = yes()
	}
	return c
}

// MarshalYAML writes the setting as the config takes it.
func (g GuardSetting) MarshalYAML() (any, error) {
	switch {
	case g.Off:
		return "off", nil
	case g.Model != "":
		return map[string]string{"model": g.Model}, nil
	}
	return "auto", nil
}

// DefaultConfigText is the config file lull config init writes: every key
// with its default, commented out, so that the file changes nothing until
// a line is taken out of its comment.
func DefaultConfigText() string {
	body, err := configYAML(defaultConfig.Effective(), func(key string, _ *yaml.Node, _ bool) string { return configDocs[key] })
	if err != nil {
		panic(err) // Config always encodes: TestDefaultConfigText
	}
	var b strings.Builder
	b.WriteString("# lull's settings. Every key may be left out: lull then uses the value shown,\n" +
		"# its default. To change one, take the \"# \" off its line (and off the line of\n" +
		"# the key it sits under). lull config edit checks what you write;\n" +
		"# lull config show prints what lull uses.\n\n")
	for _, line := range strings.SplitAfter(string(body), "\n") {
		if line != "" {
			b.WriteString("# " + line)
		}
	}
	return b.String()
}

// ShowConfig is the config at path as lull uses it, as YAML: every key,
// defaults filled in, each value saying whether the file set it or it is
// lull's default, and every secret a value could carry (a URL's password
// or token) masked. An error is the one LoadConfig gives.
func ShowConfig(path string) (string, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return "", err
	}
	set, err := configKeysSet(path)
	if err != nil {
		return "", err
	}
	body, err := configYAML(cfg.Effective(), func(key string, v *yaml.Node, group bool) string {
		switch {
		case group:
			return "" // its keys say
		case set[key]:
			return "from the file"
		case v.Tag == "!!str" && v.Value == "":
			return "not set"
		}
		return "default"
	})
	if err != nil {
		return "", err
	}
	return string(body), nil
}

// configKeysSet are the keys the file at path sets (dotted: breathing.inhale),
// with a value; none when there is no file.
func configKeysSet(path string) (map[string]bool, error) {
	set := map[string]bool{}
	data, err := sessions.ReadTrusted(path, maxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return set, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the config %s: %w", path, err)
	}
	for k := range keyLines(data) {
		set[k] = true
	}
	return set, nil
}

// keyLines are the line of each key config data sets with a value, by
// its dotted name; none for data that is not a mapping of settings.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return lines
	}
	var walk func(m *yaml.Node, prefix string)
	walk = func(m *yaml.Node, prefix string) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			if v.Tag == "!!null" {
				continue
			}
			lines[prefix+k.Value] = k.Line
			walk(v, prefix+k.Value+".")
		}
	}
	walk(doc.Content[0], "")
	return lines
}

// configYAML writes cfg as YAML in the order of Config, every value with
// comment(its dotted key, its node, whether it holds keys of its own)
// after it, every text redacted.
func configYAML(cfg Config, comment func(key string, value *yaml.Node, group bool) string) ([]byte, error) {
	var root yaml.Node
	if err := root.Encode(cfg); err != nil {
		return nil, err
	}
	annotate(&root, reflect.TypeFor[Config](), "", comment)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return alignComments(b.Bytes()), nil
}

// annotate puts comment(key) after each value of mapping m, which encodes
// struct t; the keys of a struct get theirs after the key.
func annotate(m *yaml.Node, t reflect.Type, prefix string, comment func(string, *yaml.Node, bool) string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		f, ok := settingField(t, k)
		if !ok {
			continue
		}
		key := prefix + k.Value
		_, own := reflect.New(f.Type).Interface().(nodeChecker) // a setting of its own shape (safety.guard)
		group := f.Type.Kind() == reflect.Struct && !own
		if c := comment(key, v, group); c != "" {
			if v.Kind == yaml.MappingNode {
				k.LineComment = "# " + c // yaml writes it after the key
			} else {
				v.LineComment = "# " + c
			}
		}
		if group {
			annotate(v, f.Type, key+".", comment)
			continue
		}
		redactNode(v)
	}
}

// redactNode masks every secret in the text of n and what it holds.
func redactNode(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		n.Value = redact.Text(n.Value)
	}
	for _, c := range n.Content {
		redactNode(c)
	}
}

// commentColumn is where the comments after values begin, when the value
// leaves room.
const commentColumn = 26

// alignComments lines up the comments yaml writes after values.
func alignComments(b []byte) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		code, c, ok := strings.Cut(l, " # ")
		if !ok || strings.ContainsAny(code, `"'`) && strings.Count(code, `"`)%2 == 1 {
			continue // no comment, or " # " inside a quoted value
		}
		lines[i] = fmt.Sprintf("%-*s # %s", commentColumn-1, code, c)
	}
	return []byte(strings.Join(lines, ""))
}
