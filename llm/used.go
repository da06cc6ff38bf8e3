package llm

import (
	"regexp"
	"strings"

	"lull/engine"
	"lull/prompts"
)

// vocabulary finds, in what the model said, the body parts and images of
// prompts/llm/vocabulary.yaml, so each call can name what was already
// used and a long phase moves on instead of looping.
type vocabulary struct {
	body, images []term
}

type term struct {
	name string
	re   *regexp.Regexp
}

func newVocabulary(p *prompts.LLM) vocabulary {
	compile := func(ts []prompts.Term) []term {
		out := make([]term, len(ts))
		for i, t := range ts {
			alts := make([]string, len(t.Words))
			for j, w := range t.Words {
				alts[j] = strings.Join(strings.Fields(regexp.QuoteMeta(w)), `\s+`)
			}
			out[i] = term{name: t.Name, re: regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)\b`)}
		}
		return out
	}
	return vocabulary{body: compile(p.Body), images: compile(p.Images)}
}

// mentioned are the terms the texts mention, in the order of their first
// mention.
func mentioned(terms []term, texts []string) []string {
	found := make([]bool, len(terms))
	var out []string
	for _, text := range texts {
		for i, t := range terms {
			if !found[i] && t.re.MatchString(text) {
				found[i] = true
				out = append(out, t.name)
			}
		}
	}
	return out
}

// used is what the session has already said that a call should not go
// back to: the body parts of this phase, and the images of the whole
// session.
func (v vocabulary) used(req engine.Request) []string {
	var phase, session []string
	for _, e := range req.History {
		if e.Role != engine.RoleGuide {
			continue
		}
		session = append(session, e.Text)
		if e.Phase == req.Phase {
			phase = append(phase, e.Text)
		}
	}
	phase = append(phase, req.Pending...)
	session = append(session, req.Pending...)
	return append(mentioned(v.body, phase), mentioned(v.images, session)...)
}
