package engine

import (
	"regexp"
	"strings"
)

// The crisis screen reads an intention, before a session starts, for signs
// that the person who wrote it may not be safe. It is not the sentence check
// (safety.go): an intention is one person's words about themselves, typed at
// night, with typos and slang, and a miss costs far more than a kind message
// in place of a session. So it errs toward help, and reads meaning rather
// than words: "kill the stress" and "dead tired" start a session, "kms" and
// "I'd be better off dead" do not.
//
// The text is normalized first (normalizeIntention), so the signs
// (crisis_signs.go) are written in plain lower case: no apostrophes ("dont",
// "im", "id", "cant"), "wanna" spelled "want to", clause breaks as " , ".

// crisisSign is one way of saying "I may not be safe".
type crisisSign struct {
	name string
	re   *regexp.Regexp
	// with, when set, must also appear somewhere in the intention: the sign
	// is the two together (hopelessness that reaches for an ending).
	with *regexp.Regexp
	// unlessAfter, matched against the text right after a match, is an idiom
	// that reads the same words lightly ("overdosed on coffee").
	unlessAfter *regexp.Regexp
	// unlessBefore, matched against the few words right before a match, is
	// a negation ("not suicidal").
	unlessBefore *regexp.Regexp
	// cue and withCue are the words re and with need (crisis_literals.go).
	cue, withCue cue
}

// negationReach is how far before a match a negation is looked for: a few
// words, which is where "not" and "scared of" sit, and it keeps the screen
// linear in the length of the intention however many matches it holds.
const negationReach = 60

// Pieces the signs share. {end} means the clause stops here, or goes on only
// with words that do not change what was said ("… anymore", "… and").
var signPieces = strings.NewReplacer(
	"{end}", `(?:\s*(?:,|$)|\s+(?:anymore|any longer|ever again|again|forever|for good|now|right now|tonight|tomorrow|soon|today|and|but|so|because|honestly|tbh|lol|fr|i|im|id|ive)\b)`,
	// {stop} is the clause's end, and nothing else.
	"{stop}", `(?:\s*(?:,|$))`,
	"{die}", `di+e+`,
	"{want}", `(?:want|wanted|wanting|wish|wishing|need|ready|going|plan|planning|trying|try|hope|hoping|about|deserve|would like|like|waiting|longing)`,
	"{pills}", `(?:pills|pill|meds|tablets|medication|medications|medicine|painkillers|sleeping pills|paracetamol|tylenol|advil|ibuprofen|aspirin|acetaminophen|benadryl|xanax|oxy|oxycodone|opioids|antidepressants|insulin)`,
	"{ifgone}", `if\s+i\s+(?:just\s+|simply\s+|finally\s+|ever\s+)?(?:(?:was|were)\s+(?:gone|dead|not here|not around|never born)|(?:wasnt|werent)\s+(?:here|around|alive|born)|died|die|disappeared|was to die|killed myself|didnt exist|never existed|didnt wake up|never woke up)\b`,
	"{not}", `(?:dont|not|never|no longer|didnt)`,
	// {other} is someone else the writer may grieve or fear for.
	"{other}", `(?:patient|friend|brother|sister|mother|father|mum|mom|dad|son|daughter|husband|wife|partner|cousin|uncle|aunt|boyfriend|girlfriend|grandpa|grandma|colleague|coworker|student|patient|client|neighbou?r)`,
	// {self} is the writer: "i", "im", "ill", "id", "ive".
	"{self}", `(?:i|im|ill|id|ive)`,
	// {body} is where people hurt themselves; a finger or a thumb is more
	// often the kitchen knife.
	"{body}", `(?:arms?|forearms?|wrists?|thighs?|legs?|stomach|belly|hips?|skin|body)`,
	// {beyond} is where the dead are said to be.
	"{beyond}", `(?:in heaven|in the afterlife|on the other side|in paradise)\b`,
	// {weapon} is what people hold to end their life; pills are read by
	// the pills signs.
	"{weapon}", `(?:rope|noose|gun|pistol|rifle|shotgun|revolver|firearm|knife|blade|razor|razor blade|razors|blades)`,
)

