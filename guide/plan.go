package guide

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"lull/engine"
	"lull/prompts"
)

// bodySteps are the grounding steps resolution says in its body: fingers
// and toes, room sounds, the surface. The rest (eyes, warm close) close it.
const bodySteps = 3

// plan is one phase of one session: its material in the session's seeded
// order. It is rebuilt for every call from the seed, so the same request
// always gives the same words.
type plan struct {
	opening  string   // the phase's first sentence in this session
	openings []string // every alternative: any one said counts
	body     []string // lines, in the order this session says them
	lead     []string // wind-down lines, in order
	// scan and rank are set when the lines must keep their written order
	// (a body scan): rank is each line's place in the seeded order.
	scan []string
	rank map[string]int
	// intention is the expanded intention line this session says in the
	// phase; any of intentions said counts as said.
	intention   string
	intentions  []string
	intentionAt int        // the body index from which the intention is due
	steps       [][]string // resolution: every alternative of each step
	chosen      []string   // resolution: the alternative said for each step
}

func newPlan(m *prompts.Phase, req engine.Request, safety *engine.Safety) *plan {
	// The golden-ratio constant spreads the phases' streams apart.
	rng := rand.New(rand.NewPCG(uint64(req.Seed), 0x9e3779b97f4a7c15*uint64(req.Phase+1)))
	pl := &plan{}
	intention := cleanIntention(req.Intention)

	order := rng.Perm(len(m.Lines))
	for _, i := range order {
		pl.body = append(pl.body, m.Lines[i])
	}
	if m.KeepOrder {
		pl.scan = m.Lines
		pl.rank = make(map[string]int, len(order))
		for r, i := range order {
			pl.rank[m.Lines[i]] = r
		}
	}
	for _, i := range rng.Perm(len(m.WindDown)) {
		pl.lead = append(pl.lead, m.WindDown[i])
	}

	if len(m.Opening) > 0 {
		pl.openings = m.Opening
		pl.opening = m.Opening[rng.IntN(len(m.Opening))]
	}

	// Drawn whether or not there is an intention, so that writing one does
	// not reshuffle what comes after. The intention follows the opening
	// closely: the second or third sentence of the phase.
	first, at := rng.IntN(len(m.Intention)), 1+rng.IntN(2)
	if intention != "" {
		pl.intentionAt = at
		for k := range m.Intention {
			line := strings.Replace(m.Intention[k], prompts.Placeholder, intention, 1)
			pl.intentions = append(pl.intentions, line)
		}
		// A listener's words can trip the safety check ("a cure for...") or
		// the splitter ("...with Dr"): a line the engine would drop or merge
		// would only be asked for again.
		for k := range m.Intention {
			if line := pl.intentions[(first+k)%len(m.Intention)]; speakable(line, safety) {
				pl.intention = line
				break
			}
		}
	}

	if g := m.Grounding; g != nil {
		pl.steps = g.Steps()
		for _, alts := range pl.steps {
			pl.chosen = append(pl.chosen, alts[rng.IntN(len(alts))])
		}
	}
	return pl
}

// call is what one request says.
func (pl *plan) call(req engine.Request) []string {
	said := map[string]bool{}
	heard := 0
	for _, e := range req.History {
		if e.Role != engine.RoleGuide {
			continue
		}
		said[e.Text] = true
		if e.Phase == req.Phase {
			heard++
		}
	}
	// The engine reads a sentence ahead while one plays: a request can count
	// sentences as spoken that are not in History yet. Work them out again
	// so they are not said twice. A body call that is asked again after one
	// that ran to its end follows a body exactly Spoken long: lay the replay
	// out for that length, as the budget may have been replanned since.
	// When a shrinking budget cut the body instead, the replay may guess
	// wrong, but only before a wind-down call, whose lines a body line
	// cannot be (resolution's budget is never replanned).
	for i := heard; i < req.Spoken; i++ {
		if s := pl.bodyAt(i, req.Spoken, said); s != "" {
			said[s] = true
		}
	}
	w := req.Budget.WindDownAt
	var out []string
	say := func(s string) {
		out = append(out, s)
		said[s] = true
	}
	switch {
	case !req.WindDown:
		for i := req.Spoken; i < w || pl.stepMissing(said, bodySteps); i++ {
			s := pl.bodyAt(i, w, said)
			if s == "" {
				break
			}
			say(s)
		}
	case pl.steps != nil:
		// The close always runs whole, whatever the budget; should the
		// engine have cut the body short, its grounding steps come first.
		for j := range pl.steps {
			if !pl.stepSaid(j, said) {
				say(pl.chosen[j])
			}
		}
	default:
		n := max(1, req.Budget.Sentences-req.Spoken)
		for _, s := range pl.lead {
			if len(out) == n {
				break
			}
			if !said[s] {
				say(s)
			}
		}
	}
	return out
}

