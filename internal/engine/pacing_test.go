package engine

import (
	"context"
	"slices"
	"testing"
	"time"
)

// prose are sentences of a guide's usual length (8–14 words): the fake
// speaker voices them at the estimated pace, as a slowed local voice would.
var prose = map[Phase][]string{
	Atmosphere: {
		"Let your body settle into whatever is holding it right now.",
		"There is nowhere else you need to be for these few minutes.",
		"Notice the sounds around you, near and far, and let them be.",
		"Your shoulders can soften, and your hands can rest where they are.",
	},
	Breathing: {
		"Breathe in slowly through your nose, letting the belly rise.",
		"Breathe out through the mouth, long and easy, all the way.",
	},
	Sensory: {
		"Feel where your body meets the chair, the floor, the cushion.",
		"Notice the temperature of the air on the skin of your hands.",
		"Somewhere there may be a faint smell, of the room or of the day.",
	},
	Relaxation: {
		"Heavy and still, the whole body resting on its own weight.",
		"Nothing to do now, and nowhere at all to go.",
		"Let each part of you sink a little further into the quiet.",
	},
	Resolution: {
		"Slowly, let a little movement come back into your fingers and toes.",
		"Hear the sounds of the room around you, returning one by one.",
		"Feel the surface beneath you, solid and steady, holding you up.",
	},
}

// proseLeads are the lines that lead onward, as long as the others; none
// wakes the listener, so a sleep session hears them all (the safety
// screen drops waking words there).
var proseLeads = map[Phase][]string{
	Atmosphere: {"In a moment we will turn toward the breath, without any hurry."},
	Breathing:  {"Now let the counting go, and let the breath find its own way."},
	Sensory:    {"Let the senses grow quieter now, as you sink a little deeper."},
	Relaxation: {"Slowly, from far away, a little awareness of the body returns."},
	Resolution: {
		"When you are ready, and only then, let the quiet settle all around you.",
		"Keep this quiet close to you, wherever you are, slowly and kindly.",
	},
}

// phaseTiming is what a listener hears of a phase: how long it lasted,
// how much of it was speech, and the silences between its lines.
type phaseTiming struct {
	length, speech time.Duration
	gaps           []time.Duration // between one line's end and the next's start, in order
	lines          int
}

func (pt phaseTiming) share() float64 { return float64(pt.speech) / float64(pt.length) }

func (pt phaseTiming) medianGap() time.Duration {
	g := slices.Clone(pt.gaps)
	slices.Sort(g)
	if len(g) == 0 {
		return 0
	}
	return g[len(g)/2]
}

// timings measures a finished session on the fake speaker's clock.
func timings(spk *fakeSpeaker, st State) [len(Phases)]phaseTiming {
	spk.mu.Lock()
	defer spk.mu.Unlock()
	var out [len(Phases)]phaseTiming
	for i, l := range spk.lines {
		pt := &out[l.Phase]
		pt.lines++
		pt.speech += spk.ds[i]
		if i > 0 && spk.lines[i-1].Phase == l.Phase {
			pt.gaps = append(pt.gaps, spk.starts[i]-(spk.starts[i-1]+spk.ds[i-1]))
		}
	}
	for p := range out {
		out[p].length = st.Phases[p].Elapsed
	}
	return out
}