func pattern(p string) *regexp.Regexp { return regexp.MustCompile(signPieces.Replace(p)) }

func sign(name, re string) crisisSign {
	s := crisisSign{name: name, re: pattern(re)}
	s.cue = cueOf(s.re)
	return s
}

func (s crisisSign) unless(after string) crisisSign {
	s.unlessAfter = pattern(`^(?:` + after + `)`)
	return s
}

func (s crisisSign) negatedBy(before string) crisisSign {
	s.unlessBefore = pattern(`(?:` + before + `)$`)
	return s
}

func (s crisisSign) and(with string) crisisSign {
	s.with = pattern(with)
	s.withCue = cueOf(s.with)
	return s
}

// crisisIdioms are removed before the signs are read (each replaced by a
// clause break): phrases that hold a sign's words but talk about someone
// else, or about helping.
var crisisIdioms = idioms(
	// Grief for someone who died by suicide, or fear for someone who tried,
	// is grief or worry, both lull's kinds: "my friend took his own life",
	// "grief after my dads suicide", "my sister attempted suicide".
	pattern(`\b(?:who|he|she|they|{other}s?)\s+(?:\w+\s+)?(?:died|passed away|was lost|took (?:his|her|their) (?:own )?life|(?:attempted|tried|committed|completed|survived)(?: to commit)?)\s+(?:by|of|to|from|through|in)?\s*(?:suicide)?`),
	pattern(`\b(?:his|her|their|{other}s)\s+(?:own\s+)?(?:suicide|suicide attempt|attempt)\b`),
	pattern(`\blost\s+(?:my|a|our|his|her)\s+\w+\s+to\s+suicide\b`),
	// Those who work in or campaign for suicide prevention need rest too.
	pattern(`\bsuicide\s+(?:prevention|awareness|hotline|helpline|crisis line|line|loss|survivors?|risk|research|rates?|statistics|studies|study|training|assessment|screening|bereavement)\b`),
	pattern(`\b(?:paper|essay|thesis|research|study|class|course|lecture|training|talk|book|documentary|podcast|article)\s+(?:on|about)\s+suicide\b`),
	// Someone else who is suicidal is someone to worry about.
	pattern(`\b(?:he|she|they|{other}|my \w+)\s+(?:is|was|seems|has been|became|got|feels|said (?:he|she|they) (?:was|is|were|are))\s+(?:so\s+|very\s+|really\s+)?suicidal\b`),
	// A word asked about is not the word said: "what does kms mean".
	pattern(`\bwhat\s+does\s+\w+\s+mean\b|\b\w+\s+is\s+(?:such\s+)?a\s+(?:weird|strange|funny|dark|new)\s+word\b`),
)

func idioms(res ...*regexp.Regexp) []rewrite {
	out := make([]rewrite, len(res))
	for i, re := range res {
		out[i] = newRewrite(re, ",")
	}
	return out
}

// screenCrisis names the first crisis sign in the intention, or "".
func screenCrisis(intention string) string {
	text := normalizeIntention(intention)
	for _, idiom := range crisisIdioms {
		text = idiom.apply(text)
	}
	for _, s := range crisisSigns {
		if s.matches(text) {
			return s.name
		}
	}
	return ""
}

func (s crisisSign) matches(text string) bool {
	if s.cue.absentFrom(text) || (s.with != nil && (s.withCue.absentFrom(text) || !s.with.MatchString(text))) {
		return false
	}
	for _, m := range s.re.FindAllStringIndex(text, -1) {
		if s.unlessBefore != nil && s.unlessBefore.MatchString(before(text, m[0])) {
			continue
		}
		if s.unlessAfter != nil && s.unlessAfter.MatchString(text[m[1]:]) {
			continue
		}
		return true
	}
	return false
}

// before is the text up to i, at most negationReach bytes of it, cut at a
// word's start.
func before(text string, i int) string {
	if i <= negationReach {
		return text[:i]
	}
	from := i - negationReach
	if sp := strings.IndexByte(text[from:i], ' '); sp >= 0 {
		from += sp + 1
	}
	return text[from:i]
}
