package crisis

import "strings"

// The concepts the rules read: the lists of prompts/crisis_concepts.txt.
const (
	cSuicide    = "SUICIDE"
	cAttempt    = "ATTEMPT"
	cSelfHarm   = "SELFHARM"
	cHarm       = "HARM"
	cBody       = "BODY"
	cBleeding   = "BLEEDING"
	cOnPurpose  = "ON PURPOSE"
	cHabit      = "HABIT"
	cEveryday   = "EVERYDAY"
	cDeath      = "DEATH"
	cLife       = "LIFE"
	cPresence   = "PRESENCE"
	cWish       = "WISH"
	cThink      = "THINK"
	cLightWish  = "LIGHT WISH"
	cNot        = "NOT"
	cWeary      = "WEARY"
	cUnbearable = "UNBEARABLE"
	cDespair    = "DESPAIR"
	cHopeless   = "HOPELESS"
	cEnding     = "ENDING"
	cAllEnding  = "ALL ENDING"
	cForever    = "FOREVER"
	cWelcome    = "WELCOME"
	cPlan       = "PLAN"
	cSuffering  = "SUFFERING"
	cAct        = "ACT"
	cPrepare    = "PREPARE"
	cSession    = "SESSION"
	cSubstance  = "SUBSTANCE"
	cPoison     = "POISON"
	cTake       = "TAKE"
	cAmount     = "AMOUNT"
	cAllOfThem  = "ALL OF THEM"
	cHoard      = "HOARD"
	cWeapon     = "WEAPON"
	cHandle     = "HANDLE"
	cPlunge     = "PLUNGE"
	cHeight     = "HEIGHT"
	cLedge      = "LEDGE"
	cRoad       = "ROAD"
	cWater      = "WATER"
	cEdge       = "EDGE"
	cTracks     = "TRACKS"
	cNear       = "NEAR"
	cHeading    = "HEADING"
	cFumes      = "FUMES"
	cSealed     = "SEALED"
	cDwelling   = "DWELLING"
	cLook       = "LOOK"
	cCalling    = "CALLING"
	cQuery      = "QUERY"
	cLethal     = "LETHAL"
	cFarewell   = "FAREWELL"
	cInOrder    = "IN ORDER"
	cFinal      = "FINAL"
	cSoon       = "SOON"
	cFamily     = "FAMILY"
	cOccasion   = "OCCASION"
	cBurden     = "BURDEN"
	cRelease    = "RELEASE"
	cIfGone     = "IF GONE"
	cReaction   = "REACTION"
	cFollow     = "FOLLOW"
	cBeWith     = "BE WITH"
	cGoTo       = "GO TO"
	cBeyond     = "BEYOND"
	cCalledHome = "CALLED HOME"
	cDivine     = "DIVINE"
	cDied       = "DIED"
	cSomeday    = "SOMEDAY"
	cSelf       = "SELF"
	cOther      = "OTHER"
	cRecovered  = "RECOVERED"
	cRelapse    = "RELAPSE"
	cRegret     = "REGRET"
	cFear       = "FEAR"
	cTopic      = "TOPIC"
	cAsked      = "ASKED"
	cNamedThing = "NAMED THING"
	cStudy      = "STUDY"
	cCourse     = "COURSE"
	cFigurative = "FIGURATIVE"
	cLaughter   = "LAUGHTER"
	cFiller     = "FILLER"
	cWhen       = "WHEN"
	cLink       = "LINK"
	cRealWords  = "REAL WORDS"
)

// crisisRule is one way the concepts of an intention, found together, say
// "this person may not be safe".
type crisisRule struct {
	name  string
	holds func(r *reading) bool
}

