package app

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lull-dev/lull/internal/human"
)

// decodeConfig reads the settings in data into cfg. Its errors name the
// line and the key, never a value: yaml's own messages quote what they
// could not read, and a config that leads to some other file (a link to
// a file of password hashes, say) must not have lull print its lines.
func decodeConfig(data []byte, cfg *Config) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return syntaxError(err)
	}
	if len(doc.Content) == 0 {
		return nil // empty, or only comments
	}
	root := doc.Content[0]
	if root.Tag == "!!null" {
		return nil
	}
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: this is not a config file: it holds settings as key: value lines (keys: %s)", root.Line, keysOf(reflect.TypeFor[Config]()))
	}
	if err := checkSettings(root, reflect.TypeFor[Config](), ""); err != nil {
		return err
	}
	if err := root.Decode(cfg); err != nil {
		// checkSettings has seen every key and value, so this is not
		// expected; yaml's words would quote the file.
		return fmt.Errorf("line %d: the settings cannot be read", root.Line)
	}
	return nil
}

// checkSettings checks a mapping against the struct t it fills: every key
// known, once; every value of the kind its field takes.
func checkSettings(m *yaml.Node, t reflect.Type, prefix string) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		f, ok := settingField(t, k)
		if !ok {
			near := ""
			if k.Kind == yaml.ScalarNode && plainKey.MatchString(k.Value) {
				near = human.DidYouMean(k.Value, strings.Split(keysOf(t), ", "))
			}
			return fmt.Errorf("line %d: unknown key %s (keys%s: %s)%s", k.Line, keyName(prefix, k), under(prefix), keysOf(t), near)
		}
		name := prefix + k.Value
		if line, twice := seen[k.Value]; twice {
			return fmt.Errorf("line %d: key %s is set twice (first on line %d)", k.Line, name, line)
		}
		seen[k.Value] = k.Line
		if v.Kind == yaml.AliasNode || v.Anchor != "" {
			return fmt.Errorf("line %d: key %s: lull's config takes no anchors or aliases", v.Line, name)
		}
		if v.Tag == "!!null" {
			continue // "key:" with nothing after it: the default
		}
		if c, ok := reflect.New(f.Type).Interface().(nodeChecker); ok {
			if err := c.checkNode(v, name); err != nil {
				return err
			}
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			if v.Kind != yaml.MappingNode {
				return fmt.Errorf("line %d: key %s: want settings under it (keys: %s)", v.Line, name, keysOf(f.Type))
			}
			if err := checkSettings(v, f.Type, name+"."); err != nil {
				return err
			}
			continue
		}
		// yaml reads 1.5 into a whole number as 1: a number must be whole
		// where a whole number is wanted.
		whole := !isInt(f.Type) || v.ShortTag() == "!!int"
		if v.Kind != yaml.ScalarNode || !whole || v.Decode(reflect.New(f.Type).Interface()) != nil {
			return fmt.Errorf("line %d: key %s: want %s", v.Line, name, kindOf(f.Type))
		}
	}
	return nil
}

// settingField is the field of t that key k names by its yaml tag.
func settingField(t reflect.Type, k *yaml.Node) (reflect.StructField, bool) {
	if k.Kind != yaml.ScalarNode || k.Value == "" {
		return reflect.StructField{}, false
	}
	for f := range t.Fields() {
		if strings.Split(f.Tag.Get("yaml"), ",")[0] == k.Value {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// keysOf lists the keys a struct takes, in its order.
func keysOf(t reflect.Type) string {
	var keys []string
	for f := range t.Fields() {
		if k := strings.Split(f.Tag.Get("yaml"), ",")[0]; k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ", ")
}

func under(prefix string) string {
	if prefix == "" {
		return ""
	}
	return " under " + strings.TrimSuffix(prefix, ".")
}

// plainKey is what a key lull could name back looks like; anything else
// may be a line of some other file, and is not repeated.
var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

func keyName(prefix string, k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode && plainKey.MatchString(k.Value) {
		return prefix + k.Value
	}
	return "(not shown)"
}

// isInt reports whether a field takes a whole number.
func isInt(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Int || t.Kind() == reflect.Int64
}

// kindOf says in words what a field takes.
func kindOf(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	default:
		return "a word or text"
	}
}

// yamlLine finds the line yaml's message is about.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// fixedQuote is a single punctuation character yaml quotes in its own
// words ("did not find expected ':'"); any other quote is the file's.
var fixedQuote = regexp.MustCompile(`'[^A-Za-z0-9\s']'`)

// syntaxError keeps the line and yaml's description of the problem when
// that quotes nothing from the file.
func syntaxError(err error) error {
	msg := err.Error()
	line, problem := "", strings.TrimPrefix(msg, "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, problem = "line "+m[1]+": ", m[2]
	}
	if strings.ContainsAny(fixedQuote.ReplaceAllString(problem, ""), "'\"`") ||
		strings.ContainsFunc(problem, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		problem = ""
	}
	if problem == "" {
		return errors.New(line + "not valid YAML")
	}
	return errors.New(line + "not valid YAML: " + problem)
}
