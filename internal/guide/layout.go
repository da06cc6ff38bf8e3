package guide

import (
	"slices"

	"github.com/lull-dev/lull/internal/prompts"
)

// body lays the phase's body out for w lines: every required step; when
// there is room, optional steps spread evenly through the script; when
// there is more, rests spread evenly among the journey's steps. When there
// is less room than required steps, they are thinned (see thin).
func (pp *phasePlan) body(w int) []item {
	required, optional := pp.units()
	if w <= size(required) {
		return pp.thin(required, w)
	}
	var chosen []int
	for _, u := range required {
		chosen = append(chosen, u...)
	}
	room := w - size(required)
	for _, i := range spread(len(optional), min(room*len(optional)/max(1, size(optional)), len(optional))) {
		chosen = append(chosen, optional[i]...)
	}
	slices.Sort(chosen)
	var steps []item
	for _, i := range chosen {
		steps = append(steps, pp.steps[i])
	}
	room = w - len(steps)
	if room <= 0 {
		return steps
	}
	// Rests are laid out whole: in breathing a breath at a time, an
	// in-breath rest with the out-breath rest after it.
	var runs [][]item
	for i, lines := 0, 0; i < len(pp.rests); {
		j := i + 1
		if pp.breathing && pp.rests[i].breath == prompts.BreathIn && j < len(pp.rests) && pp.rests[j].breath == prompts.BreathOut {
			j++
		}
		if lines += j - i; lines > room {
			break
		}
		runs = append(runs, pp.rests[i:j])
		i = j
	}
	gaps := restGaps(steps, pp.breathing)
	if !pp.breathing {
		// A breathing rest is a cue to one breath, and a run of them is
		// paced breathing; anywhere else a run of reassurances is filler.
		runs = runs[:min(len(runs), maxRestsInARow*len(gaps))]
	}
	if len(runs) == 0 || len(gaps) == 0 {
		return steps
	}
	var out []item
	r, next, g := len(runs), 0, 0
	for j, it := range steps {
		out = append(out, it)
		if g < len(gaps) && gaps[g] == j {
			for range (g+1)*r/len(gaps) - g*r/len(gaps) {
				out = append(out, runs[next]...)
				next++
			}
			g++
		}
	}
	return out
}

// units groups the phase's steps into what is said or left out whole: a
// step with a short pause and the step after it; a breath — a step and
// those after it said on later parts of the same breath; any other step
// alone.
// Each unit is the indices of its steps.
func (pp *phasePlan) units() (required, optional [][]int) {
	for i := 0; i < len(pp.steps); i++ {
		unit := []int{i}
		for i+1 < len(pp.steps) && (pp.steps[i].short ||
			pp.breathing && continues(pp.steps[i], pp.steps[i+1])) {
			unit = append(unit, i+1)
			i++
		}
		if pp.steps[unit[0]].optional {
			optional = append(optional, unit)
		} else {
			required = append(required, unit)
		}
	}
	return required, optional
}

// continues says whether next is said on the same breath as it: on a
// later part of it (the engine's stages come in the breath's order). An
// out-breath line after another is the next breath's; after an in-breath
// or a hold, it ends that one.
func continues(it, next item) bool {
	a, okA := stages[it.breath]
	b, okB := stages[next.breath]
	return okA && okB && b > a
}

// size is how many steps the units hold.
func size(units [][]int) int {
	n := 0
	for _, u := range units {
		n += len(u)
	}
	return n
}

// thin lays out a body with less room (w) than its required steps.
// Where the skeleton has steps of its own (atmosphere, breathing,
// resolution), they are what the phase cannot do without — a return
// begins with fingers and toes — so the journey's touches give way first,
// the last first, then the intention's line; what is left is thinned
// evenly, the first and the last kept. The opening keeps its first steps
// instead (the posture, the eyes), and its intention's line when it has
// three lines or more (the listener hears their reason in the first
// minute; a shorter one says it in its wind-down, see owed); a drift
// toward sleep keeps its intention's line too: its own steps are the
// gentlest of comforts, one much like the next. A waking close keeps its
// journey's goodbye the same way: it undoes what the journey did (the
// heaviness lifted, the scan put down). Any other phase keeps its
// journey's first and last steps (see keepEnds).
func (pp *phasePlan) thin(required [][]int, w int) []item {
	first := func(u []int) item { return pp.steps[u[0]] }
	own := func(u []int) bool { it := first(u); return !it.journey && !it.intention() }
	journey := func(u []int) bool { return first(u).journey }
	// An opening of two lines or fewer says the posture and the eyes.
	keeps := pp.keepsIntention && (!pp.opening || w >= 3)
	// A waking close's journey steps give way, but for its goodbye.
	goodbye := ""
	if i := slices.IndexFunc(required, journey); pp.closing && i >= 0 {
		goodbye = first(required[i]).key
	}
	if len(slices.DeleteFunc(slices.Clone(required), func(u []int) bool { return !own(u) })) >= 2 {
		gives := []func(item) bool{func(it item) bool { return it.journey && it.key != goodbye }, item.intention}
		if keeps {
			gives = gives[:1]
		}
		for _, gives := range gives {
			for size(required) > w {
				i := len(required) - 1
				for i >= 0 && !gives(first(required[i])) {
					i--
				}
				if i < 0 {
					break
				}
				required = slices.Delete(required, i, i+1)
			}
		}
	}
	var picked []int
	others := required
	if kept := slices.IndexFunc(required, func(u []int) bool { return first(u).intention() }); keeps && kept >= 0 && size(required) > w {
		picked = slices.Clone(required[kept]) // kept aside, and put back in its place
		others = slices.Delete(slices.Clone(required), kept, kept+1)
		w--
	} else if g := slices.IndexFunc(required, journey); goodbye != "" && g >= 0 && size(required) > w {
		picked = slices.Clone(required[g]) // the goodbye, kept aside like the intention
		others = slices.Delete(slices.Clone(required), g, g+1)
		w -= len(picked)
	}
	k := max(1, w*len(others)/max(1, size(others)))
	var chosen []int
	if pp.opening {
		// The opening's first steps are what a session cannot begin without.
		chosen = spread(len(others), len(others))[:min(len(others), k)]
	} else {
		chosen = keepEnds(spread(len(others), k), slices.IndexFunc(others, journey), lastIndexFunc(others, journey))
	}
	for _, i := range chosen {
		picked = append(picked, others[i]...)
	}
	slices.Sort(picked)
	var out []item
	for _, k := range picked {
		out = append(out, pp.steps[k])
	}
	return out
}