// crisisRules are tried in order; the first that holds names the refusal in
// the log. Each says which concepts it reads and which frames make them
// something else.
var crisisRules = []crisisRule{
	{"names it", namesIt},
	{"wishes to die", wishesToDie},
	{"a life not wanted", lifeNotWanted},
	{"life unbearable", lifeUnbearable},
	{"despair", despairs},
	{"everything to end", everythingToEnd},
	{"hopeless and ending", hopelessAndEnding},
	{"self-harm to the body", harmToTheBody},
	{"on purpose", onPurpose},
	{"pills taken or kept", pills},
	{"a weapon at hand", weaponAtHand},
	{"a height, a road, the water", plunge},
	{"at the edge", atTheEdge},
	{"fumes in a closed space", fumes},
	{"dwelling on the means", lookingAtTheMeans},
	{"looking up how", lookingUpHow},
	{"a plan", planned},
	{"the act unnamed", actUnnamed},
	{"a farewell", farewell},
	{"a death foreseen", deathForeseen},
	{"a burden", burden},
	{"if I were gone", ifGone},
	{"following the dead", followingTheDead},
	{"death welcomed", deathWelcomed},
}

// namesIt: suicide, self-harm or an attempt named, as the writer's own, not
// negated ("not suicidal"), not talked about ("suicide prevention"), not a
// past survived ("five years since my attempt"). An attempt is also not
// one at a test or a marathon (an occasion named). "Suicides" are drills
// at practice or figures in a report, never the writer's own. Self-harm
// said with what or where ("burning myself with the curling iron") is
// still self-harm when it is wanted or a habit, and no accident is named.
func namesIt(r *reading) bool {
	for _, c := range []string{cSuicide, cSelfHarm, cAttempt} {
		for _, m := range r.byC[c] {
			if r.aboutIt(m) || !r.writers(m) || r.toks[m.from].word == "suicides" && m.to == m.from+1 {
				continue
			}
			ch := r.chainBefore(m)
			if ch.nots%2 == 1 {
				continue
			}
			if !r.alone(m, false) && (c != cSelfHarm || !r.selfHarmMeant(m, ch)) {
				continue
			}
			if r.survived() || (c == cAttempt && r.has(cOccasion)) {
				continue
			}
			return true
		}
	}
	return false
}

// selfHarmMeant reports whether a harm to oneself said with what or where
// is meant: wished for ("I want to hurt myself with a razor"), or told as
// a habit ("burning myself with the curling iron again") with no accident
// named.
func (r *reading) selfHarmMeant(m mention, ch chain) bool {
	// Only a harm done to "myself" says whose body it is: "trying to cut
	// back" is coffee.
	if r.toks[m.to-1].word != "myself" {
		return false
	}
	// "I want to stop hurting myself with self criticism" wants it over.
	return (ch.wish || ch.think) && !ch.weary || r.inClause(m, cHabit, false) && !r.has(cEveryday)
}

// wishesToDie: a wish for DEATH, the writer's ("I want to die", "all I
// want is to not exist", "I hope I get hit by a car"), not turned around
// ("I don't want to die"), not fear ("scared I'm going to die"). An
// intention that is only a wish for death ("sleep forever") wishes it,
// unless it laughs.
func wishesToDie(r *reading) bool {
	for _, m := range r.byC[cDeath] {
		if !r.alone(m, false) || r.fearBefore(m) || r.aboutIt(m) {
			continue
		}
		ch := r.chainBefore(m)
		if ch.other || ch.nots%2 == 1 {
			continue
		}
		// What someone or something will do to the writer ("my boss will
		// kill me") is wished only with a wish of the writer's before it
		// ("I hope the pills will kill me").
		if ch.foretold && r.toks[m.to-1].word == "me" && !r.wishedBefore(m) {
			continue
		}
		// Thinking of dying is a sign; thinking about death, after a
		// funeral, is thought.
		if ch.wish || ch.think && r.toks[m.from].stem != "death" || ch.lightWish && !r.bounded(m, false) {
			return true
		}
		// "ded. too funny" is laughing.
		if m.from == 0 && !r.bounded(m, false) && !r.has(cLaughter) {
			return true
		}
	}
	return false
}

