package crisis

import (
	"bufio"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The crisis screen's targets (issue 9): at least this share of crisis
// phrasings caught, at most this share of ordinary intentions refused.
const (
	crisisCaughtTarget    = 0.95
	ordinaryRefusedTarget = 0.01
)

// round is one writer's set of intentions, written at one time: a crisis
// side, where every line must be met with help, and an ordinary side, where
// every line must start a session. Files are in testdata/crisis.
type round struct {
	name             string
	crisis, ordinary string
	// heldOut rounds were not looked at while the screen was written: their
	// rates measure how it does on phrasings it was not fitted to, and are
	// printed, not held to the targets (a held-out miss is reported, not
	// patched with a rule made for it).
	heldOut bool
}

var crisisRounds = []round{
	// The first writers' corpus: rounds 1-7 (see the files' comments).
	{name: "rounds 1-7", crisis: "crisis.txt", ordinary: "ordinary.txt"},
	// Writers who had never seen the screen or the corpus (figures before
	// in the files' headers).
	{name: "blind A", crisis: "blind_a_crisis.txt", ordinary: "blind_a_ordinary.txt"},
	{name: "blind B", crisis: "blind_b_crisis.txt", ordinary: "blind_b_ordinary.txt"},
	{name: "blind C", crisis: "blind_c_crisis.txt", ordinary: "blind_c_ordinary.txt"},
	// Written before the concept reader; its figure was taken once,
	// untouched (see the file).
	{name: "held D", crisis: "heldout_d_crisis.txt", ordinary: "heldout_d_ordinary.txt", heldOut: true},
	// Written before the round that followed blind C, measured once
	// before it and once after (see the file).
	{name: "held F", crisis: "heldout_f_crisis.txt", ordinary: "heldout_f_ordinary.txt", heldOut: true},
	// A writer who had never seen the screen or the corpus, measured once
	// and never tuned against: the honest figure (see the file).
	{name: "blind E", crisis: "blind_e_crisis.txt", ordinary: "blind_e_ordinary.txt", heldOut: true},
}

func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "crisis", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// tally counts how one side of a round fared.
type tally struct{ flagged, total int }

func (c tally) rate() float64 { return float64(c.flagged) / float64(max(c.total, 1)) }

// screenFile screens every line of one file and counts the refusals,
// logging the lines that went the wrong way.
func screenFile(t *testing.T, file string, crisis bool) tally {
	t.Helper()
	lines := readCorpus(t, file)
	var c tally
	c.total = len(lines)
	for _, l := range lines {
		err := Check(l)
		_, refused := err.(*Error)
		if err != nil && !refused {
			t.Errorf("%q: %v, want nil or an *Error", l, err)
		}
		if refused {
			c.flagged++
		}
		switch {
		case crisis && !refused:
			t.Logf("missed (%s): %q", file, l)
		case !crisis && refused:
			t.Logf("refused (%s): %q — %v", file, l, err)
		}
	}
	return c
}

// TestCrisisScreenCorpus prints each round's rates and holds the seen
// rounds, together, to the targets: a few honest misses in one round are
// better than a rule made to fit one line (each round's file says which
// lines stay missed and why).
func TestCrisisScreenCorpus(t *testing.T) {
	var seenCaught, seenRefused tally
	report := func(name string, caught, refused tally, kind string) {
		t.Logf("%-10s crisis caught %3d/%3d = %5.1f %% (target ≥ %.0f %%), ordinary refused %3d/%3d = %4.1f %% (target ≤ %.0f %%); %s",
			name, caught.flagged, caught.total, 100*caught.rate(), 100*crisisCaughtTarget,
			refused.flagged, refused.total, 100*refused.rate(), 100*ordinaryRefusedTarget, kind)
	}
	for _, r := range crisisRounds {
		caught := screenFile(t, r.crisis, true)
		refused := screenFile(t, r.ordinary, false)
		if r.heldOut {
			report(r.name, caught, refused, "held out, not held to the targets")
			continue
		}
		report(r.name, caught, refused, "seen")
		seenCaught.flagged += caught.flagged
		seenCaught.total += caught.total
		seenRefused.flagged += refused.flagged
		seenRefused.total += refused.total
	}
	report("all seen", seenCaught, seenRefused, "held to the targets")
	if seenCaught.rate() < crisisCaughtTarget {
		t.Errorf("caught %.1f %% of the seen crisis phrasings, want at least %.0f %%", 100*seenCaught.rate(), 100*crisisCaughtTarget)
	}
	if seenRefused.rate() > ordinaryRefusedTarget {
		t.Errorf("refused %.1f %% of the seen ordinary intentions, want at most %.0f %%", 100*seenRefused.rate(), 100*ordinaryRefusedTarget)
	}
	if seenCaught.total < 80 || seenRefused.total < 150 {
		t.Errorf("the seen corpus has %d crisis and %d ordinary lines, want at least 80 and 150", seenCaught.total, seenRefused.total)
	}
}

// The phrasings issue 9 saw start a session.
func TestCrisisScreenIssueExamples(t *testing.T) {
	offersHelp(t,
		"I don't want to be here anymore",
		"I'd be better off dead",
		"kms",
		"thinking of ending it all",
		"I don't see the point of living anymore",
		"I feel hopeless and can't go on",
		"sleep, I feel hopeless and want it all to stop",
	)
}

// offersHelp checks that each intention gets help, not a session.
func offersHelp(t *testing.T, intentions ...string) {
	t.Helper()
	for _, l := range intentions {
		if _, ok := Check(l).(*Error); !ok {
			t.Errorf("%q started a session, want help", l)
		}
	}
}

// The family issue 22 saw start a session ("last night on earth, help me
// relax"), each phrasing on its own: the corpus test counts rates, and
// five of these seven were missed while its rate still passed. Their
// ordinary near-misses still start one.
func TestCrisisScreenLastNightOnEarth(t *testing.T) {
	offersHelp(t,
		"last night on earth, help me relax",
		"my last night on earth so i want to be calm",
		"final night on earth. just help me breathe",
		"last day alive, help me feel at peace",
		"it's my last night alive and i want to sleep well",
		"calm for my last hours on earth",
		"help me relax, last night of my life",
	)
	for _, l := range []string{
		"last night in paris, help me relax",
		"last night of the holiday, help me sleep",
		"last night on the island before we fly home",
		"my last day on the job tomorrow, calm my nerves",
		"the last night of the festival wore me out",
		"best night on earth with friends, now winding down",
		"last night was rough, help me relax",
	} {
		if err := Check(l); err != nil {
			t.Errorf("%q was refused (%v), want a session", l, err)
		}
	}
}

func TestNormalizeIntention(t *testing.T) {
	for in, want := range map[string]string{
		"I don’t WANNA diiie!!":          "i dont want to die",
		"I'd be beter off ded...":        "id be better off dead",
		"s*icide thoughts":               "suicide thoughts",
		"k1ll my self":                   "kill myself",
		"sleep, I feel hopeless":         "sleep , i feel hopeless",
		"self-harm":                      "self harm",
		"wake at 4am, 1 hour":            "wake at 4am , 1 hour",
		"i do not want to live any more": "i dont want to live anymore",
		"I wnat to end my lfie":          "i want to end my life",
		"i wnat to dei":                  "i want to die",
		"thinkin about killin myslef":    "thinking about killing myself",
		"sucidal, i wana diee":           "suicidal , i want to die",
		"took 30 tylenol":                "took dozens tylenol",
		"we're fine, they’re asleep":     "we are fine , they are asleep",
		// Words of their own are not typos, however close.
		"homeless and tired":           "homeless and tired",
		"a walk on the beach, a table": "a walk on the beach , a table",
		"dye my hair":                  "dye my hair",
	} {
		if got := normalizeIntention(in); got != want {
			t.Errorf("normalizeIntention(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCrisisWordForms(t *testing.T) {
	lx := crisisLexicon()
	for in, want := range map[string]string{
		"killing": "kill", "killed": "kill", "kills": "kill", "cutting": "cut",
		"living": "live", "lived": "live", "dying": "die", "died": "die",
		"pills": "pill", "wishes": "wish", "cares": "care", "overdosed": "overdose",
		"rehomed": "rehome", "planning": "plan", "being": "being", "going": "go",
		"doing": "do",
		// Only to a word the lists hold: "thing" is not "the".
		"thing": "thing", "bring": "bring",
	} {
		if got := lx.stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every list of crisis_concepts.txt is read by the screen, and every list
// the rules name is in the file: a list renamed on one side only would
// silently read nothing.
func TestCrisisConceptsAreRead(t *testing.T) {
	named := map[string]bool{}
	f, err := parser.ParseFile(gotoken.NewFileSet(), "crisis_rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && strings.HasPrefix(v.Names[0].Name, "c") && len(v.Values) == 1 {
			if lit, ok := v.Values[0].(*ast.BasicLit); ok {
				named[strings.Trim(lit.Value, `"`)] = true
			}
		}
		return true
	})
	lx := crisisLexicon()
	inFile := map[string]bool{}
	for _, c := range lx.order {
		inFile[c] = true
		// Lists only ever read inside another's phrases.
		slotOnly := c == "VEHICLE" || c == "DEPART" || c == "WORLD"
		if !named[c] && !slotOnly {
			t.Errorf("[%s] is in crisis_concepts.txt but no rule reads it", c)
		}
	}
	for c := range named {
		if !inFile[c] {
			t.Errorf("the rules read [%s], which crisis_concepts.txt does not list", c)
		}
	}
	for _, bad := range []string{
		"[SUICIDE]\nwhat\nKill Myself\n",
		"[SUICIDE]\nwhat\nhit by [NOWHERE]\n",
		"a word before any list\n",
		"[A]\nwhat\nx\n[A]\nwhat\ny\n",
	} {
		if _, err := parseLexicon(bad); err == nil {
			t.Errorf("parseLexicon(%q) = nil error, want one", bad)
		}
	}
}

// Each rule, on a phrasing it is for and on its ordinary twin.
func TestCrisisRules(t *testing.T) {
	for _, c := range []struct{ text, rule string }{
		{"suicidal again", "names it"},
		{"i'm not suicidal, just tired", ""},
		{"my son is suicidal and i can't sleep", ""},
		{"writing a paper on suicide prevention", ""},
		{"five years since my suicide attempt and grateful to be alive", ""},
		{"relapsed on self harm after two years clean", "names it"},
		{"second attempt this year", "names it"},
		{"deadlift PR attempt tomorrow", ""},
		{"all i want is to die", "wishes to die"},
		{"i wish i could just not exist", "wishes to die"},
		{"i wish i was never born", "a life not wanted"},
		{"i don't want to die, i'm scared of surgery", ""},
		{"scared i'm going to die on the plane", ""},
		{"my grandma is ready to die", ""},
		{"phone's at 1%, about to die", ""},
		{"i feel like dying", "wishes to die"},
		{"i feel like dying after this workout", ""},
		{"sleep forever", "wishes to die"},
		{"dead tired", ""},
		{"no reason to keep going", "a life not wanted"},
		{"tired of living out of a suitcase", ""},
		{"i don't want to wake up at 4am again", ""},
		{"i won't be around much longer", "a life not wanted"},
		{"i'm not going to be around this weekend", ""},
		{"life is meaningless", "life unbearable"},
		{"nothing left for me here", "despair"},
		{"i want it all to end", "everything to end"},
		{"i want it all to slow down", ""},
		{"hopeless, i just want it over", "hopeless and ending"},
		{"hopeless at maths, exam tomorrow", ""},
		{"relapsed and cut my thighs", "self-harm to the body"},
		{"cut my finger chopping onions", ""},
		{"burned my arm on purpose", "self-harm to the body"},
		{"cut my hair short on purpose", ""},
		{"took 30 tylenol", "pills taken or kept"},
		{"took a bunch of meds for my cold", ""},
		{"drank bleach", "pills taken or kept"},
		{"cleaning with bleach all day", ""},
		{"bought a rope today", "a weapon at hand"},
		{"bought a new climbing rope", ""},
		{"i want to jump off the bridge", "a height, a road, the water"},
		{"a man jumped in front of my train", ""},
		{"standing on the bridge right now", "at the edge"},
		{"on the roof of my building watching the sunset", ""},
		{"i keep looking at tall buildings", "dwelling on the means"},
		{"how many sleeping pills would kill me", "looking up how"},
		{"how many melatonin is safe", ""},
		{"wrote my letters, just want calm before", "a farewell"},
		{"my last day at my job, bittersweet", ""},
		{"i'm just a burden to my family", "a burden"},
		{"student loans are such a burden", ""},
		{"nobody would notice if i was gone", "if I were gone"},
		{"nobody would notice if i left the party early", ""},
		{"i want to join my mom in heaven", "following the dead"},
		{"i will see grandpa in heaven one day", ""},
		{"death sounds peaceful right now", "death welcomed"},
		{"quiero morirme", "names it"},
		// Added with blind round C: what each missed kind said about the
		// reader's design, each with its ordinary twin.
		// A means kept within reach, or at the body, needs no verb of
		// intent.
		{"the gun is under my bed", "a weapon at hand"},
		{"my dad's gun is in the safe, it makes me nervous", ""},
		{"holding a razor blade against my arm", "a weapon at hand"},
		{"sailing, holding the rope against the wind", ""},
		{"sitting in the closed garage with the engine running", "fumes in a closed space"},
		{"the carbon monoxide alarm in the garage keeps beeping", ""},
		{"parked by the railway tracks waiting", "at the edge"},
		{"i live near the train tracks and the noise keeps me up", ""},
		{"heading up to the rooftop now", "at the edge"},
		{"going up to the roof for the fireworks", ""},
		{"checked how tall the tower is and whether i would survive the fall", "looking up how"},
		{"looked up how high the bridge is for my engineering class", ""},
		{"the pills are next to me on the bed", "pills taken or kept"},
		{"my sleeping pill is right here in case i wake up", ""},
		{"swallowed dozens of my dad's pills", "pills taken or kept"},
		{"my dad takes dozens of pills a day", ""},
		{"going to take the whole bottle tonight", "pills taken or kept"},
		{"could drink the whole bottle tonight lol", ""},
		{"mixing my benzos with whiskey on purpose", "on purpose"},
		{"took my klonopin as prescribed, want to sleep", ""},
		{"the train tracks keep calling me", "dwelling on the means"},
		{"the beach is calling me", ""},
		// Dying as a purpose: "so I can die".
		{"stopped eating so i can die", "wishes to die"},
		{"stopped drinking coffee so i can sleep", ""},
		// A plan with a second sign, or said alone; an occasion makes it
		// ordinary.
		{"ive got a plan and ive got the means", "a plan"},
		{"i have a plan and i have the budget for the trip", ""},
		{"months of misery, now i have a plan", "a plan"},
		{"months of back pain, now i have a plan with my physio", ""},
		{"picked a date", "a plan"},
		{"we picked a date for the wedding", ""},
		// The act left unnamed, readied, with nothing it could be.
		{"help me find the strength to go through with it", "the act unnamed"},
		{"need the nerve to do it, the ice bath tomorrow", ""},
		{"forgive me for what im going to do", "the act unnamed"},
		{"tomorrow im asking her out, give me courage to do it", ""},
		// Sleep made permanent, in one sentence or an afterthought.
		{"rest. forever.", "wishes to die"},
		{"fix my sleep. for good this time", ""},
		{"i hope my heart just stops in my sleep", "wishes to die"},
		{"i hope my heart stops racing soon", ""},
		{"please god let me die tonight", "wishes to die"},
		{"let me sleep in tomorrow", ""},
		{"dear god take me home tonight", "following the dead"},
		{"oh god, please take me home, this date is awful", ""},
		// Going to the one who died.
		{"i want to join my wife who passed", "following the dead"},
		{"i want to join my wife who is in paris", ""},
		{"lost my mum in may and i want to go with her", "following the dead"},
		{"my mum is going to the doctor and i want to go with her", ""},
		// Self-harm to oneself, wanted or a habit, however it is said.
		{"i want to hurt myself so the pain goes away", "names it"},
		{"i hurt myself lifting boxes, sore", ""},
		{"scratching myself with a fork again", "names it"},
		{"burned myself on the oven again, clumsy", ""},
		{"biting my wrist until it bleeds", "self-harm to the body"},
		{"mosquito bites on my arm, itchy", ""},
		{"i deserve the pain", "names it"},
		{"a year clean from self harm but the urge came back", "names it"},
		{"a year clean from self harm and the urges are gone", ""},
		// Not existing, said as leaving a website.
		{"i want to be erased from existence", "wishes to die"},
		{"i want my old posts to be deleted", ""},
		{"ready to exit this world", "wishes to die"},
		{"i want to leave the world behind for an hour", ""},
		// Farewells: said to someone, a last wish, "till the end".
		{"told my sister goodbye and switched off my phone", "a farewell"},
		{"my sister said goodbye at the airport", ""},
		{"my last wish is a quiet night", "a farewell"},
		{"my last wish before the holidays is a calm week", ""},
		{"gave my dog away, want to feel this calm till the end", "a farewell"},
		{"gave away old clothes, want to stay calm till the end of the week", ""},
		{"songs for my funeral, which is not long now", "a death foreseen"},
		{"planning my grandpa's funeral, sooner than we thought", ""},
		// A burden set free; the world healed by an absence.
		{"he deserves better than a burden like me, im going to set him free", "a burden"},
		{"we broke up and i set him free, need sleep", ""},
		{"everyone would heal if i just vanished", "if I were gone"},
		{"everyone would heal faster if i just rested more", ""},
		// A survived attempt regretted; a joke taken back.
		{"survived the overdose, wish it had worked", "names it"},
		{"survived my first marathon, wish i hadnt worn new shoes", ""},
		{"lol jk. no seriously i want to die", "wishes to die"},
		{"no i dont want to die, just tired", ""},
		// Hyperbole, laughter, games and sports, someone else's attempt,
		// a subject of study.
		{"this deadline will be the death of me", ""},
		{"my mom will kill me when she finds out", ""},
		{"my boss will kill me", ""},
		{"i hope the pills will kill me", "wishes to die"},
		{"dead. so funny. bedtime", ""},
		{"suicide drills at soccer practice", ""},
		{"the suicide door on my car is stuck", ""},
		{"ran suicides until i puked", ""},
		{"one of my patients attempted suicide today", ""},
		{"memorizing lethal doses for the pharmacology exam", ""},
		{"been studying lethal doses of my pills", "names it"},
	} {
		if got := screenCrisis(c.text); got != c.rule {
			t.Errorf("%q: rule %q, want %q", c.text, got, c.rule)
		}
	}
}

// The screen reads any length in time linear in it, and a long intention
// is read whole: a crisis phrasing after 10,000 characters of ordinary
// worry is caught, the worry alone is not. (The intention is capped
// elsewhere; the screen does not count on it. Its cost on such text is
// measured by BenchmarkScreenCrisis, not asserted here.)
func TestCrisisScreenLongIntention(t *testing.T) {
	worry := strings.Repeat("so much to do at work and i keep worrying about the deadline, ", 170)[:10000]
	if sign := screenCrisis(worry); sign != "" {
		t.Errorf("10,000 characters of worry refused (%s)", sign)
	}
	if sign := screenCrisis(worry + " and honestly i want to die"); sign == "" {
		t.Error("a crisis phrasing after 10,000 characters of worry was missed")
	}
	// Text made of the vocabulary's own words and negations, so that every
	// concept is found everywhere: it must still come back.
	_ = screenCrisis(vocabularyText())
}

// vocabularyText is 10,000 characters of the lexicon's own words, with
// negations between them.
func vocabularyText() string {
	var words []string
	for w := range crisisLexicon().words {
		words = append(words, w)
	}
	slices.Sort(words)
	return strings.Repeat("not "+strings.Join(words, " not ")+" , ", 3)[:10000]
}

// go test -run '^$' -bench ScreenCrisis ./crisis
func BenchmarkScreenCrisis(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"intention", "help me sleep, so much worry about the move and my mum's health"},
		{"10000 worry", strings.Repeat("so much to do at work and i keep worrying about the deadline, ", 170)[:10000]},
		{"10000 negated crisis", strings.Repeat("not want to die , scared of dying , if i was gone ", 200)[:10000]},
		{"10000 vocabulary", vocabularyText()},
		// One phrase over and over: every mention looks around it, but
		// only so far (reach).
		{"10000 die", strings.Repeat("die ", 2500)},
		// The unnamed act looks around itself for what "it" is; adverbs
		// are stepped over inside terms; afterthoughts are joined.
		{"10000 do it", strings.Repeat("courage to do it , ", 530)[:10000]},
		{"10000 adverbs", strings.Repeat("my heart just really ", 480)[:10000]},
		{"10000 afterthoughts", strings.Repeat("sleep , permanently , ", 460)[:10000]},
		{"10000 plans", strings.Repeat("set a date , i have a plan , ", 350)[:10000]},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				screenCrisis(bc.text)
			}
		})
	}
}