// runProse runs a whole session of prose on the fake speaker.
func runProse(t *testing.T, minutes int, sleep bool) (*fakeSpeaker, State) {
	t.Helper()
	st, err := NewState("pacing", Options{Length: time.Duration(minutes) * time.Minute, Seed: 3, Sleep: sleep}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	spk := newFakeSpeaker()
	e := newEngine(t, st, &scriptGuide{lines: prose, leads: proseLeads}, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return spk, e.Snapshot()
}

// Fewer words, more silence: each phase speaks for about its share of
// the time, longer sessions are longer in silence rather than in words,
// and every session still ends on time.
func TestPhasesSpeakForTheirShare(t *testing.T) {
	type figures struct {
		shares [len(Phases)]float64
		perMin time.Duration // speech per minute of session
	}
	got := map[int]figures{}
	for _, minutes := range []int{5, 20, 60} {
		spk, st := runProse(t, minutes, false)
		if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
			t.Errorf("%d min: took %v (%.2f%% off)", minutes, st.Elapsed, off*100)
		}
		if spk.Position() != st.Elapsed {
			t.Errorf("%d min: the output played %v, the session counted %v", minutes, spk.Position(), st.Elapsed)
		}
		tm := timings(spk, st)
		var f figures
		var speech time.Duration
		for p, pt := range tm {
			f.shares[p] = pt.share()
			speech += pt.speech
			t.Logf("%d min %-10s %2d lines, speech %4.1f%%, median gap %5.1fs", minutes, Phase(p), pt.lines, pt.share()*100, pt.medianGap().Seconds())
		}
		f.perMin = speech / time.Duration(minutes)
		got[minutes] = f
		if minutes != 20 {
			continue
		}
		for _, c := range []struct {
			p        Phase
			lo, hi   float64
			rest     time.Duration // the least median silence between lines
			restName string
		}{
			{Atmosphere, 0.22, 0.40, 6 * time.Second, "atmosphere"},
			{Sensory, 0.22, 0.40, 6 * time.Second, "sensory"},
			{Relaxation, 0.16, 0.30, 8 * time.Second, "relaxation"},
			{Resolution, 0.22, 0.40, 6 * time.Second, "resolution"},
		} {
			if s := tm[c.p].share(); s < c.lo || s > c.hi {
				t.Errorf("20 min: %s is %.1f%% speech, want %.0f–%.0f%%", c.p, s*100, c.lo*100, c.hi*100)
			}
			if g := tm[c.p].medianGap(); g < c.rest {
				t.Errorf("20 min: %s's median silence between lines is %v, want at least %v", c.restName, g, c.rest)
			}
		}
	}
	for _, p := range []Phase{Atmosphere, Sensory, Relaxation, Resolution} {
		if got[60].shares[p] >= got[20].shares[p] {
			t.Errorf("%s: %.1f%% speech in 60 minutes, %.1f%% in 20: a longer session should be longer in silence",
				p, got[60].shares[p]*100, got[20].shares[p]*100)
		}
	}
	if !(got[60].perMin < got[20].perMin && got[20].perMin < got[5].perMin) {
		t.Errorf("speech per minute of session: %v (5 min), %v (20), %v (60): want it to fall with length",
			got[5].perMin, got[20].perMin, got[60].perMin)
	}
}

// Resolution returns gradually: its silences shrink across the phase from
// relaxation's toward atmosphere's, with no jump at its start; in a sleep
// session they lengthen instead, and it speaks no more than relaxation.
func TestResolutionSilencesFollowItsArc(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		spk, st := runProse(t, 20, sleep)
		tm := timings(spk, st)
		gaps := tm[Resolution].gaps
		if len(gaps) < 3 || !sleep && len(gaps) < 5 {
			// A drift toward sleep says no more than relaxation did.
			t.Fatalf("sleep %v: resolution has %d silences between lines", sleep, len(gaps))
		}
		t.Logf("sleep %v: relaxation median %v, atmosphere median %v, resolution %v", sleep,
			tm[Relaxation].medianGap(), tm[Atmosphere].medianGap(), gaps)
		first, last := gaps[0], gaps[len(gaps)-1]
		for i := 1; i < len(gaps); i++ {
			prev, cur := float64(gaps[i-1]), float64(gaps[i])
			if !sleep && cur > prev*1.05 || sleep && cur < prev*0.95 {
				t.Errorf("sleep %v: resolution's silence %d is %v after %v", sleep, i, gaps[i], gaps[i-1])
			}
		}
		if !sleep {
			if float64(first) < 1.4*float64(last) {
				t.Errorf("resolution's silences go from %v to %v: they should shrink across it", first, last)
			}
			// No jump at the boundary: it begins near relaxation's silences.
			if relax := tm[Relaxation].medianGap(); float64(first) < 0.6*float64(relax) {
				t.Errorf("resolution begins with %v of silence after relaxation's %v: a jump", first, relax)
			}
		} else if float64(last) < 1.4*float64(first) {
			t.Errorf("a sleep session's resolution silences go from %v to %v: they should lengthen", first, last)
		}
	}
}