// wishedBefore reports whether a wish that is not a "will" stands before
// m in its clause: "I hope this storm will kill me".
func (r *reading) wishedBefore(m mention) bool {
	for i := max(r.clauseStart(m.from), m.from-reach); i < m.from; i++ {
		if n, ok := r.startingAt(i, cWish); ok && !foretelling[r.wordsOf(n)] {
			return true
		}
	}
	return false
}

// lifeNotWanted: LIFE or PRESENCE turned into its absence by a negation or
// weariness, the writer's: "I don't want to live", "I wish I didn't
// exist", "tired of being alive", "no reason to keep going", "I won't be
// around much longer". Not "I don't want to wake up at 4am", not "tired of
// living in this city", not "not around this weekend".
func lifeNotWanted(r *reading) bool {
	for _, c := range []string{cLife, cPresence} {
		for _, m := range r.byC[c] {
			if !r.alone(m, c == cPresence) || r.fearBefore(m) {
				continue
			}
			ch := r.chainBefore(m)
			if !ch.other && (ch.weary || ch.nots%2 == 1) {
				return true
			}
		}
	}
	return false
}

// lifeUnbearable: life said to be unbearable ("life is meaningless",
// "being alive is torture").
func lifeUnbearable(r *reading) bool {
	for _, m := range r.byC[cLife] {
		if m.to+1 >= len(r.toks) {
			continue
		}
		switch r.toks[m.to].word {
		case "is", "feels", "seems", "has":
			if _, ok := r.after(mention{to: m.to + 1}, cUnbearable, 2); ok && r.writers(m) {
				return true
			}
		}
	}
	return false
}

// despairs: despair that names the end of the road ("nothing left for me
// here", "only one way out").
func despairs(r *reading) bool {
	for _, m := range r.byC[cDespair] {
		if r.alone(m, false) && r.chainBefore(m).nots%2 == 0 {
			return true
		}
	}
	return false
}

// everythingToEnd: everything wanted over ("I want it all to end"), or an
// ending wanted for ever ("I want the pain to stop permanently").
func everythingToEnd(r *reading) bool {
	for _, m := range r.byC[cAllEnding] {
		if r.alone(m, false) && !r.chainBefore(m).other {
			return true
		}
	}
	for _, m := range r.byC[cEnding] {
		if r.alone(m, false) && r.inClause(m, cForever, false) {
			return true
		}
	}
	return false
}

// hopelessAndEnding: hopelessness is a bad night; with a wish for it to
// end, anywhere in the intention, it is more ("I can't do this anymore, I
// want it over"). Not "hopeless at maths", not "I want this week to end".
func hopelessAndEnding(r *reading) bool {
	var endings []mention
	for _, m := range r.byC[cEnding] {
		if r.alone(m, false) {
			endings = append(endings, m)
		}
	}
	for _, h := range r.byC[cHopeless] {
		if !r.alone(h, false) || r.chainBefore(h).nots%2 == 1 {
			continue
		}
		for _, m := range endings {
			// Two things said, not one phrase read twice ("I'm done");
			// only the few phrases on h's own words can fail this.
			if m.to <= h.from || h.to <= m.from {
				return true
			}
		}
	}
	return false
}

// harmToTheBody: an injury to the arms, thighs, skin ("cut my thighs",
// "carving into my skin", "burning my arms with a lighter") or until it
// bleeds ("punched the wall until my knuckles bled"), the writer's. Not
// an accident or an illness named ("cut my leg shaving", "burned my arm on
// the oven", "eczema, scratching my skin").
func harmToTheBody(r *reading) bool {
	if r.has(cEveryday) {
		return false
	}
	for _, m := range r.byC[cHarm] {
		if !r.writers(m) || r.chainBefore(m).nots%2 == 1 {
			continue
		}
		if r.inClause(m, cBleeding, false) {
			return true
		}
		// The body right after the act ("cut my thighs"), or cut into
		// ("carving words into my skin").
		for i := m.to; i <= m.to+3 && i+1 < len(r.toks) && !r.toks[i].brk; i++ {
			if r.toks[i].word != "my" || (i > m.to && r.toks[i-1].word != "into") {
				continue
			}
			if b, ok := r.startingAt(i+1, cBody); ok && !r.bounded(b, false) {
				return true
			}
		}
	}
	return false
}

