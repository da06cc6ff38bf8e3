package safety

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/speech"
)

// Training: one logistic regression per category, against safe guidance,
// by AdaGrad over the features of features.go, from the sentences the
// speech cleaner leaves of each corpus line (what the screen will see).
// Thresholds come from scores the models gave lines they were not trained
// on (k-fold), chosen so that few safe lines are dropped in all and each
// category catches what it can within that. Everything is deterministic:
// the same corpus gives the same model, byte for byte, on one platform.

// TrainOptions are the training's settings; their values are part of the
// model's digest.
type TrainOptions struct {
	Epochs   int     // passes over the data
	Rate     float64 // AdaGrad's step
	L2       float64 // weight decay
	MinCount int     // a feature must be seen in this many sentences to be kept
	Prune    float64 // a feature is left out when its weights are below this share of the largest
	Folds    int     // for the out-of-fold scores thresholds are chosen from
	Runs     int     // AdaGrad runs in different orders, averaged
	// FalseDrops is the share of safe sentences the thresholds may drop,
	// out of fold; StrictFalseDrops the strict thresholds'.
	FalseDrops, StrictFalseDrops float64
}

// DefaultTrainOptions are the settings the embedded model is trained with.
// FalseDrops was chosen on the development corpus (testdata/dev, written
// apart from the training corpora and from the held-out one): of 0.010 to
// 0.030, the budget with the most of its harmful lines stopped less its
// safe lines lost (0.025: 98.1 % stopped, 2.2 % lost; 0.015 gave 97.1 % and
// 2.0 %). StrictFalseDrops is twice it, as before.
var DefaultTrainOptions = TrainOptions{Epochs: 12, Rate: 0.4, L2: 1e-5, MinCount: 2, Prune: 0.05, Folds: 5, Runs: 6, FalseDrops: 0.025, StrictFalseDrops: 0.05}

// piece is one sentence of a corpus line, read.
type piece struct {
	features []int32 // indices into the kept features, ascending
	n        int     // how many features it had before pruning (weight)
	label    int     // index into Classified, or -1: safe
	at       Place
	unit     int  // the corpus line it came from
	own      bool // a line of the built-in material: see builtinWeight
}

// TrainReport says how the thresholds were chosen: per category, the
// share of its sentences caught out of fold.
type TrainReport struct {
	Sentences, Safe int
	Caught          map[Category]float64
	FalseDrops      float64 // out of fold, at the normal thresholds
}

// Digest is the digest of what a model is trained from.
func Digest(corpus []Example, v *prompts.Wordlist, opt TrainOptions) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%d %+v\n", modelVersion, opt)
	for _, e := range corpus {
		fmt.Fprintf(h, "%s\t%s\t%t\t%s\n", e.Category, e.At.Phase, e.At.Sleep, e.Text)
	}
	for _, w := range v.Function {
		fmt.Fprintln(h, "f", w)
	}
	for _, w := range v.Content {
		fmt.Fprintln(h, "c", w)
	}
	h.Write(prompts.SafetySource()) // the lists are features too
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d
}

// Train fits the classifier to corpus, chooses its thresholds, and
// returns the model file.
func Train(corpus []Example, pv *prompts.Wordlist, opt TrainOptions) ([]byte, TrainReport) {
	m, rep := train(corpus, pv, opt)
	return m.encode(), rep
}

func train(corpus []Example, pv *prompts.Wordlist, opt TrainOptions) (*model, TrainReport) {
	return fitted(corpus, pv, opt).model(opt)
}

// fitting is a classifier trained, before its thresholds are chosen: what
// it read, its out-of-fold scores, and its weights.
type fitting struct {
	corpus []Example
	pv     *prompts.Wordlist
	vocab  *vocabulary
	pieces []piece
	hashes []uint32
	oof    [][]float32 // per piece, per category: scores on lines by writers it was not trained on
	ws     []*regression
}

