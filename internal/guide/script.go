package guide

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// item is one line of a phase's script as a session says it: every
// variant it could have said (any one said counts as the step said), and
// the one this session chose.
type item struct {
	key      string // the step's identity within the phase
	variants []string
	line     string
	breath   string
	optional bool
	journey  bool // the journey's own step: rests go among these
	short    bool // a short pause after it, and the next step always with it
	releases bool // hands the breath back: no rest follows it
	rest     bool // said between steps when the phase has room
}

// intentionKey is the key of the step that says the session's intention.
const intentionKey = "intention"

// intention reports whether the item is the intention's line.
func (it item) intention() bool { return it.key == intentionKey }

// phasePlan is one phase of one session: its steps in order, its rests
// and its lead, each with its line chosen.
type phasePlan struct {
	breathing bool
	drift     bool // a sleep session's resolution
	// keepsIntention: a phase too short for all its steps keeps the
	// intention's line: the opening, where the listener's reason is heard
	// within the first minute, relaxation, which opens with it, and a drift
	// toward sleep. A waking close says it in its lead.
	keepsIntention bool
	// owesIntention: a phase whose intention's line is still unsaid when it
	// winds down says it then, in its place: the sensory phase ends on it
	// and relaxation opens with it (thinned evenly, they dropped it in
	// every session of 20 minutes or less, and a reader heard "calm before
	// a talk" named and then not served).
	owesIntention bool
	opening       bool // the atmosphere: thinned, it keeps its first steps (the posture, the eyes)
	closing       bool // a waking resolution: thinned, it keeps its journey's goodbye
	steps         []item
	rests         []item
	lead          []item
	// brief is the same phase with the journey's brief in place of its
	// steps (nil when it gives none): see forRoom.
	brief *phasePlan
}

// session is what a request's session is: the kind of its intention, its
// journey, and the listener's words when they may be quoted.
type session struct {
	kind    *prompts.Kind
	journey *prompts.Journey
	quote   string
}

func (b *Builtin) session(req engine.Request) session {
	kind := kindOf(b.m, req.Intention)
	s := session{kind: kind, journey: b.journeyFor(kind, req.Sleep, req.Seed)}
	if kind != b.m.General {
		// Words lull could not read ("hello", "asdf") are not said back.
		s.quote = b.quotable(req.Intention)
	}
	return s
}

// journeyFor is the journey a session takes: of those that suit its kind
// (any, with no intention), the one taken least recently; on a tie the
// kind's first choice, or with no kind the seed's.
func (b *Builtin) journeyFor(kind *prompts.Kind, sleep bool, seed int64) *prompts.Journey {
	var names []string
	if kind != nil && kind != b.m.General {
		names = kind.Journeys
	} else {
		for _, j := range b.m.Journeys {
			names = append(names, j.Name)
		}
		slices.SortStableFunc(names, func(x, y string) int {
			return cmp.Compare(hash(seed, "journey", x), hash(seed, "journey", y))
		})
	}
	var best *prompts.Journey
	bestAge := -1
	for _, name := range names {
		j, ok := b.m.Journey(name)
		if !ok || (j.SleepOnly && !sleep) {
			continue
		}
		if a := b.journeyAge[name]; a > bestAge {
			best, bestAge = j, a
		}
	}
	if best == nil {
		best = b.m.Journeys[0]
	}
	return best
}

// planKey is what a phase's plan depends on.
type planKey struct {
	phase     engine.Phase
	seed      int64
	intention string
	sleep     bool
	breath    engine.BreathPattern
}

// plan is phase p of the session the request belongs to, laid out once:
// the engine asks for the same phase many times over.
func (b *Builtin) plan(req engine.Request) *phasePlan {
	key := planKey{req.Phase, req.Seed, req.Intention, req.Sleep, req.Breath}
	b.mu.Lock()
	pp, ok := b.plans[key]
	b.mu.Unlock()
	if ok {
		return pp
	}
	pp = b.layOut(req)
	b.mu.Lock()
	b.plans[key] = pp
	b.mu.Unlock()
	return pp
}