// onPurpose: the body, a pill or oneself hurt on purpose ("burned my arm on
// purpose", "stopped taking my insulin on purpose"). Not "took the day off
// on purpose".
func onPurpose(r *reading) bool {
	for _, m := range r.byC[cOnPurpose] {
		if !r.writers(m) {
			continue
		}
		// A cut or a hit alone is a haircut, a snooze: the harm needs its
		// object.
		for _, c := range []string{cBody, cSubstance, cWeapon} {
			if r.inClause(m, c, false) {
				return true
			}
		}
		for i := max(r.clauseStart(m.from), m.from-reach); i < m.from; i++ {
			if h, ok := r.startingAt(i, cSelfHarm); (ok && r.alone(h, false)) || r.toks[i].word == "myself" {
				return true
			}
		}
	}
	return false
}

// pills: many taken at once ("took 30 tylenol", "swallowed a whole bottle
// of advil", "I will swallow them all", "taking the whole bottle"), kept
// or at hand ("I have the pills saved up", "the pills are right here"), or
// a poison taken ("drank bleach"). Not a dose ("took my sleeping pill"),
// not for a named purpose ("took a bunch of meds for my cold", "right here
// in case I need one"), not someone else's ("my mom takes so many pills";
// "took 30 of my mum's tablets" is the writer's).
func pills(r *reading) bool {
	for _, m := range r.byC[cTake] {
		if !r.writers(m) || r.chainBefore(m).nots%2 == 1 {
			continue
		}
		if _, ok := r.after(m, cPoison, 3); ok {
			return true
		}
		// "the whole bottle", drunk, is a drink.
		if a, ok := r.after(m, cAllOfThem, 1); ok && r.alone(a, false) && !(a.alone && r.toks[m.from].stem == "drink") {
			return true
		}
	}
	for _, s := range r.byC[cSubstance] {
		if !r.writers(s) {
			continue
		}
		last, counted := s, false
		for i := s.from - 1; i >= s.from-5 && i >= 0 && !r.toks[i].brk; i-- {
			if _, ok := r.startingAt(i, cAmount, cHoard); ok {
				counted = true
			}
		}
		if h, ok := r.after(s, cHoard, 3); ok {
			last, counted = h, true
		}
		if counted && !purposeAfter(r, last) {
			return true
		}
	}
	return false
}

// purposeAfter reports whether what follows a dose names what it is for:
// "for my cold", "as prescribed", "to help me sleep", "on time", "if I
// need one", "in case".
func purposeAfter(r *reading, m mention) bool {
	i := m.to
	for i < len(r.toks) && !r.toks[i].brk {
		if n, ok := r.startingAt(i, cFiller, cWhen, cHoard); ok {
			i = n.to
			continue
		}
		switch r.toks[i].word {
		case "for":
			// How long it has been kept is no purpose: "for a while".
			return i+1 >= len(r.toks) || !durations[r.toks[i+1].word]
		case "as", "to", "with", "since", "after", "because", "every", "each", "at", "if":
			return true
		case "in":
			return i+1 < len(r.toks) && r.toks[i+1].word == "case"
		case "on":
			return i+1 < len(r.toks) && r.toks[i+1].word == "time"
		}
		return false
	}
	return false
}

var durations = map[string]bool{"a": true, "weeks": true, "months": true, "days": true, "years": true, "ages": true}

