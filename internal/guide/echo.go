package guide

import (
	"slices"
	"sync"

	"github.com/lull-dev/lull/internal/prompts"
)

// bodyParts is the vocabulary the LLM guide names what was said by,
// loaded once: the built-in guide asks it which body part a line names.
var bodyParts = sync.OnceValue(func() *prompts.Vocabulary {
	l, err := prompts.LoadLLM()
	if err != nil {
		panic(err.Error()) // embedded material, checked by the tests
	}
	return l.Vocabulary()
})

// freshFirst orders breathing rests so that the ones naming a body part
// the phase has not named yet — in its steps or an earlier rest — come
// first, each breath one new detail; the echoes follow, said only when a
// long phase has used up the rest. Each is paired in whole breaths: an
// out-breath rest on a breath of its own is fine between quiet breaths.
func freshFirst(steps, rests []item) []item {
	named := map[int]bool{}
	name := func(it item) (fresh bool) {
		parts := partsNamed(it.line)
		fresh = !slices.ContainsFunc(parts, func(t int) bool { return named[t] })
		if fresh {
			for _, t := range parts {
				named[t] = true
			}
		}
		return fresh
	}
	for _, it := range steps {
		// Every part a step names is named, even when it names one named
		// before: "face and jaw" after "out through the mouth" names the jaw.
		for _, t := range partsNamed(it.line) {
			named[t] = true
		}
	}
	var fresh, echoes []item
	for _, it := range rests {
		if name(it) {
			fresh = append(fresh, it)
		} else {
			echoes = append(echoes, it)
		}
	}
	return append(pairBreaths(fresh), pairBreaths(echoes)...)
}

// pairBreaths orders breathing rests as whole breaths, an in-breath line
// then an out-breath line, so that rests said one after another do not
// ask for three out-breaths in a row; the others keep their order.
func pairBreaths(rests []item) []item {
	var ins, outs, others []item
	for _, it := range rests {
		switch it.breath {
		case prompts.BreathIn:
			ins = append(ins, it)
		case prompts.BreathOut:
			outs = append(outs, it)
		default:
			others = append(others, it)
		}
	}
	var paired []item
	for len(ins) > 0 || len(outs) > 0 {
		if len(ins) > 0 {
			paired, ins = append(paired, ins[0]), ins[1:]
		}
		if len(outs) > 0 {
			paired, outs = append(paired, outs[0]), outs[1:]
		}
	}
	return append(paired, others...)
}

// partsWithin reports whether a names no part of the body that b does
// not: a line said in other words may name less, never somewhere new.
func partsWithin(a, b string) bool {
	in := partsNamed(b)
	for _, p := range partsNamed(a) {
		if !slices.Contains(in, p) {
			return false
		}
	}
	return true
}

// partsNamed are the parts of the body a line names, each once, in order.
func partsNamed(s string) []int {
	v := bodyParts()
	var out []int
	for _, t := range v.Mentions(s) {
		if v.IsBody(t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}