// layOut lays out phase p of the session the request belongs to.
func (b *Builtin) layOut(req engine.Request) *phasePlan {
	s := b.session(req)
	p := int(req.Phase)
	base := prompts.Over(b.m.Skeleton[p], sleepPart(b.m.Sleep[p], req.Sleep))
	jp := prompts.Over(s.journey.Phases[p], sleepPart(s.journey.Sleep[p], req.Sleep))
	pp := &phasePlan{breathing: req.Phase == engine.Breathing, drift: req.Sleep && req.Phase == engine.Resolution}
	pp.opening = req.Phase == engine.Atmosphere
	pp.closing = req.Phase == engine.Resolution && !req.Sleep
	pp.keepsIntention = pp.drift || pp.opening || req.Phase == engine.Relaxation
	pp.owesIntention = req.Phase == engine.Sensory || req.Phase == engine.Relaxation
	used := map[string]bool{}
	last := "" // the step chosen before, in the script's order
	choose := func(key string, variants []string, st prompts.Step, journey bool) item {
		it := item{key: key, variants: variants, breath: st.Breath, optional: st.Optional, journey: journey, short: st.ShortPause, releases: st.Releases}
		it.line = b.pick(req.Seed, key, variants, used, last)
		used[it.line], last = true, it.line
		return it
	}
	keep := func(st prompts.Step) bool { return st.SaidWith(req.Breath.Hold > 0, req.Breath.HoldOut > 0) }
	render := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = sayCounts(l, req.Breath)
		}
		return out
	}
	intention := func(list *[]item) {
		if lines := b.intentionLines(s, req); len(lines) > 0 {
			*list = append(*list, choose(intentionKey, lines, prompts.Step{}, false))
		}
	}
	add := func(list *[]item, prefix string, steps []prompts.Step, journey bool) {
		for i, st := range steps {
			if st.From == prompts.FromIntention {
				intention(list)
				continue
			}
			if !keep(st) || st.Sometimes && !b.saysNow(req.Seed, prefix+st.Name, st.Say, journey, s.journey) {
				continue
			}
			name := st.Name
			if name == "" {
				name = strings.Repeat("·", i+1)
			}
			say := st.Say
			if own, ok := jp.InsteadOf(st.Name); ok && !journey && st.Name != "" {
				say = own.Say // the journey's own wording of a skeleton step
			}
			it := choose(prefix+name, render(say), st, journey)
			if req.Phase == engine.Breathing {
				for _, v := range it.variants {
					b.tag(v, st.Breath)
				}
			}
			if st.ShortPause {
				b.mark(it.variants)
			}
			*list = append(*list, it)
		}
	}
	for _, st := range base.InOrder(int(hash(req.Seed, "order", prompts.PhaseNames[p]) % uint64(len(base.Orders)+1))) {
		switch st.From {
		case prompts.FromJourney:
			add(&pp.steps, "journey/", jp.Steps, true)
		case prompts.FromIntention:
			intention(&pp.steps)
		default:
			add(&pp.steps, "", []prompts.Step{st}, false)
		}
	}
	last = ""
	// A waking journey that turns the senses its own way (a place to its
	// scene, the counting journey inward to the breath) is padded with its
	// own rests alone, and past them with longer silences: the skeleton's
	// general lines about sensation broke its thread (a reader heard "Any
	// temperature you notice" between two lines of rain, and four such
	// lines in a row in a long lake). Asleep, the sleep skeleton's drowsy
	// rests still fill what the journey cannot.
	if _, own := jp.InsteadOf("turn"); !own || req.Sleep || len(jp.Rests) == 0 {
		add(&pp.rests, "rest/", base.Rests, false)
	}
	const journeyRest = "journey-rest/" // the key's prefix of the journey's own rests
	add(&pp.rests, journeyRest, jp.Rests, false)
	// Rests come least recently heard first, then in the session's own
	// order: a long phase says the ones the listener has not heard lately.
	// In breathing the journey's own come before the skeleton's.
	own := func(it item) bool { return !pp.breathing && strings.HasPrefix(it.key, journeyRest) }
	slices.SortStableFunc(pp.rests, func(x, y item) int {
		if ox, oy := own(x), own(y); ox != oy {
			if ox {
				return -1
			}
			return 1
		}
		if ax, ay := b.ages.age(x.line), b.ages.age(y.line); ax != ay {
			return cmp.Compare(ay, ax)
		}
		if sx, sy := b.recent.stale(x.line), b.recent.stale(y.line); sx != sy {
			if sy {
				return -1
			}
			return 1
		}
		return cmp.Compare(hash(req.Seed, "rest", x.key), hash(req.Seed, "rest", y.key))
	})
	for i := range pp.rests {
		pp.rests[i].rest = true
	}
	if pp.breathing {
		pp.rests = freshFirst(pp.steps, pp.rests)
	}
	lead := base.Lead
	if req.Phase != engine.Resolution && len(jp.Lead) > 0 {
		lead = jp.Lead // a journey leads onward in its own words; the close is the skeleton's
	}
	add(&pp.lead, "lead/", lead, false)
	if len(jp.Brief) > 0 {
		var brief []item
		last = ""
		add(&brief, "journey-brief/", jp.Brief, true)
		// The brief takes the place of the journey's steps, where they begin.
		short := *pp
		short.steps = nil
		first := slices.IndexFunc(pp.steps, func(it item) bool { return it.journey })
		for i, it := range pp.steps {
			switch {
			case !it.journey:
				short.steps = append(short.steps, it)
			case i == first:
				short.steps = append(short.steps, brief...)
			}
		}
		pp.brief = &short
	}
	return pp
}

