package llm

import (
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// price is US dollars per million tokens — input, cached input, output —
// as OpenAI lists them (standard tier). A session's cost is an estimate
// from these; a model not listed, or a server other than OpenAI's, counts
// as free.
//
// Cached input is what OpenAI's model pages list under "Text tokens"
// (developers.openai.com/api/docs/models/<model>; gpt-5-nano's, read in
// November 2026: $0.05 input, $0.005 cached input, $0.40 output); the
// others agree with GitHub's Copilot price table and AI gateways' listings
// of the same models: a quarter of the input price for gpt-4.1, half for
// gpt-4o, a tenth for gpt-5.
type price struct{ in, cached, out float64 }

// prices are matched by the longest prefix of the model's name, so a dated
// snapshot ("gpt-4.1-mini-2025-04-14") takes its family's price.
var prices = map[string]price{
	"gpt-4.1":      {2.00, 0.50, 8.00},
	"gpt-4.1-mini": {0.40, 0.10, 1.60},
	"gpt-4.1-nano": {0.10, 0.025, 0.40},
	"gpt-4o":       {2.50, 1.25, 10.00},
	"gpt-4o-mini":  {0.15, 0.075, 0.60},
	"gpt-5":        {1.25, 0.125, 10.00},
	"gpt-5-mini":   {0.25, 0.025, 2.00},
	"gpt-5-nano":   {0.05, 0.005, 0.40},
}

// cost estimates what a call's tokens cost: of its input, the tokens the
// provider served from its prompt cache at the cached price, the rest at
// the full one.
func cost(cfg Config, t engine.Tokens) float64 {
	if !IsOpenAI(cfg.BaseURL) {
		return 0
	}
	best := ""
	for name := range prices {
		if strings.HasPrefix(cfg.Model, name) && len(name) > len(best) {
			best = name
		}
	}
	if best == "" {
		return 0
	}
	p := prices[best]
	cached := min(max(t.Cached, 0), t.In)
	return (float64(t.In-cached)*p.in + float64(cached)*p.cached + float64(t.Out)*p.out) / 1e6
}