// bodyAt is the body sentence at index i, w being the body's length.
// Resolution spreads its body grounding evenly, the last step closing the
// body, and catches up when too few slots are left. The opening and the
// intention come early; when there is room for only one, the intention.
func (pl *plan) bodyAt(i, w int, said map[string]bool) string {
	next, missing := -1, 0
	for j := range min(bodySteps, len(pl.steps)) {
		if !pl.stepSaid(j, said) {
			missing++
			if next < 0 {
				next = j
			}
		}
	}
	free := w - i - missing // slots left for anything but grounding
	owed := pl.intention != "" && !anySaid(pl.intentions, said)
	opening := pl.openingDue(i, said) && (free >= 2 || !owed)
	if next >= 0 && (free <= 0 || i >= (next+1)*w/bodySteps-1 && !opening) {
		return pl.chosen[next]
	}
	switch {
	case opening:
		return pl.opening
	case owed && (i >= min(pl.intentionAt, w/2) || free <= 1):
		// Within the first half of a short body: the clock may yet shorten it.
		return pl.intention
	}
	line := firstUnsaid(pl.body, said)
	if pl.scan != nil {
		if owed {
			free--
		}
		line = pl.scanAt(max(free, 1), said)
	}
	if line == "" && next >= 0 {
		return pl.chosen[next]
	}
	return line
}

// openingDue reports whether sentence i opens the phase. A phase taken up
// part-way, after another guide, goes on without one.
func (pl *plan) openingDue(i int, said map[string]bool) bool {
	return i == 0 && pl.opening != "" && !anySaid(pl.openings, said)
}

// scanAt is the next line of a body scan with room for slots more: of the
// lines below the last one said, the slots best placed in the seeded order
// are the ones to say, top to bottom. However the budget moves, the scan
// only travels onward. Should the body grow once the scan has reached its
// last line, it travels back the other way, from the head down.
func (pl *plan) scanAt(slots int, said map[string]bool) string {
	last := -1
	for k, s := range pl.scan {
		if said[s] {
			last = k
		}
	}
	ahead := unsaid(pl.scan[last+1:], said)
	if len(ahead) == 0 {
		ahead = unsaid(pl.scan, said)
		slices.Reverse(ahead)
	}
	if len(ahead) == 0 {
		return ""
	}
	best := slices.Clone(ahead)
	slices.SortFunc(best, func(a, b string) int { return pl.rank[a] - pl.rank[b] })
	best = best[:min(slots, len(best))]
	for _, s := range ahead {
		if slices.Contains(best, s) {
			return s // the nearest in the scan's direction
		}
	}
	return ""
}

func (pl *plan) stepSaid(j int, said map[string]bool) bool { return anySaid(pl.steps[j], said) }

// stepMissing reports whether any of the first n grounding steps is unsaid.
func (pl *plan) stepMissing(said map[string]bool, n int) bool {
	for j := range min(n, len(pl.steps)) {
		if !pl.stepSaid(j, said) {
			return true
		}
	}
	return false
}

func firstUnsaid(lines []string, said map[string]bool) string {
	for _, s := range lines {
		if !said[s] {
			return s
		}
	}
	return ""
}

func unsaid(lines []string, said map[string]bool) []string {
	var out []string
	for _, s := range lines {
		if !said[s] {
			out = append(out, s)
		}
	}
	return out
}

func anySaid(lines []string, said map[string]bool) bool {
	return slices.ContainsFunc(lines, func(s string) bool { return said[s] })
}

var (
	// innerStop is punctuation that would end a sentence inside a line.
	innerStop = regexp.MustCompile(`\s*[.!?…]+(\s+|$)`)
	// dotted is a full stop inside a word, as in "a.m": the one after it
	// would read as an abbreviation's and run two sentences together.
	dotted = regexp.MustCompile(`(\pL)\.(\pL)`)
)

// cleanIntention makes the listener's words fit inside a sentence: one
// line, no full stop of its own ("letting go of a hard week." reads
// "letting go of a hard week"), nothing the splitter would cut at.
func cleanIntention(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for dotted.MatchString(s) {
		s = dotted.ReplaceAllString(s, "$1$2")
	}
	s = strings.TrimRight(s, ".!?…;:, ")
	return innerStop.ReplaceAllString(s, ", ")
}

// speakable reports whether an intention line will be spoken as written:
// it passes the safety check, and the engine hears it as one sentence.
func speakable(line string, safety *engine.Safety) bool {
	if safety.Check(line).Flagged() {
		return false
	}
	var sp engine.Splitter
	heard := append(sp.Feed(line+" Next."), sp.Flush()...)
	return len(heard) == 2 && heard[0] == line
}