// saysNow reports whether a step said only sometimes is said in the
// session with this seed: always when it would be new to the listener (a
// journey's, when they have not taken the journey; the skeleton's, when
// they have heard none of its variants), else one session in three.
func (b *Builtin) saysNow(seed int64, key string, say []string, journeys bool, j *prompts.Journey) bool {
	if journeys && b.journeyAge[j.Name] == never || !journeys && !slices.ContainsFunc(say, func(v string) bool { return b.ages.age(v) != never }) {
		return true
	}
	return hash(seed, "sometimes", key)%3 == 0
}

// forRoom is the plan a phase follows when its body has room for w
// lines: the journey's brief when it gives one and its steps would have
// to be thinned (a body scan in a few sweeps, not a few scattered stops),
// else its steps. Once either path has begun, the phase keeps to it.
func (pp *phasePlan) forRoom(w int, said map[string]bool) *phasePlan {
	if pp.brief == nil {
		return pp
	}
	begun := func(p *phasePlan) bool {
		return slices.ContainsFunc(p.steps, func(it item) bool { return it.journey && it.said(said) })
	}
	switch {
	case begun(pp.brief):
		return pp.brief
	case begun(pp):
		return pp
	}
	if required, _ := pp.units(); w < size(required) {
		return pp.brief
	}
	return pp
}

// owed is what a shortened phase must still say before it leads on: in
// the opening, the intention's line while it is unsaid (the listener
// hears their reason within the first minute), else the end of the
// journey's path, and in a phase that owes its intention (see
// owesIntention) that line too, in script order.
func (pp *phasePlan) owed(said map[string]bool) []item {
	k := slices.IndexFunc(pp.steps, item.intention)
	unsaid := k >= 0 && !pp.steps[k].said(said)
	if pp.opening && unsaid {
		return pp.steps[k : k+1]
	}
	end := pp.pathEnd(said)
	if !pp.owesIntention || !unsaid {
		return end
	}
	// In its place before or after the path's end.
	if len(end) > 0 && pp.stepAt(end[0].line) > k {
		return append([]item{pp.steps[k]}, end...)
	}
	return append(slices.Clone(end), pp.steps[k])
}

// pathEnd is the journey's last required step in the phase when it is
// still unsaid, with the tensing step before it when it is a release:
// the end of the path, which a shortened phase must still reach.
func (pp *phasePlan) pathEnd(said map[string]bool) []item {
	k := -1
	for i, it := range pp.steps {
		if it.journey && !it.optional {
			k = i
		}
	}
	if k < 0 || pp.steps[k].said(said) {
		return nil
	}
	if slices.ContainsFunc(pp.steps[k+1:], func(it item) bool { return it.journey && it.said(said) }) {
		return nil // the path is past it: said now, it would go back
	}
	if k > 0 && pp.steps[k-1].short && !pp.steps[k-1].said(said) {
		return pp.steps[k-1 : k+1]
	}
	return pp.steps[k : k+1]
}

// releasing are the phase's steps that hand the breath back.
func (pp *phasePlan) releasing() []item {
	return slices.DeleteFunc(slices.Clone(pp.steps), func(it item) bool { return !it.releases })
}

// stepAt is where the step whose chosen line is line stands in the
// phase's script (-1 for a rest, a lead line or none).
func (pp *phasePlan) stepAt(line string) int {
	return slices.IndexFunc(pp.steps, func(it item) bool { return it.line == line })
}

