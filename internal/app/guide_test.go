package app

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestChooseGuide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		cfg    Config
		flags  GuideFlags
		getenv func(string) string
		guide  string
		key    string
		base   string
		mod    bool
	}{
		{name: "nothing set: builtin", getenv: env(), guide: "builtin", mod: true},
		{name: "a key: openai, moderated", getenv: env("OPENAI_API_KEY", "sk-1"), guide: "openai", key: "sk-1", mod: true},
		{name: "a base URL from the environment takes OpenAI's key with it", getenv: env("OPENAI_API_KEY", "sk-1", "OPENAI_BASE_URL", "http://localhost:11434/v1"),
			guide: "openai", key: "sk-1", base: "http://localhost:11434/v1"},
		{name: "a base URL in the config does not get OpenAI's key", cfg: Config{LLM: GuideConfig{BaseURL: "http://gpu-box:8000/v1"}},
			getenv: env("OPENAI_API_KEY", "sk-1"), guide: "openai", base: "http://gpu-box:8000/v1"},
		{name: "its own key", cfg: Config{LLM: GuideConfig{BaseURL: "http://gpu-box:8000/v1"}},
			getenv: env("OPENAI_API_KEY", "sk-1", "LULL_LLM_API_KEY", "local-2"), guide: "openai", key: "local-2", base: "http://gpu-box:8000/v1"},
		{name: "the flag wins over a key", flags: GuideFlags{Guide: "builtin"}, getenv: env("OPENAI_API_KEY", "sk-1"), guide: "builtin", key: "sk-1", mod: true},
		{name: "the config's choice", cfg: Config{Guide: "builtin"}, getenv: env("OPENAI_API_KEY", "sk-1"), guide: "builtin", key: "sk-1", mod: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, err := ChooseGuide(tc.cfg, tc.flags, tc.getenv)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Guide != tc.guide || ch.LLM.APIKey != tc.key || ch.LLM.BaseURL != tc.base || ch.LLM.Moderate != tc.mod {
				t.Errorf("got guide %q key %q base %q moderate %v", ch.Guide, ch.LLM.APIKey, ch.LLM.BaseURL, ch.LLM.Moderate)
			}
		})
	}
	if _, err := ChooseGuide(Config{}, GuideFlags{Guide: "claude"}, env()); err == nil || !strings.Contains(err.Error(), "builtin or openai") {
		t.Errorf("an unknown guide: %v", err)
	}
	ch, _ := ChooseGuide(Config{LLM: GuideConfig{Private: true, OnFailure: "interrupt", Model: "m1"}}, GuideFlags{Model: "m2", KeepResponses: true}, env("OPENAI_API_KEY", "k"))
	if !ch.LLM.Private || !ch.LLM.KeepResponses || !ch.Interrupt || ch.LLM.Model != "m2" {
		t.Errorf("settings not carried: %+v", ch)
	}
	if llm.IsOpenAI(ch.LLM.BaseURL) {
		t.Error("an empty base URL is read as OpenAI's by llm.New, not here")
	}
}

// With an LLM, the built-in guide fills for it (an unusable reply, a
// stall) whatever on_failure says; it falls back to it only when the
// session is not to be interrupted instead. On the built-in guide alone
// nothing fills.
func TestTheBuiltinGuideFillsForTheLLM(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	st, err := engine.NewState("s", engine.Options{Length: 10 * time.Minute, Seed: 1}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, interrupt := range []bool{false, true} {
		rg, err := a.guides(st, GuideChoice{Guide: "openai", Interrupt: interrupt,
			LLM: llm.Config{APIKey: "sk-test", BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4.1-mini"}})
		if err != nil {
			t.Fatal(err)
		}
		if rg.guide.Name() != "openai" || rg.filler == nil || rg.filler.Name() != "builtin" || rg.filler != rg.builtin {
			t.Errorf("interrupt %v: guide %v, filler %v", interrupt, rg.guide, rg.filler)
		}
		if (rg.fallback == nil) != interrupt || rg.fallback != nil && rg.fallback != rg.filler {
			t.Errorf("interrupt %v: fallback %v", interrupt, rg.fallback)
		}
		if _, ok := rg.filler.(engine.Outliner); !ok {
			t.Error("the filler does not outline the journey for the LLM")
		}
	}
	rg, err := a.guides(st, GuideChoice{Guide: "builtin"})
	if err != nil {
		t.Fatal(err)
	}
	if rg.guide.Name() != "builtin" || rg.filler != nil || rg.fallback != nil {
		t.Errorf("on the built-in guide: guide %v, filler %v, fallback %v", rg.guide, rg.filler, rg.fallback)
	}
}