// fitted reads the corpus, scores every sentence out of fold, and fits
// the regressions on all of it.
func fitted(corpus []Example, pv *prompts.Wordlist, opt TrainOptions) *fitting {
	vocab, err := guidanceVocabulary(pv)
	if err != nil {
		panic(err) // the embedded material: a test reads it
	}
	pieces, hashes := readPieces(corpus, vocab, opt.MinCount)
	folds := writerFolds(corpus, opt.Folds)
	oof := make([][]float32, len(pieces))
	for i := range oof {
		oof[i] = make([]float32, len(Classified))
	}
	for f := range opt.Folds {
		inFold := func(p piece) bool { return folds[p.unit] == f }
		ws := fitAll(pieces, len(hashes), opt, func(p piece) bool { return !inFold(p) })
		for i, p := range pieces {
			if inFold(p) {
				for c, w := range ws {
					oof[i][c] = float32(w.prob(p))
				}
			}
		}
	}
	ws := fitAll(pieces, len(hashes), opt, func(piece) bool { return true })
	return &fitting{corpus: corpus, pv: pv, vocab: vocab, pieces: pieces, hashes: hashes, oof: oof, ws: ws}
}

// model is the fit with thresholds chosen within opt's budgets.
func (ft *fitting) model(opt TrainOptions) (*model, TrainReport) {
	corpus, pv, vocab, pieces, hashes, oof, ws := ft.corpus, ft.pv, ft.vocab, ft.pieces, ft.hashes, ft.oof, ft.ws
	rep := TrainReport{Sentences: len(pieces), Caught: map[Category]float64{}}
	for _, p := range pieces {
		if p.label < 0 {
			rep.Safe++
		}
	}
	normal, strict := chooseThresholds(pieces, oof, opt)
	for c, cat := range Classified {
		caught, all := 0, 0
		for i, p := range pieces {
			if p.label == c {
				all++
				if oof[i][c] >= normal[c] {
					caught++
				}
			}
		}
		rep.Caught[cat] = float64(caught) / float64(max(all, 1))
	}
	dropped := 0
	for i, p := range pieces {
		if p.label < 0 && flaggedAt(p, oof[i], normal) {
			dropped++
		}
	}
	rep.FalseDrops = float64(dropped) / float64(max(rep.Safe, 1))

	m := &model{corpus: Digest(corpus, pv, opt), known: vocab.known}
	m.own = ownSet(slices.DeleteFunc(slices.Clone(corpus), func(e Example) bool { return e.Source != builtinSource }))
	// A feature whose weights are all small moves no score: it is left out
	// of the model, which keeps the binary small.
	keep := make([]bool, len(hashes))
	for _, w := range ws {
		most := 0.0
		for _, x := range w.w {
			most = math.Max(most, math.Abs(x))
		}
		for j, x := range w.w {
			keep[j] = keep[j] || math.Abs(x) > opt.Prune*most
		}
	}
	for c, w := range ws {
		most := 0.0
		for j, x := range w.w {
			if keep[j] {
				most = math.Max(most, math.Abs(x))
			}
		}
		m.classes = append(m.classes, class{category: Classified[c], bias: float32(w.b), scale: float32(most / math.MaxInt8),
			threshold: normal[c], strict: strict[c]})
	}
	order := make([]int, 0, len(hashes))
	for j := range hashes {
		if keep[j] {
			order = append(order, j)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(hashes[a], hashes[b]) })
	for _, j := range order {
		m.hashes = binary.LittleEndian.AppendUint32(m.hashes, hashes[j])
		for c, w := range ws {
			q := math.Round(w.w[j] / float64(m.classes[c].scale))
			m.weights = append(m.weights, byte(int8(math.Max(math.MinInt8, math.Min(math.MaxInt8, q)))))
		}
	}
	return m, rep
}

