package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// cueGuide writes breathing lines the way a guide that knows its material
// does, tagging each with its part of the breath (engine.Cuer): it
// teaches the counts in → hold → out in one breath, then adds lines whose
// words do not say their part, and one that says "breathe out" but
// belongs to the inhale. Other phases are scriptGuide's.
type cueGuide struct {
	scriptGuide
	mu    sync.Mutex
	tags  map[string]BreathStage
	group map[string]int // the teaching group each line belongs to
}

// cueScript is one teaching group: %[1]s is the count, %[2]d the line's
// number (every line is unique). untagged lines are left to the guess.
var cueScript = []struct {
	text     string
	stage    BreathStage
	untagged bool
}{
	{text: "In for %[1]s, %[2]d.", stage: StageInhale},
	{text: "Hold for %[1]s, softly, %[2]d.", stage: StageHold},
	{text: "And out for %[1]s, %[2]d.", stage: StageExhale},
	{text: "Let the shoulders drop, %[2]d.", stage: StageExhale},
	{text: "Breathe out slowly and let it go, %[2]d.", stage: StageInhale},
	{text: "Notice the cool air at the nose, %[2]d.", untagged: true},
}

var countWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

func (g *cueGuide) Cue(text string) (BreathStage, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.tags[text]
	return s, ok
}

func (g *cueGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	if req.Phase != Breathing {
		return g.scriptGuide.Stream(ctx, req)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.tags == nil {
		g.tags, g.group = map[string]BreathStage{}, map[string]int{}
	}
	n := req.Budget.WindDownAt - req.Spoken
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken)
	}
	var script []int // the script's lines this rhythm says
	for i, l := range cueScript {
		if l.stage == StageHold && !l.untagged && req.Breath.Hold == 0 {
			continue // no hold to teach
		}
		script = append(script, i)
	}
	var b strings.Builder
	for k := req.Spoken; k < req.Spoken+n; k++ {
		l := cueScript[script[k%len(script)]]
		count := countWords[req.Breath.Length(l.stage)/time.Second]
		text := fmt.Sprintf(l.text, count, k)
		if !l.untagged {
			g.tags[text] = l.stage
		}
		g.group[text] = k / len(script)
		b.WriteString(text + " ")
	}
	return &chunkStream{text: b.String()}, nil
}

// Every breathing line begins within the part of the breath its guide
// tagged it with — late only while most of that part is still ahead —
// the counts taught in → hold → out are said in one breath, and a line
// whose words say "breathe out" but is tagged for the inhale plays on the
// inhale.
func TestTaggedBreathingLinesStartInTheirStage(t *testing.T) {
	for _, c := range []struct {
		b BreathPattern
		// spills: the hold line runs on into the exhale, so the out line
		// can only begin once the exhale is under way.
		spills bool
	}{
		{BreathPattern{Inhale: 4 * time.Second, Hold: 2 * time.Second, Exhale: 6 * time.Second}, true},
		{BreathPattern{Inhale: 4 * time.Second, Hold: 7 * time.Second, Exhale: 8 * time.Second}, false},
		{BreathPattern{Inhale: 5 * time.Second, Exhale: 7 * time.Second}, false},
	} {
		b := c.b
		name := fmt.Sprintf("%v-%v-%v", b.Inhale.Seconds(), b.Hold.Seconds(), b.Exhale.Seconds())
		t.Run(name, func(t *testing.T) {
			spk := newFakeSpeaker()
			g := &cueGuide{}
			e, err := New(newSession(t, 20, ""), Config{Screen: fakeScreen{}, Guide: g, Speaker: spk, Breath: b, Now: func() time.Time { return epoch }})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			period := b.Period()
			byGroup := map[int]map[BreathStage]int{} // the breath each taught part was said in
			var lines, late, outOnIn int
			for i, l := range spk.lines {
				if l.Phase != Breathing {
					continue
				}
				lines++
				stage, tagged := g.Cue(l.Text)
				if !tagged {
					stage = CueStage(l.Text)
				}
				at := spk.starts[i] - spk.anchor
				into := at%period - b.Offset(stage)
				length := b.Length(stage)
				if into < 0 || into >= max(length, 1) {
					t.Errorf("%q (%v) began %v into the breath: outside its part, %v–%v", l.Text, stage, at%period, b.Offset(stage), b.Offset(stage)+length)
					continue
				}
				if into > 0 {
					late++
					if into > length/3 || length-into < lateStartLeft {
						t.Errorf("%q began %v into its %v of %v: too late to begin", l.Text, into, stage, length)
					}
				}
				if strings.HasPrefix(l.Text, "Breathe out slowly") {
					outOnIn++
					if stage != StageInhale {
						t.Errorf("%q is tagged %v", l.Text, stage)
					}
				}
				if strings.Contains(l.Text, " for ") || strings.HasPrefix(l.Text, "In for") {
					k := g.group[l.Text]
					if byGroup[k] == nil {
						byGroup[k] = map[BreathStage]int{}
					}
					byGroup[k][stage] = int(at / period)
				}
			}
			if lines < 10 || outOnIn == 0 {
				t.Fatalf("%d breathing lines, %d of them saying out on the inhale", lines, outOnIn)
			}
			if c.spills && late == 0 {
				t.Errorf("no line began once its part was under way: the counts were not taught in one breath")
			}
			taught := 0
			for k, stages := range byGroup {
				in, okIn := stages[StageInhale]
				out, okOut := stages[StageExhale]
				if !okIn || !okOut {
					continue // the phase ended mid-group
				}
				taught++
				if hold, ok := stages[StageHold]; b.Hold > 0 && (!ok || hold != in) {
					t.Errorf("group %d: the hold was said in breath %d, the inhale in %d", k, hold, in)
				}
				if out != in {
					t.Errorf("group %d: in said in breath %d, out in breath %d: the counts were split across breaths", k, in, out)
				}
			}
			if taught < 2 {
				t.Errorf("only %d groups taught the counts", taught)
			}
		})
	}
}
