package llm

import "strings"

// price is US dollars per million tokens, in and out, as OpenAI lists them
// (standard tier). A session's cost is an estimate from these; a model not
// listed, or a server other than OpenAI's, counts as free.
type price struct{ in, out float64 }

// prices are matched by the longest prefix of the model's name, so a dated
// snapshot ("gpt-4.1-mini-2025-04-14") takes its family's price.
var prices = map[string]price{
	"gpt-4.1":      {2.00, 8.00},
	"gpt-4.1-mini": {0.40, 1.60},
	"gpt-4.1-nano": {0.10, 0.40},
	"gpt-4o":       {2.50, 10.00},
	"gpt-4o-mini":  {0.15, 0.60},
	"gpt-5":        {1.25, 10.00},
	"gpt-5-mini":   {0.25, 2.00},
	"gpt-5-nano":   {0.05, 0.40},
}

func cost(cfg Config, in, out int) float64 {
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
	return (float64(in)*p.in + float64(out)*p.out) / 1e6
}