// The voice quickens across a waking resolution, from relaxation's pace
// at its first line to its own at its last; a sleep session's slows a
// little further and softens by 6 dB instead. Other phases keep their own
// style (a breathing line may only be quickened to fit its part of the
// breath).
func TestResolutionDelivery(t *testing.T) {
	from := Relaxation.Rate() / Resolution.Rate()
	for _, sleep := range []bool{false, true} {
		spk, _ := runProse(t, 20, sleep)
		var res []Delivery
		for _, l := range spk.lines {
			if l.Phase != Resolution {
				if l.Delivery != (Delivery{}) && !(l.Phase == Breathing && l.Delivery.Soften == 0 && l.Delivery.Pace <= maxBreathQuicken) {
					t.Errorf("a %s line is voiced %+v", l.Phase, l.Delivery)
				}
				continue
			}
			res = append(res, l.Delivery)
		}
		if len(res) < MinSentences(Resolution, sleep) {
			t.Fatalf("%d resolution lines", len(res))
		}
		first, last := res[0], res[len(res)-1]
		near := func(a, b float64) bool { return a-b < 0.01 && b-a < 0.01 }
		for i := 1; i < len(res); i++ {
			a, b := res[i-1], res[i]
			if !sleep && (b.PaceOr1() < a.PaceOr1() || b.Soften != 0) ||
				sleep && (b.PaceOr1() > a.PaceOr1() || b.Soften < a.Soften) {
				t.Errorf("sleep %v: line %d is voiced %+v after %+v", sleep, i, b, a)
			}
		}
		if !near(first.PaceOr1(), from) {
			t.Errorf("sleep %v: resolution begins at pace %.3f, want relaxation's %.3f", sleep, first.PaceOr1(), from)
		}
		if !sleep && (!near(last.PaceOr1(), 1) || last.Soften != 0) {
			t.Errorf("a waking resolution ends voiced %+v, want its own pace", last)
		}
		if sleep && (!near(last.PaceOr1(), 0.9*from) || !near(last.Soften, 6)) {
			t.Errorf("a sleep resolution ends voiced %+v, want pace %.3f softened 6 dB", last, 0.9*from)
		}
	}
}

// A sleep session's drift speaks for no more of its time than relaxation
// did: fewer words as the listener falls asleep, not more — unless it
// says no more than its fewest lines, which it cannot go below.
func TestSleepResolutionSpeaksLess(t *testing.T) {
	spk, st := runProse(t, 20, true)
	tm := timings(spk, st)
	res := tm[Resolution]
	if res.lines < MinSentences(Resolution, true) {
		t.Fatalf("a sleep resolution said %d lines", res.lines)
	}
	fewest := res.share() * float64(MinSentences(Resolution, true)) / float64(res.lines)
	if got, most := res.share(), max(tm[Relaxation].share(), fewest)*1.1; got > most {
		t.Errorf("a sleep resolution speaks %d lines for %.1f %% of its time, relaxation %.1f %%", res.lines, 100*got, 100*tm[Relaxation].share())
	}
}

// A sleep session thins its voice out as the listener drifts: the
// silences in relaxation grow to nearly twice their first or more, those
// in resolution go on lengthening, and the goodnight leaves the last of
// the session to the soundscape (a minute of 20, five of an hour); a
// waking session keeps relaxation's silences even.
func TestSleepThinsOut(t *testing.T) {
	for _, minutes := range []int{10, 20, 60} {
		spk, st := runProse(t, minutes, true)
		tm := timings(spk, st)
		if g := tm[Relaxation].gaps; len(g) < 2 || g[len(g)-1] < 9*g[0]/5 {
			t.Errorf("%d min: relaxation's silences do not grow: %v", minutes, g)
		}
		if g := tm[Resolution].gaps; len(g) < 2 || !slices.IsSorted(g) {
			t.Errorf("%d min: resolution's silences do not lengthen: %v", minutes, g)
		}
		spk.mu.Lock()
		lastEnd := spk.starts[len(spk.starts)-1] + spk.ds[len(spk.ds)-1]
		spk.mu.Unlock()
		if quiet, want := st.Elapsed-lastEnd, max(closingTail, (st.Length-10*time.Minute)/10); quiet < want-time.Second {
			t.Errorf("%d min: the goodnight leaves %v of quiet, want %v", minutes, quiet, want)
		}
		if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
			t.Errorf("%d min: a sleep session lasted %v", minutes, st.Elapsed)
		}
	}
	spk, st := runProse(t, 20, false)
	g := timings(spk, st)[Relaxation].gaps
	if slices.Max(g) > 2*slices.Min(g) {
		t.Errorf("a waking relaxation's silences grow: %v", g)
	}
}

