package safety

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"lull/prompts"
	"lull/speech"
)

// devPieces reads the dev corpus into pieces using the training's index.
func devPieces(t *testing.T, vocab *vocabulary, hashes []uint32, dir string) []piece {
	ex, err := ReadCorpus(os.DirFS("testdata"), dir)
	if err != nil {
		t.Fatal(err)
	}
	index := map[uint32]int32{}
	for i, h := range hashes {
		index[h] = int32(i)
	}
	var out []piece
	var r reading
	for u, e := range ex {
		label := slices.Index(Classified, e.Category)
		var sp speech.Speech
		for _, s := range append(sp.Feed(e.Text), sp.Flush()...) {
			r.read(s, vocab)
			p := piece{n: len(r.hashes), label: label, at: e.At, unit: u}
			for _, h := range r.hashes {
				if j, ok := index[h]; ok {
					p.features = append(p.features, j)
				}
			}
			out = append(out, p)
		}
	}
	return out
}

func evalGlobal(ws []*regression, dev []piece, fp float64) string {
	// score: max over applicable categories
	score := func(p piece) float64 {
		best := 0.0
		for c, w := range ws {
			if Applies(Classified[c], p.at) {
				best = max(best, w.prob(p))
			}
		}
		return best
	}
	var safe []float64
	for _, p := range dev {
		if p.label < 0 {
			safe = append(safe, score(p))
		}
	}
	slices.Sort(safe)
	th := safe[int((1-fp)*float64(len(safe)-1))]
	var b strings.Builder
	caught, all := map[int]int{}, map[int]int{}
	tc, ta := 0, 0
	for _, p := range dev {
		if p.label >= 0 {
			all[p.label]++
			ta++
			if score(p) > th {
				caught[p.label]++
				tc++
			}
		}
	}
	fmt.Fprintf(&b, "fp %.1f%% th %.3f overall %.1f%%:", 100*fp, th, 100*float64(tc)/float64(ta))
	for c, cat := range Classified {
		fmt.Fprintf(&b, " %s %.0f", cat[:4], 100*float64(caught[c])/float64(max(all[c], 1)))
	}
	return b.String()
}

func TestDebugTrain(t *testing.T) {
	if os.Getenv("LULL_DEBUG_TRAIN") == "" {
		t.Skip()
	}
	corpus, err := TrainingCorpus(os.DirFS("../prompts/safety"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := prompts.SafetyVocabulary()
	vocab := newVocabulary(v)
	for _, opt := range []TrainOptions{
		{Epochs: 12, Rate: 0.4, L2: 1e-6, MinCount: 2},
		{Epochs: 6, Rate: 0.4, L2: 1e-4, MinCount: 2},
		{Epochs: 6, Rate: 0.4, L2: 1e-3, MinCount: 2},
		{Epochs: 6, Rate: 0.2, L2: 1e-5, MinCount: 3},
	} {
		pieces, hashes := readPieces(corpus, vocab, opt.MinCount)
		dev := devPieces(t, vocab, hashes, "dev")
		ws := fitAll(pieces, len(hashes), opt, func(p piece) bool { return true })
		t.Logf("%+v", opt)
		for _, fp := range []float64{0.005, 0.01, 0.02} {
			t.Logf("  %s", evalGlobal(ws, dev, fp))
		}
	}
}

func TestDebugPooled(t *testing.T) {
	if os.Getenv("LULL_DEBUG_TRAIN") == "" {
		t.Skip()
	}
	corpus, err := TrainingCorpus(os.DirFS("../prompts/safety"))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := prompts.SafetyVocabulary()
	vocab := newVocabulary(v)
	opt := TrainOptions{Epochs: 8, Rate: 0.4, L2: 1e-4, MinCount: 2}
	pieces, hashes := readPieces(corpus, vocab, opt.MinCount)
	dev := devPieces(t, vocab, hashes, "dev")
	ws := fitAll(pieces, len(hashes), opt, func(p piece) bool { return true })
	for _, fp := range []float64{0.005, 0.01} {
		t.Logf("per-category max: %s", evalGlobal(ws, dev, fp))
	}
	// pooled: every non-context category against safe
	pooled := make([]piece, len(pieces))
	copy(pooled, pieces)
	ctx := map[int]bool{slices.Index(Classified, EarlyEnding): true, slices.Index(Classified, SleepRousing): true}
	for i := range pooled {
		if pooled[i].label >= 0 && !ctx[pooled[i].label] {
			pooled[i].label = 0
		} else if pooled[i].label >= 0 {
			pooled[i].label = 99
		}
	}
	g := fit(pooled, len(hashes), 0, opt, func(p piece) bool { return true })
	ws2 := append([]*regression{}, ws...)
	for c := range ws2 {
		if !ctx[c] {
			ws2[c] = g
		}
	}
	for _, fp := range []float64{0.005, 0.01} {
		t.Logf("pooled + context: %s", evalGlobal(ws2, dev, fp))
	}
}

func TestDebugLayers(t *testing.T) {
	if os.Getenv("LULL_DEBUG_TRAIN") == "" {
		t.Skip()
	}
	dev := readTestCorpus(t, "dev")
	for _, keep := range []func(prompts.SafetyRule) bool{
		func(prompts.SafetyRule) bool { return true },
		func(r prompts.SafetyRule) bool { return r.Category == "unsafe_breathing" },
		func(r prompts.SafetyRule) bool {
			for _, f := range r.Find {
				if f == "MORE THAN A HOLD" || f == "MORE THAN A BREATH" || f == "LONG" || f == "LONG BREATH" {
					return true
				}
			}
			return false
		},
		func(prompts.SafetyRule) bool { return false },
	} {
		sr, _ := prompts.Safety()
		var rs []prompts.SafetyRule
		for _, r := range sr.Rules {
			if keep(r) {
				rs = append(rs, r)
			}
		}
		sr.Rules = rs
		if len(rs) == 0 {
			sr.Rules = []prompts.SafetyRule{{Category: "unsafe_breathing", Name: "never", Find: []string{"MORE THAN A HOLD"}, Need: 0, Conds: []prompts.SafetyCond{{Kind: prompts.With, List: "SUICIDE"}, {Kind: prompts.With, List: "SEXUAL"}}}}
		}
		s, err := New(sr)
		if err != nil {
			t.Fatal(err)
		}
		f := measure(s, dev)
		t.Logf("%d rules:\n%s", len(rs), f.table())
	}
}
