package cli

import (
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/human"
)

// addGuideFlags adds the flags that choose, per run, where the words come
// from. They fill the cli's one GuideFlags: a process runs one command.
func (c *cli) addGuideFlags(fl *pflag.FlagSet) {
	fl.StringVar(&c.guide.Guide, "guide", "", "who writes the words: "+human.OrList(app.Guides)+" (default: openai when OPENAI_API_KEY or a base URL is set)")
	fl.StringVar(&c.guide.Model, "model", "", "the LLM's model (default gpt-4.1-mini on OpenAI; required for other servers)")
	fl.BoolVar(&c.guide.Private, "private", false, "keep nothing at the provider: store: false, the history sent with each call")
	fl.BoolVar(&c.guide.KeepResponses, "keep-responses", false, "keep the stored responses at the provider when the session ends (they are deleted by default)")
}
