package guide

import "slices"

// body lays the phase's body out for w lines: every required step; when
// there is room, optional steps spread evenly through the script; when
// there is more, rests spread evenly among the journey's steps. When there
// is less room than required steps, they are thinned evenly, the first
// and the last kept.
func (pp *phasePlan) body(w int) []item {
	var required, optional []int
	for i, it := range pp.steps {
		if it.optional {
			optional = append(optional, i)
		} else {
			required = append(required, i)
		}
	}
	if w <= len(required) {
		var out []item
		for _, i := range spread(len(required), w) {
			out = append(out, pp.steps[required[i]])
		}
		return out
	}
	chosen := slices.Clone(required)
	for _, i := range spread(len(optional), min(w-len(required), len(optional))) {
		chosen = append(chosen, optional[i])
	}
	slices.Sort(chosen)
	var steps []item
	for _, i := range chosen {
		steps = append(steps, pp.steps[i])
	}
	r := min(w-len(steps), len(pp.rests))
	if r <= 0 {
		return steps
	}
	// Rests go in the gaps from the journey's first step on (or, with
	// none, from the last step): never among the phase's first words.
	from := slices.IndexFunc(steps, func(it item) bool { return it.journey })
	if from < 0 {
		from = len(steps) - 1
	}
	gaps := len(steps) - from
	out := slices.Clone(steps[:from+1])
	rest := 0
	for g := range gaps {
		for range (g+1)*r/gaps - g*r/gaps {
			out = append(out, pp.rests[rest])
			rest++
		}
		if from+1+g < len(steps) {
			out = append(out, steps[from+1+g])
		}
	}
	return out
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
// one said, as many as the body has left. Should the budget have moved
// since, the layout is laid out again, larger, until enough is unsaid.
func (pp *phasePlan) next(w, spoken int, said map[string]bool) []item {
	want := w - spoken
	if want <= 0 {
		return nil
	}
	total := len(pp.steps) + len(pp.rests)
	for size := w; ; size++ {
		layout := pp.body(size)
		last := -1
		for i, it := range layout {
			if it.said(said) {
				last = i
			}
		}
		start := last + 1
		if last < 0 {
			// A phase taken up part-way after another guide goes on from
			// where that one was, not from the phase's first words.
			start = min(spoken, len(layout))
		}
		ahead := unsaidItems(layout[start:], said)
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