// heldBy is the step that completes line's, when line's step keeps the
// next with it (a muscle tensed, then released) and that one is unsaid.
func (pp *phasePlan) heldBy(line string, said map[string]bool) (item, bool) {
	lists := [][]item{pp.steps}
	if pp.brief != nil {
		lists = append(lists, pp.brief.steps)
	}
	for _, steps := range lists {
		for i, it := range steps[:max(len(steps)-1, 0)] {
			if it.short && slices.Contains(it.variants, line) && !steps[i+1].said(said) {
				return steps[i+1], true
			}
		}
	}
	return item{}, false
}

// item is the phase's step, rest or lead line whose variants hold line.
func (pp *phasePlan) item(line string) (item, bool) {
	lists := [][]item{pp.steps, pp.rests, pp.lead}
	if pp.brief != nil {
		lists = append(lists, pp.brief.steps)
	}
	for _, list := range lists {
		for _, it := range list {
			if slices.Contains(it.variants, line) {
				return it, true
			}
		}
	}
	return item{}, false
}

// openingWord is a line's first word, lower-cased.
func openingWord(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func sleepPart(ps *prompts.PhaseScript, sleep bool) *prompts.PhaseScript {
	if !sleep {
		return nil
	}
	return ps
}

// intentionLines are the lines a session may say for its intention in
// the request's phase: the listener's own words, when they may be quoted
// and the phase quotes, else the lines written for the kind.
func (b *Builtin) intentionLines(s session, req engine.Request) []string {
	k := s.kind
	if k == nil {
		return nil
	}
	phase := req.Phase.String()
	if s.quote != "" && !(req.Sleep && req.Phase == engine.Resolution) {
		var out []string
		for _, q := range k.Quote[phase] {
			// "a quiet mind on your mind": a frame that says one of the
			// listener's words again reads as a stammer.
			if !echoes(q, s.quote) {
				out = append(out, strings.Replace(q, prompts.Quote, s.quote, 1))
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	if req.Sleep && req.Phase == engine.Resolution && !k.Sleep {
		return k.ResolutionSleep // waking words have no place in a drift to sleep
	}
	return k.Lines[phase]
}

// echoes reports whether a quote line's own words repeat a word of the
// listener's (one of four letters or more).
func echoes(frame, words string) bool {
	own := intentionWords(strings.Replace(frame, prompts.Quote, " ", 1))
	for _, w := range intentionWords(words) {
		if len(w) >= 4 && slices.Contains(own, w) {
			return true
		}
	}
	return false
}

// pick chooses a step's line, never one the session says elsewhere: at
// random (by the seed) among the third of its variants heard least
// recently, one that does not open as after (the line before it) when
// there is one. Always the very least recent would turn every step over
// in lockstep: steps with as many variants would bring back the session
// of that many days before, line for line.
func (b *Builtin) pick(seed int64, key string, variants []string, used map[string]bool, after string) string {
	var free []string
	for _, v := range variants {
		if !used[v] {
			free = append(free, v)
		}
	}
	if len(free) == 0 {
		if len(variants) > 0 {
			return variants[0] // every variant said elsewhere: the step counts as said
		}
		return ""
	}
	slices.SortStableFunc(free, func(x, y string) int { return cmp.Compare(b.ages.age(y), b.ages.age(x)) })
	k := max(1, (len(free)+2)/3)
	for k < len(free) && b.ages.age(free[k]) == b.ages.age(free[k-1]) {
		k++ // as old as the last one in: a tie is not broken by order
	}
	top := free[:k]
	if other := slices.DeleteFunc(slices.Clone(top), b.recent.stale); len(other) > 0 {
		top = other // a phrase heard too often this week would be one more time
	}
	if other := slices.DeleteFunc(slices.Clone(top), func(v string) bool { return openingWord(v) == openingWord(after) }); len(other) > 0 {
		top = other // said as planned, it needs no other words (see phrase)
	}
	best, bestHash := "", uint64(0)
	for _, v := range top {
		if h := hash(seed, key, v); best == "" || h > bestHash {
			best, bestHash = v, h
		}
	}
	return best
}

// hash mixes a session's seed with what is being chosen.
func hash(seed int64, parts ...string) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	for i := range buf {
		buf[i] = byte(seed >> (8 * i))
	}
	h.Write(buf[:])
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	// fnv's low bits mix poorly on short inputs: fold the high half in.
	x := h.Sum64()
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>32
}
