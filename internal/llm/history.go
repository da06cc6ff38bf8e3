package llm

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// promptBudget is the most one call without a stored chain sends, its
// instructions and input together, in estimated tokens (estimateTokens).
// With room for a reply of ten sentences it fits a local model with a
// 4,096-token context window; OpenAI's models have far more, and lose
// nothing they need: the newest lines go verbatim, the rest as a recap.
const promptBudget = 3200

// minBudget is the least the budget shrinks to after the server said its
// context was exceeded: below it there is no room for a recap at all.
const minBudget = 600

// estimateTokens is a cautious token count for English prose: 3.5
// characters a token, where OpenAI's rule of thumb says 4 (Llama-family
// tokenizers, common on local servers, cut finer).
func estimateTokens(s string) int { return (len(s)*2 + 6) / 7 }

// budgetChars is a budget in estimated tokens as characters.
func budgetChars(tokens int) int { return tokens * 7 / 2 }

// budget is how much a call without a stored chain may send now.
func (g *Guide) budget() int { return int(g.window.Load()) }

// shrink lowers the budget after a call of sent tokens was refused for its
// length: the next ones send three quarters of it, never less than
// minBudget. It reports whether anything changed.
func (g *Guide) shrink(sent int) bool {
	for {
		old := g.window.Load()
		next := max(min(old, int64(sent))*3/4, minBudget)
		if next >= old {
			return false
		}
		if g.window.CompareAndSwap(old, next) {
			g.log.Warn("the model's context is smaller than lull's budget: sending less history",
				slog.Int("tokens_sent", sent), slog.Int64("budget", next))
			return true
		}
	}
}

// said is one sentence the listener heard (or is about to), where, and
// what it mentioned (vocabulary).
type said struct {
	phase engine.Phase
	text  string
	about []int
}

// heard is everything said so far, pending sentences included.
func heard(req engine.Request, v *prompts.Vocabulary) []said {
	var out []said
	for _, e := range req.History {
		if e.Role == engine.RoleGuide {
			out = append(out, said{e.Phase, e.Text, v.Mentions(e.Text)})
		}
	}
	for _, p := range req.Pending {
		out = append(out, said{req.Phase, p, v.Mentions(p)})
	}
	return out
}

// historyTurns retell the session for a call with no stored memory, in at
// most budget estimated tokens with instr: the same user inputs the
// chained calls had and what was spoken after each, then the request.
// When the whole does not fit, the newest sentences are kept verbatim and
// the earlier ones become a short recap built here, from what they
// mentioned (no call to the model). Errors and notes in the history are
// not the model's business; the intention is in the request.
func (g *Guide) historyTurns(req engine.Request, instr string, budget int) []turn {
	lines := heard(req, g.vocabulary)
	final := turn{role: "user", text: g.message(req)}
	room := budgetChars(budget) - len(instr) - len(final.text)
	from := 0
	if retoldChars(g.retell(lines, 0)) > room {
		// Reserve room for a recap of everything, more than the recap of
		// whatever is dropped needs, then keep the newest lines that fit.
		reserve := len(g.prompts.Summary) + len(g.summary(lines))
		from = len(lines) - g.fitting(lines, room-reserve)
		for from < len(lines) && retoldChars(g.retell(lines, from)) > room {
			from++
		}
	}
	return merged(append(g.retell(lines, from), final))
}

// fitting is how many of the newest lines fit in room characters as
// retold, each phase adding the input that entered it.
func (g *Guide) fitting(lines []said, room int) int {
	used, n := 0, 0
	for i := len(lines) - 1; i >= 0; i-- {
		used += len(g.spoken(lines[i])) + 1
		if i == 0 || lines[i-1].phase != lines[i].phase {
			used += len(g.opening(lines[i].phase, false)) + 2
		}
		if used > room {
			break
		}
		n++
	}
	return n
}

// retoldChars is the length of a retelling as sent.
func retoldChars(turns []turn) int {
	n := 0
	for _, t := range turns {
		n += len(t.text) + 2
	}
	return n
}

// retell turns the lines from index from on into turns: a user input
// entering each phase, then what was said in it, one sentence per line.
// Lines before from are summarised in the first input.
func (g *Guide) retell(lines []said, from int) []turn {
	var out []turn
	if from > 0 {
		out = append(out, turn{role: "user", text: prompts.Fill(g.prompts.Summary, map[string]string{"summary": g.summary(lines[:from])})})
	}
	for i := from; i < len(lines); i++ {
		l := lines[i]
		if i == from || lines[i-1].phase != l.phase {
			out = append(out, turn{role: "user", text: g.opening(l.phase, i == 0)})
		}
		out = append(out, turn{role: "assistant", text: g.spoken(l)})
	}
	return merged(out)
}

// merged joins turns of the same role that follow each other: the
// sentences of a phase one per line, inputs as paragraphs.
func merged(turns []turn) []turn {
	var out []turn
	for _, t := range turns {
		if n := len(out); n > 0 && out[n-1].role == t.role {
			sep := "\n"
			if t.role == "user" {
				sep = "\n\n"
			}
			out[n-1].text += sep + t.text
			continue
		}
		out = append(out, t)
	}
	return out
}

// spoken is a sentence as the model wrote it: in breathing, with the
// breath tag it came with, so the model keeps to the format.
func (g *Guide) spoken(l said) string {
	if l.phase == engine.Breathing {
		if stage, ok := g.cues.stage(l.text); ok {
			return tagOf(stage) + " " + l.text
		}
	}
	return l.text
}

// summary recaps sentences no longer retold: per phase, how many there
// were and what they mentioned.
func (g *Guide) summary(lines []said) string {
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		var about [][]int
		for j < len(lines) && lines[j].phase == lines[i].phase {
			about = append(about, lines[j].about)
			j++
		}
		part := fmt.Sprintf("%s, %d sentences", lines[i].phase, j-i)
		if names := append(g.vocabulary.Named(about, true), g.vocabulary.Named(about, false)...); len(names) > 0 {
			part += " about " + strings.Join(names, ", ")
		}
		parts = append(parts, part)
		i = j
	}
	return strings.Join(parts, "; ")
}