// weaponAtHand: a gun, a rope, a blade held, bought, loaded, kept near or
// stared at, by the writer ("found my dad's gun" is the writer's find),
// or kept where the writer can reach it ("the rope is in the trunk of my
// car", "my dad's gun is in the closet and I know the combination").
// Not a jump rope or a knife skills class (figures of speech), not a gun
// licence or gun violence (the weapon names another thing), not a knife
// "to cut the bread" or "for cooking".
func weaponAtHand(r *reading) bool {
	if r.has(cEveryday) {
		return false
	}
	for _, m := range r.byC[cWeapon] {
		if r.aboutIt(m) || !r.weaponItself(m) || forSomething(r, m) {
			continue
		}
		// Whose hand it is in: "found my dad's gun" is the writer's find.
		for i := max(r.clauseStart(m.from), m.from-reach); i < len(r.toks) && i <= m.to+reach && !r.toks[i].brk; i++ {
			if h, ok := r.startingAt(i, cHandle); ok && r.writers(h) {
				return true
			}
		}
	}
	return false
}

// forSomething reports whether the clause says, after m, what it is for:
// "a gun at home for hunting".
func forSomething(r *reading, m mention) bool {
	for i := m.to; i < len(r.toks) && i < m.to+reach && !r.toks[i].brk; i++ {
		if r.toks[i].word == "for" {
			return true
		}
	}
	return false
}

// weaponItself reports whether the weapon named is the thing itself: what
// follows it is nothing, a filler, a place or a having ("the rope is in the
// garage", "a gun today", "a knife to my wrist"), not a noun it names
// ("gun licence") or a purpose ("a knife to cut the bread").
func (r *reading) weaponItself(m mention) bool {
	i := m.to
	if i >= len(r.toks) || r.toks[i].brk {
		return true
	}
	if r.toks[i].word == "to" {
		next := ""
		if i+1 < len(r.toks) {
			next = r.toks[i+1].word
		}
		return smallWords[next] || next == "me" || next == "myself"
	}
	if _, ok := r.startingAt(i, cHandle, cHoard, cFiller, cWhen, cLink); ok {
		return true
	}
	switch r.toks[i].word {
	case "in", "on", "under", "next", "by", "from", "at", "with", "that", "which", "are", "and", "is", "against":
		return true
	}
	return false
}

// plunge: jumping from a height, stepping in front of a train, driving into
// a tree, walking into the sea; the writer's, not feared ("scared of
// jumping off the high dive" is no height of this kind anyway).
func plunge(r *reading) bool {
	for _, m := range r.byC[cPlunge] {
		if !r.writers(m) || r.fearBefore(m) || r.chainBefore(m).nots%2 == 1 {
			continue
		}
		// "the bridge", "the top of my building", "a tree on the highway";
		// not "the sea of calm".
		for i := m.to; i <= m.to+5 && i < len(r.toks) && !r.toks[i].brk; i++ {
			if p, ok := r.startingAt(i, cHeight, cRoad, cWater); ok && (p.to == len(r.toks) || r.toks[p.to].word != "of") {
				return true
			}
		}
	}
	return false
}

// atTheEdge: on a bridge, a roof, a ledge, by the tracks, and nothing after
// it says why ("standing on the bridge right now", "I'm on the roof and I
// can't stop looking down"); parked or waiting near the tracks; on the way
// to such a place, as the last thing said ("going up to the roof now").
// Not "on the roof of my building watching the sunset", not "heading to
// the bridge, meeting friends", not where one lives ("I live near the
// train tracks").
func atTheEdge(r *reading) bool {
	at := func(m mention, places ...string) (mention, bool) {
		if !r.writers(m) || r.fearBefore(m) || r.inClause(m, cDwelling, true) {
			return mention{}, false
		}
		for _, c := range places {
			if p, ok := r.after(m, c, 2); ok {
				return p, true
			}
		}
		return mention{}, false
	}
	for _, m := range r.byC[cEdge] {
		if p, ok := at(m, cLedge, cTracks); ok && !r.bounded(p, false) {
			return true
		}
	}
	for _, m := range r.byC[cNear] {
		if p, ok := at(m, cTracks); ok && !r.bounded(p, false) {
			return true
		}
	}
	for _, m := range r.byC[cHeading] {
		if p, ok := at(m, cLedge, cTracks); ok && r.nothingAfter(p) {
			return true
		}
	}
	return false
}