// readPieces cleans each corpus line as the speech cleaner would, reads
// each sentence left, and numbers the features seen in at least minCount
// sentences. What the cleaner leaves of a harmful line is not always
// harmful ("Warm." after "A lover's kiss."): a piece that is also a safe
// line's, or a piece of a line of another language that is all English,
// teaches nothing of its category and is left out.
func readPieces(corpus []Example, vocab *vocabulary, minCount int) ([]piece, []uint32) {
	type read struct {
		hashes []uint32
		label  int
		at     Place
		unit   int
		text   string
	}
	var reads []read
	var r reading
	safe := map[string]bool{}
	for u, e := range corpus {
		label := slices.Index(Classified, e.Category)
		var sp speech.Speech
		for _, s := range append(sp.Feed(e.Text), sp.Flush()...) {
			r.read(s, vocab, defaultRules())
			if e.Category == OtherLanguage && r.foreign == 0 && r.scripts == 0 {
				continue
			}
			key := strings.ToLower(strings.Join(strings.Fields(s), " "))
			if label < 0 {
				safe[key] = true
			}
			reads = append(reads, read{slices.Clone(r.hashes), label, e.At, u, key})
		}
	}
	reads = slices.DeleteFunc(reads, func(rd read) bool { return rd.label >= 0 && safe[rd.text] })
	count := map[uint32]int{}
	for _, rd := range reads {
		for _, h := range rd.hashes {
			count[h]++
		}
	}
	var hashes []uint32
	for h, n := range count {
		if n >= minCount {
			hashes = append(hashes, h)
		}
	}
	slices.Sort(hashes)
	index := make(map[uint32]int32, len(hashes))
	for i, h := range hashes {
		index[h] = int32(i)
	}
	pieces := make([]piece, len(reads))
	for i, rd := range reads {
		p := piece{n: len(rd.hashes), label: rd.label, at: rd.at, unit: rd.unit, own: corpus[rd.unit].Source == builtinSource}
		for _, h := range rd.hashes {
			if j, ok := index[h]; ok {
				p.features = append(p.features, j)
			}
		}
		pieces[i] = p
	}
	return pieces, hashes
}

// writerFolds puts each corpus line in a fold by who wrote it: the
// corpora are one folder per writer (corpus/t5/…), and a fold holds whole
// writers, so the scores thresholds are chosen from are scores on another
// hand's text, as the listener's models will write. Lines outside a
// writer's folder (the built-in material) are spread by their number.
func writerFolds(corpus []Example, folds int) []int {
	writerOf := func(source string) string {
		parts := strings.Split(source, "/")
		if len(parts) >= 3 && parts[0] == "corpus" {
			return parts[1]
		}
		return ""
	}
	var writers []string
	for _, e := range corpus {
		if w := writerOf(e.Source); w != "" && !slices.Contains(writers, w) {
			writers = append(writers, w)
		}
	}
	slices.Sort(writers)
	out := make([]int, len(corpus))
	for i, e := range corpus {
		if w := writerOf(e.Source); w != "" {
			out[i] = slices.Index(writers, w) % folds
		} else {
			out[i] = i % folds
		}
	}
	return out
}

// negativeFor reports whether a safe sentence at is a counter-example for
// category c: a waking close rightly opens the eyes, so it teaches the
// ending and rousing categories nothing.
func negativeFor(c Category, at Place) bool {
	switch c {
	case EarlyEnding:
		return at.Phase != engine.Resolution
	case SleepRousing:
		return at.Sleep || at.Phase != engine.Resolution
	}
	return true
}

// builtinWeight is how much more a line of the built-in material counts
// in training than another safe line: the built-in guide is what most
// people hear, and none of its lines may ever be dropped.
const builtinWeight = 4

// regression is one category's weights.
type regression struct {
	w []float64
	b float64
}

func (g *regression) margin(p piece) float64 {
	z := g.b
	v := weight(p.n)
	for _, j := range p.features {
		z += g.w[j] * v
	}
	return z
}

func (g *regression) prob(p piece) float64 { return sigmoid(g.margin(p)) }

