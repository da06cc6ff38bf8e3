package app

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The config lull config init writes changes nothing as it is, and every
// value in it, taken out of its comment, is lull's default: the file and
// the defaults cannot drift apart.
func TestDefaultConfigText(t *testing.T) {
	t.Parallel()
	text := DefaultConfigText()
	cfg, err := LoadConfig(writeConfig(t, text))
	if err != nil || !reflect.DeepEqual(cfg, defaultConfig) {
		t.Fatalf("as written: %+v, %v; want the defaults", cfg, err)
	}
	setting := regexp.MustCompile(`^# ( *[a-z_]+:.*)$`)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if m := setting.FindStringSubmatch(l); m != nil {
			lines = append(lines, m[1])
		}
	}
	uncommented := strings.Join(lines, "\n") + "\n"
	cfg, err = LoadConfig(writeConfig(t, uncommented))
	if err != nil {
		t.Fatalf("taken out of its comments: %v\n%s", err, uncommented)
	}
	if !reflect.DeepEqual(cfg.Effective(), defaultConfig.Effective()) {
		t.Errorf("taken out of its comments it is\n%+v\nnot the defaults\n%+v", cfg.Effective(), defaultConfig.Effective())
	}
	for _, key := range configKeys(reflect.TypeFor[Config](), "") {
		if !regexp.MustCompile(`(?m)^#\s+` + regexp.QuoteMeta(key[strings.LastIndex(key, ".")+1:]) + `:`).MatchString(text) {
			t.Errorf("the default config has no line for %s", key)
		}
	}
}

// Every key has words to say what it is for, and every word is for a key.
func TestEveryConfigKeyIsDocumented(t *testing.T) {
	t.Parallel()
	keys := configKeys(reflect.TypeFor[Config](), "")
	for _, k := range keys {
		if configDocs[k] == "" {
			t.Errorf("%s has no words in configDocs", k)
		}
	}
	for k := range configDocs {
		if !slices.Contains(keys, k) {
			t.Errorf("configDocs names %s, which is not a key", k)
		}
	}
}

// configKeys are the dotted keys of struct t.
func configKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		keys = append(keys, prefix+name)
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[GuardSetting]() {
			keys = append(keys, configKeys(f.Type, prefix+name+".")...)
		}
	}
	return keys
}

// lull config show says where each value came from, with defaults filled
// in and secrets masked, and what it prints is itself a config that lull
// reads as the same settings.
func TestShowConfig(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, "voice: flite\nbreathing:\n  inhale: 5\nsafety:\n  guard:\n    model: llama-guard3\nsleep:\n")
	shown, err := ShowConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(?m)^voice: flite +# from the file$`,
		`(?m)^length: 10 +# default$`,
		`(?m)^  inhale: 5 +# from the file$`,
		`(?m)^  exhale: 6 +# default$`,
		`(?m)^  tone: true +# default$`,
		`(?m)^  after: 30 +# default$`,
		`(?m)^  binary: "" +# not set$`,
		`(?m)^  guard: +# from the file\n    model: llama-guard3$`,
		`(?m)^breathing:$`,
	} {
		if !regexp.MustCompile(want).MatchString(shown) {
			t.Errorf("show has no line like %s:\n%s", want, shown)
		}
	}
	cfg, _ := LoadConfig(path)
	again, err := LoadConfig(writeConfig(t, shown))
	if err != nil || !reflect.DeepEqual(again.Effective(), cfg.Effective()) {
		t.Errorf("what show prints reads as\n%+v, %v\nnot\n%+v", again.Effective(), err, cfg.Effective())
	}

	secret := writeConfig(t, "llm:\n  base_url: https://someone:pa55word@llm.example/v1?key=t0ken-value\n")
	shown, err = ShowConfig(secret)
	if err != nil || strings.Contains(shown, "pa55word") || strings.Contains(shown, "t0ken-value") || !strings.Contains(shown, "llm.example/v1?key=REDACTED") {
		t.Errorf("a URL's secrets: %v\n%s", err, shown)
	}
	if _, err := ShowConfig(writeConfig(t, "lenght: 10\n")); err == nil || !strings.Contains(err.Error(), `did you mean "length"?`) {
		t.Errorf("a config lull refuses: %v", err)
	}
}