// nothingAfter reports whether only filler words follow m to the end of
// the intention ("now", "right now", "tonight" is a when, and says more).
func (r *reading) nothingAfter(m mention) bool {
	for i := m.to; i < len(r.toks) && i < m.to+reach; {
		if r.toks[i].brk {
			i++
			continue
		}
		n, ok := r.startingAt(i, cFiller)
		if !ok {
			return false
		}
		i = n.to
	}
	return m.to+reach > len(r.toks)
}

// lookingAtTheMeans: looking at the tracks, a tall building, the knife, or
// one of these calling ("the bridge near my house keeps calling me"; not
// "the beach is calling me").
func lookingAtTheMeans(r *reading) bool {
	for _, m := range r.byC[cCalling] {
		for _, c := range []string{cTracks, cHeight, cWeapon, cSubstance} {
			if r.inClause(m, c, true) {
				return true
			}
		}
	}
	for _, m := range r.byC[cLook] {
		if !r.writers(m) {
			continue
		}
		for _, c := range []string{cTracks, cHeight, cWeapon} {
			if _, ok := r.after(m, c, 3); ok {
				return true
			}
		}
	}
	return false
}

// lookingUpHow: how many would it take, how much is fatal, ways to die,
// how high a bridge is and whether the fall would be enough. A lethal
// word counts with a means where the question is asked: "how much is
// fatal" alone may be about anything.
func lookingUpHow(r *reading) bool {
	for _, q := range r.byC[cQuery] {
		for i := q.to; i < len(r.toks) && i < q.to+reach && !r.toks[i].brk; i++ {
			m, ok := r.startingAt(i, cDeath, cSuicide, cLethal)
			if !ok || !r.writers(m) {
				continue
			}
			if m.concept != cLethal {
				return true
			}
			if !r.alone(m, false) {
				continue
			}
			for _, c := range []string{cSubstance, cHeight, cWater, cWeapon, cTracks} {
				if r.inClause(q, c, false) {
					return true
				}
			}
		}
	}
	return false
}

// fumes: a car's engine running or charcoal burning in a closed space
// ("the car is in the garage with the engine running"). Not an alarm
// ("the carbon monoxide alarm in the garage"), not an accident named.
func fumes(r *reading) bool {
	if !r.has(cSealed) {
		return false
	}
	for _, m := range r.byC[cFumes] {
		if r.alone(m, false) && !r.fearBefore(m) && r.chainBefore(m).nots%2 == 0 && !r.hasApart(cEveryday, m) {
			return true
		}
	}
	return false
}

// planned: a plan made, a date set, the means found, the writer's, said
// with nothing else ("I've set a date", "picked the date, it's sunday") or
// with a second sign: another of these ("I have a plan and I have the
// means"), a means named, suffering ("a whole year of pain and now I
// finally have a plan"), or finality ("set the date. just need to get
// through till then"). Not "a plan to pay off my debt" (it says what
// for), not "set the date for the wedding" (an occasion named).
func planned(r *reading) bool {
	var plans []mention
	for _, m := range r.byC[cPlan] {
		if r.alone(m, false) && r.writers(m) && r.chainBefore(m).nots%2 == 0 && !r.hasApart(cOccasion, m) {
			plans = append(plans, m)
		}
	}
	if len(plans) == 0 {
		return false
	}
	if apart(plans) >= 2 || r.onlySays(plans[0]) {
		return true
	}
	for _, c := range []string{cSubstance, cWeapon, cPoison, cSuffering, cHopeless} {
		if r.has(c) {
			return true
		}
	}
	return r.final()
}

// final reports whether the intention holds a word of finality ("till
// then", "before", "for the last time").
func (r *reading) final() bool {
	for _, m := range r.byC[cFinal] {
		if r.alone(m, false) {
			return true
		}
	}
	return false
}