// fitAll fits every category's regression on the pieces use admits, two
// at a time.
func fitAll(pieces []piece, features int, opt TrainOptions, use func(piece) bool) []*regression {
	out := make([]*regression, len(Classified))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for c := range Classified {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[c] = fit(pieces, features, c, opt, use)
		}()
	}
	wg.Wait()
	return out
}

// fit trains category c against safe guidance, weighting each side
// equally, with AdaGrad and a fixed order of examples per epoch.
func fit(pieces []piece, features, c int, opt TrainOptions, use func(piece) bool) *regression {
	var idx []int
	pos, neg := 0, 0
	for i, p := range pieces {
		if !use(p) {
			continue
		}
		switch {
		case p.label == c:
			pos++
		case p.label < 0 && negativeFor(Classified[c], p.at):
			neg++
		default:
			continue
		}
		idx = append(idx, i)
	}
	g := &regression{w: make([]float64, features)}
	if pos == 0 || neg == 0 {
		g.b = -20
		return g
	}
	posW := float64(pos+neg) / (2 * float64(pos))
	negW := float64(pos+neg) / (2 * float64(neg))
	// Each feature is scaled by how much likelier it is in the category
	// than in guidance, or the other way (the size of its log-count ratio,
	// as NBSVM does): a word the category uses and guidance does not starts
	// out weighty, which is what carries over to another writer's words.
	scale := make([]float64, features)
	{
		pc, nc := make([]float64, features), make([]float64, features)
		var ps, ns float64
		for _, i := range idx {
			p := pieces[i]
			for _, j := range p.features {
				if p.label == c {
					pc[j]++
					ps++
				} else {
					nc[j]++
					ns++
				}
			}
		}
		for j := range scale {
			scale[j] = math.Abs(math.Log(((pc[j] + 1) / (ps + float64(features))) / ((nc[j] + 1) / (ns + float64(features)))))
		}
	}
	// Runs in different orders are averaged: one order's chance shows less.
	runs := max(opt.Runs, 1)
	sum := &regression{w: make([]float64, features)}
	for run := range runs {
		one := fitOnce(pieces, idx, features, c, opt, scale, posW, negW, uint64(run))
		for j, x := range one.w {
			sum.w[j] += x / float64(runs)
		}
		sum.b += one.b / float64(runs)
	}
	g = sum
	for j := range g.w {
		g.w[j] *= scale[j]
	}
	return g
}

// fitOnce is one run of AdaGrad over idx, in an order of its own.
func fitOnce(pieces []piece, idx []int, features, c int, opt TrainOptions, scale []float64, posW, negW float64, run uint64) *regression {
	idx = slices.Clone(idx)
	g := &regression{w: make([]float64, features)}
	acc := make([]float64, features)
	var accB float64
	rng := rand.New(rand.NewPCG(uint64(c)+1+run<<32, 0x6c756c6c))
	const eps = 1e-8
	for range opt.Epochs {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx {
			p := pieces[i]
			y, cw := 0.0, negW
			if p.label == c {
				y, cw = 1, posW
			}
			if p.own {
				cw *= builtinWeight
			}
			d := (g.probScaled(p, scale) - y) * cw
			v := weight(p.n)
			for _, j := range p.features {
				gr := d*v*scale[j] + opt.L2*g.w[j]
				acc[j] += gr * gr
				g.w[j] -= opt.Rate * gr / (math.Sqrt(acc[j]) + eps)
			}
			accB += d * d
			g.b -= opt.Rate * d / (math.Sqrt(accB) + eps)
		}
	}
	return g
}

// probScaled is prob while training, before the scale is folded into the
// weights.
func (g *regression) probScaled(p piece, scale []float64) float64 {
	z := g.b
	v := weight(p.n)
	for _, j := range p.features {
		z += g.w[j] * v * scale[j]
	}
	return sigmoid(z)
}