// The opening speaks close together while the listener arrives and leaves
// more room as they settle: its silences grow across it, at every length,
// and past twenty minutes it takes less of the session than its base
// share, relaxation more.
func TestTheOpeningSettles(t *testing.T) {
	for _, minutes := range []int{10, 20, 45, 60} {
		spk, st := runProse(t, minutes, false)
		g := timings(spk, st)[Atmosphere].gaps
		if len(g) < 3 || g[len(g)-1] < 3*g[0]/2 {
			t.Errorf("%d min: atmosphere's silences do not grow: %v", minutes, g)
		}
	}
	long := 45 * time.Minute
	if Atmosphere.Share(long, false) >= Atmosphere.Share(0, false) || Relaxation.Share(long, false) <= Relaxation.Share(0, false) {
		t.Errorf("45 minutes: atmosphere %.3f, relaxation %.3f of the session", Atmosphere.Share(long, false), Relaxation.Share(long, false))
	}
	var sum float64
	for _, p := range Phases {
		sum += p.Share(long, true)
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("the shares of a 45-minute sleep session add up to %.4f", sum)
	}
}

// A sleep session asks its speaker for soft chimes before the first
// strikes; a waking one for full ones, whatever the speaker rang before.
func TestSleepSessionsRingSoftly(t *testing.T) {
	for _, sleep := range []bool{true, false} {
		spk, _ := runProse(t, 20, sleep)
		spk.mu.Lock()
		soft, chimes := slices.Clone(spk.soft), spk.chimes
		spk.mu.Unlock()
		if len(soft) != 1 || soft[0] != sleep {
			t.Errorf("sleep %v: SoftChimes calls %v, want [%v] once at the start", sleep, soft, sleep)
		}
		if chimes == 0 {
			t.Errorf("sleep %v: no chime struck", sleep)
		}
	}
}

// Each phase's chime is struck in the quiet before its first word, not
// under it: bellLead before, or as the silence before it begins when that
// is shorter; never on the heels of the last line (bellAfter); and the
// session keeps its length.
func TestChimesRingBeforeTheWords(t *testing.T) {
	for _, minutes := range []int{5, 20, 45} {
		spk, st := runProse(t, minutes, false)
		spk.mu.Lock()
		starts, ds, chimed := slices.Clone(spk.starts), slices.Clone(spk.ds), slices.Clone(spk.chimedAt)
		spk.mu.Unlock()
		if len(chimed) != len(Phases)+1 { // the opening, four phases, the close
			t.Fatalf("%d min: %d chimes", minutes, len(chimed))
		}
		for _, c := range chimed[1 : len(chimed)-1] {
			k := slices.IndexFunc(starts, func(s time.Duration) bool { return s >= c })
			if k < 0 {
				t.Fatalf("%d min: no line after the chime at %v", minutes, c)
			}
			if k > 0 && starts[k-1]+ds[k-1] > c {
				t.Errorf("%d min: the chime at %v struck under %q", minutes, c, spk.played[k-1])
			}
			if gap, before := starts[k]-c, starts[k]-(starts[k-1]+ds[k-1]); gap < min(bellLead, before) {
				t.Errorf("%d min: the chime at %v, the next words %v after it", minutes, c, gap)
			}
			if k > 0 && c-(starts[k-1]+ds[k-1]) < bellAfter {
				t.Errorf("%d min: the chime at %v on the heels of %q (ended %v)", minutes, c, spk.played[k-1], starts[k-1]+ds[k-1])
			}
		}
		if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
			t.Errorf("%d min: took %v", minutes, st.Elapsed)
		}
	}
}