// onlySays reports whether m is all a short intention says: every other
// word is a small one (a filler, a day, a link, the writer).
func (r *reading) onlySays(m mention) bool {
	if len(r.toks) > reach {
		return false
	}
	small := make([]bool, len(r.toks))
	for _, c := range []string{cFiller, cWhen, cLink, cSelf} {
		for _, n := range r.byC[c] {
			for i := n.from; i < n.to; i++ {
				small[i] = true
			}
		}
	}
	for i, t := range r.toks {
		if !t.brk && !small[i] && (i < m.from || i >= m.to) {
			return false
		}
	}
	return true
}

// actUnnamed: the act left unnamed ("do it", "go through with it", "what
// I'm about to do", "jump"), the writer's, readied by what comes before it
// in its part of the sentence: calm or courage for it, a plan of it, a
// "before", forgiveness asked ("help me calm down enough to actually do
// it", "calm before I jump", "God forgive me for what I'm about to do"),
// or by calm asked for before it anywhere ("doing it tonight, just want
// calm first"). Not when the intention names what "it" is (see
// namesWhatItIs).
func actUnnamed(r *reading) bool {
	for _, m := range r.byC[cAct] {
		if !r.alone(m, false) || !r.writers(m) || r.chainBefore(m).nots%2 == 1 {
			continue
		}
		if (r.inClause(m, cPrepare, true) || r.final()) && !r.namesWhatItIs(m) {
			return true
		}
	}
	return false
}

// namesWhatItIs reports whether the intention says what "it" is, outside
// m's part of the sentence: an occasion, something being done (a word in
// -ing no list reads: "asking for a raise"), or, in a part after m's,
// any word that is not a small one or a request of the session ("do it,
// propose to her tonight"; not "doing it tonight, just want calm first").
func (r *reading) namesWhatItIs(m mention) bool {
	if r.hasApart(cOccasion, m) {
		return true
	}
	if r.doings == nil {
		r.doings = map[int]bool{}
		for i, t := range r.toks {
			if len(t.word) >= 6 && strings.HasSuffix(t.word, "ing") && !notDoings[t.word] && !r.read(i) {
				r.doings[r.clause[i]] = true
			}
		}
	}
	if len(r.doings) > 1 || len(r.doings) == 1 && !r.doings[r.clause[m.from]] {
		return true
	}
	for i := r.clauseTo[r.clause[m.from]]; i < len(r.toks) && i < m.to+reach; i++ {
		if !r.toks[i].brk && !r.read(i) {
			return true
		}
	}
	return false
}

// notDoings end in -ing and say nothing being done.
var notDoings = map[string]bool{
	"morning": true, "evening": true, "nothing": true, "something": true, "everything": true,
	"anything": true, "feeling": true, "feelings": true, "spring": true,
}

// deathForeseen: the writer's own death said to be near ("music to play
// at my funeral, which will be sooner than people think").
func deathForeseen(r *reading) bool {
	if !r.has(cSoon) {
		return false
	}
	for _, m := range r.byC[cDeath] {
		if r.toks[m.from].word == "my" && !r.fearBefore(m) {
			return true
		}
	}
	return false
}

// farewell: goodbyes said, letters written, things given away, a last
// time, affairs in order. One of these is a sign with a word of finality
// ("wrote my letters, just want calm before"), when addressed to the
// family or everyone ("goodbye everyone"), when there are two ("made my
// will and said my goodbyes"), or, for a farewell proper, alone ("this is
// my last session"). Never when an ordinary occasion is named: a job, a
// move, a trip, an exam, a pet at the vet.
func farewell(r *reading) bool {
	if r.has(cOccasion) {
		return false
	}
	var acts []mention
	for _, c := range []string{cFarewell, cInOrder} {
		for _, m := range r.byC[c] {
			if r.writers(m) && r.chainBefore(m).nots%2 == 0 {
				acts = append(acts, m)
			}
		}
	}
	final := false
	for _, m := range r.byC[cFinal] {
		if r.alone(m, false) {
			final = true
		}
	}
	for _, m := range acts {
		if final {
			return true
		}
		if f, ok := r.after(m, cFamily, 3); ok && !r.bounded(f, false) {
			return true
		}
		if m.concept == cFarewell && r.alone(m, false) {
			return true
		}
	}
	return apart(acts) >= 2
}