// flaggedAt reports whether a sentence with these scores is dropped at
// these thresholds, where it is said.
func flaggedAt(p piece, scores []float32, thresholds []float32) bool {
	for c, s := range scores {
		if Applies(Classified[c], p.at) && s >= thresholds[c] {
			return true
		}
	}
	return false
}

// severity weighs what a category catches when the budget is shared: a
// death wish heard is worse than a breath hold heard, which is worse than
// an assistant's aside.
var severity = map[Category]float64{
	SelfHarm: 3, UnsafeBreathing: 2, Pain: 2, MedicalClaim: 2, Explicit: 2,
	EarlyEnding: 1.5, SleepRousing: 1.5,
	Chatter: 1, ReasoningLeak: 1, Refusal: 1, OtherLanguage: 1, Injection: 1,
}

// chooseThresholds picks each category's threshold from out-of-fold
// scores, within a budget of safe sentences dropped: from where none is
// dropped, again and again, it lowers the threshold that buys the most
// (in the log of what a category catches, so a category hard to tell from
// guidance is not starved for the easy ones, times its severity) per safe
// sentence given up,
// until the budget is spent — first the normal budget, then, going on
// from there, the strict one.
func chooseThresholds(pieces []piece, oof [][]float32, opt TrainOptions) (normal, strict []float32) {
	k := len(Classified)
	safe := make([][]float32, k) // safe scores where the category applies, descending
	pos := make([][]float32, k)  // the category's own scores, descending
	nSafe := 0
	for i, p := range pieces {
		if p.label < 0 {
			nSafe++
		}
		for c := range k {
			switch {
			case p.label == c:
				pos[c] = append(pos[c], oof[i][c])
			case p.label < 0 && Applies(Classified[c], p.at):
				safe[c] = append(safe[c], oof[i][c])
			}
		}
	}
	desc := func(a, b float32) int { return cmp.Compare(b, a) }
	for c := range k {
		slices.SortFunc(safe[c], desc)
		slices.SortFunc(pos[c], desc)
	}
	given := make([]int, k) // safe sentences each category drops
	// at is the threshold that drops the top n safe scores: halfway to the
	// next one, so a near miss on either side is not decided by a hair.
	at := func(c, n int) float32 {
		s := safe[c]
		switch {
		case len(s) == 0:
			return 0.5
		case n == 0:
			return min(1, s[0]+(1-s[0])/2)
		case n >= len(s):
			return s[len(s)-1] / 2
		}
		return (s[n-1] + s[n]) / 2
	}
	caught := func(c int, t float32) int {
		return sort.Search(len(pos[c]), func(i int) bool { return pos[c][i] < t })
	}
	spend := func(budget int) []float32 {
		used := 0
		for _, g := range given {
			used += g
		}
		for used < budget {
			best, bestN, bestGain := -1, 0, 0.0
			for c := range k {
				if len(pos[c]) == 0 {
					continue
				}
				have := caught(c, at(c, given[c]))
				for n := given[c] + 1; n <= min(len(safe[c]), given[c]+budget-used); n++ {
					gain := severity[Classified[c]] * (math.Log(float64(caught(c, at(c, n))+1)) - math.Log(float64(have+1))) / float64(n-given[c])
					if gain > bestGain {
						best, bestN, bestGain = c, n, gain
					}
				}
			}
			if best < 0 {
				break
			}
			used += bestN - given[best]
			given[best] = bestN
		}
		out := make([]float32, k)
		for c := range k {
			out[c] = at(c, given[c])
		}
		return out
	}
	normal = spend(int(opt.FalseDrops * float64(nSafe)))
	strict = spend(int(opt.StrictFalseDrops * float64(nSafe)))
	return normal, strict
}

// String is the report as the training prints it.
func (r TrainReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sentences (%d safe); out of fold: %.2f %% of safe dropped\n", r.Sentences, r.Safe, 100*r.FalseDrops)
	for _, c := range Classified {
		fmt.Fprintf(&b, "  %-18s %5.1f %% caught\n", c, 100*r.Caught[c])
	}
	return b.String()
}