// keepEnds makes sure a thinned choice holds the journey's first and last
// steps (indices a and b; -1 for none), each in place of the chosen index
// nearest it: a path is walked from its start to its end, its middle
// thinned.
func keepEnds(chosen []int, a, b int) []int {
	chosen = slices.Clone(chosen)
	for _, e := range []int{a, b} {
		if e < 0 || slices.Contains(chosen, e) {
			continue
		}
		near := -1
		for i, c := range chosen {
			if c == a || c == b {
				continue
			}
			if near < 0 || abs(c-e) < abs(chosen[near]-e) {
				near = i
			}
		}
		if near >= 0 {
			chosen[near] = e
		}
	}
	slices.Sort(chosen)
	return chosen
}

func abs(n int) int { return max(n, -n) }

func lastIndexFunc[S ~[]E, E any](s S, f func(E) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// maxRestsInARow bounds the rests between two steps: past it, a long
// phase is left to its silences.
const maxRestsInARow = 2

// restGaps are where rests may go, as the index of the step they follow:
// from the third step on (in breathing, from the journey's first step,
// once the counts are taught, and only between breaths), never between a
// step held briefly and the one after it, and never after one that hands
// the breath back: a rest cues the breath, and would take it again. After
// the last step only when there is no other place: a journey's last step
// gathers its phase up ("the whole body at once"), and a reader heard the
// rests that followed it as filler before the phase led on.
func restGaps(steps []item, breathing bool) []int {
	from := min(2, len(steps)-1)
	if j := slices.IndexFunc(steps, func(it item) bool { return it.journey }); breathing || (j >= 0 && j < from) {
		from = j
		if from < 0 {
			from = len(steps) - 1
		}
	}
	var gaps []int
	for j := from; j < len(steps); j++ {
		last := j == len(steps)-1
		// A rest never splits a breath.
		whole := !breathing || last || !continues(steps[j], steps[j+1])
		if (!steps[j].short || last) && whole && !steps[j].releases {
			gaps = append(gaps, j)
		}
	}
	if !breathing && len(gaps) > 1 && gaps[len(gaps)-1] == len(steps)-1 {
		gaps = gaps[:len(gaps)-1]
	}
	return gaps
}

// spread picks k of n indices, evenly, keeping the first and the last.
func spread(n, k int) []int {
	if k <= 0 || n <= 0 {
		return nil
	}
	if k >= n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	if k == 1 {
		return []int{0}
	}
	out := make([]int, k)
	for i := range k {
		out[i] = i * (n - 1) / (k - 1)
	}
	return out
}

// next is what a body call says: the lines of the layout after the last
// one said in this phase (here), as many as the body has left, none said
// before in the session. Should the budget have moved since, the layout
// is laid out again, larger, until enough is unsaid.
func (pp *phasePlan) next(w, spoken int, said, here map[string]bool) []item {
	want := w - spoken
	if want <= 0 {
		return nil
	}
	total := len(pp.steps) + len(pp.rests)
	for size := w; ; size++ {
		layout := pp.body(size)
		last := -1
		for i, it := range layout {
			if it.said(here) {
				last = i
			}
		}
		start := last + 1
		if last < 0 {
			// A phase taken up part-way after another guide goes on from
			// where that one was, not from the phase's first words.
			start = min(spoken, len(layout))
		}
		// A step that hands the breath back is said in the wind-down,
		// after whatever rests the phase still has room for.
		ahead := slices.DeleteFunc(unsaidItems(layout[start:], said), func(it item) bool { return it.releases })
		if pp.breathing {
			// A larger layout may have put rests among steps already said:
			// they are cues to a breath, not steps, and come first, since
			// the freshest are laid out first (see freshFirst).
			passed := slices.DeleteFunc(unsaidItems(layout[:start], said), func(it item) bool { return !it.rest })
			ahead = append(passed, ahead...)
		}
		if len(ahead) >= want || size >= total {
			return ahead[:min(want, len(ahead))]
		}
	}
}

func (it item) said(said map[string]bool) bool {
	return slices.ContainsFunc(it.variants, func(v string) bool { return said[v] })
}

func unsaidItems(items []item, said map[string]bool) []item {
	var out []item
	for _, it := range items {
		if !it.said(said) {
			out = append(out, it)
		}
	}
	return out
}