// apart counts the mentions that do not overlap the one before: two
// things said, not one phrase read twice.
func apart(ms []mention) int {
	n := 0
	for i, m := range ms {
		if i == 0 || m.from >= ms[i-1].to || m.to <= ms[i-1].from {
			n++
		}
	}
	return n
}

// burden: the writer a weight others would be better without ("everyone
// would be better off without me", "I'm just a burden to my family"), or
// going to set them free of one ("a wife who is a burden. I'm going to set
// him free"). Not a burden at work, not a fear of becoming one, not
// someone else's burden ("student loans are such a burden").
func burden(r *reading) bool {
	if r.has(cBurden) {
		for _, m := range r.byC[cRelease] {
			if r.alone(m, false) && r.writers(m) && r.chainBefore(m).nots%2 == 0 {
				return true
			}
		}
	}
	for _, m := range r.byC[cBurden] {
		if !r.alone(m, false) || r.fearBefore(m) {
			continue
		}
		// The others are the subject ("they'd be better off without me"):
		// only a bare "burden" needs its "I am".
		ch := r.chainBefore(m)
		if ch.nots%2 == 1 || r.toks[m.from].stem == "burden" && !ch.self {
			continue
		}
		return true
	}
	return false
}

// ifGone: the world imagined without the writer, and how others would take
// it ("nobody would notice if I was gone", "it would be easier if I didn't
// wake up").
func ifGone(r *reading) bool {
	for _, m := range r.byC[cIfGone] {
		if !r.fearBefore(m) && r.has(cReaction) {
			return true
		}
	}
	return false
}

// followingTheDead: going to where the dead are ("join my mom in heaven",
// "ready to meet my maker"), asking God to be taken ("Lord, take me home
// tonight"), or following someone ("I want to follow him", "join my son
// who died"), or, after a death, wanting to be with the one who died ("I
// want to go with him"). Not "I will see grandpa in heaven one day", not
// "I want to be with my mom this weekend".
func followingTheDead(r *reading) bool {
	if r.has(cDivine) {
		for _, m := range r.byC[cCalledHome] {
			if r.alone(m, false) && r.chainBefore(m).nots%2 == 0 {
				return true
			}
		}
	}
	for _, c := range []string{cGoTo, cFollow, cBeWith} {
		for _, m := range r.byC[c] {
			if !r.writers(m) || r.inClause(m, cSomeday, false) || r.chainBefore(m).other {
				continue
			}
			if _, ok := r.after(m, cBeyond, 4); ok {
				return true
			}
		}
	}
	for _, c := range []string{cFollow, cBeWith} {
		for _, m := range r.byC[c] {
			ch := r.chainBefore(m)
			if !ch.wish || ch.other || ch.nots%2 == 1 {
				continue
			}
			if c == cBeWith && !r.has(cDied) {
				continue
			}
			// "him", "my son", "my late wife".
			for i := m.to; i <= m.to+2 && i < len(r.toks) && !r.toks[i].brk; i++ {
				if p, ok := r.startingAt(i, cOther); ok {
					if !r.bounded(p, true) || r.whoDied(p) {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

// whoDied reports whether someone is said, right after, to have died: "my
// son who died last year".
func (r *reading) whoDied(p mention) bool {
	if p.to >= len(r.toks) || r.toks[p.to].word != "who" && r.toks[p.to].word != "that" {
		return false
	}
	_, ok := r.after(mention{to: p.to + 1}, cDied, 2)
	return ok
}

// deathWelcomed: death spoken of as relief ("death sounds peaceful", "I
// keep imagining my funeral and feeling relief").
func deathWelcomed(r *reading) bool {
	for _, m := range r.byC[cDeath] {
		if !r.fearBefore(m) && r.inClause(m, cWelcome, false) && !r.chainBefore(m).other && r.writers(m) {
			return true
		}
	}
	return false
}
