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
// The text is normalized first (normalizeIntention), so the signs below are
// written in plain lower case: no apostrophes ("dont", "im", "id", "cant"),
// "wanna" spelled "want to", clause breaks as " , ".

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
	// unlessBefore, matched against the text right before a match, is a
	// negation ("not suicidal").
	unlessBefore *regexp.Regexp
}

// Pieces the signs share. {end} means the clause stops here, or goes on only
// with words that do not change what was said ("… anymore", "… and").
var signPieces = strings.NewReplacer(
	"{end}", `(?:\s*(?:,|$)|\s+(?:anymore|any longer|ever again|again|forever|for good|now|right now|tonight|tomorrow|soon|today|and|but|so|because|honestly|tbh|lol|fr|i|im|id|ive)\b)`,
	"{die}", `di+e+`,
	"{want}", `(?:want|wanted|wish|wishing|need|ready|going|plan|planning|trying|try|hope|hoping|about|deserve|would like|like)`,
	"{pills}", `(?:pills|meds|tablets|medication|medicine|painkillers|sleeping pills|paracetamol|tylenol|insulin)`,
	"{ifgone}", `if\s+i\s+(?:(?:was|were)\s+(?:gone|dead|not here|not around|never born)|(?:wasnt|werent)\s+(?:here|around|alive|born)|died|disappeared|was to die|killed myself|didnt exist)\b`,
	"{not}", `(?:dont|not|never|no longer|didnt)`,
)

func pattern(p string) *regexp.Regexp { return regexp.MustCompile(signPieces.Replace(p)) }

func sign(name, re string) crisisSign { return crisisSign{name: name, re: pattern(re)} }

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
	return s
}

// crisisSigns are read in order; the first that matches names the refusal in
// the log. Each group says why it is there.
var crisisSigns = []crisisSign{
	// Naming it. Negated ("not suicidal, just can't sleep") is taken at its
	// word; talk of someone else's death by suicide is removed before (see
	// crisisIdioms), so grief for them still gets a session.
	sign("suicide", `\bsuicid\w*`).negatedBy(`\b(?:not|never|no|no longer|isnt|arent|wasnt|im not)\s+(?:\w+\s+)?`),

	// Slang and algospeak people use of themselves, where the plain words
	// get filtered on social media.
	sign("slang", `\b(?:kms|kys|unaliv\w*|sewerslide|self delet\w*|commit die|end myself|off myself)\b`),
	sign("rope (slang)", `\b(?:want|going|time|ready|about|gonna) to rope\b`),

	// Killing or hurting oneself, any tense, including self-harm that is not
	// suicide. An accident ("cut myself shaving") or a figure of speech
	// ("hurting myself with self criticism") is not.
	sign("harm oneself", `\b(?:kill|hurt|harm|cut|burn|injur|punish|starv|hang|shoot|drown|poison|stab|hit|scratch|suffocat|strangl)\w*\s+myself\b`).
		unless(`\s+(?:shaving|cooking|by accident|accidentally|at the gym|at work|while|running|playing|lifting|working out|on (?:a|an|the|some|my)\b|with (?:self ?)?(?:criticism|critical|talk|thoughts|words|negativity|comparison|worry|blame|perfectionism|overthinking|work|caffeine|sugar|junk)|laughing)`),
	sign("on myself", `\b(?:use|using|turn|turning|point|pointing)\s+(?:it|them|a \w+|the \w+|my \w+)\s+on\s+myself\b`),
	sign("until it bleeds", `\b(?:until|till|til|to|make|made|making)\s+(?:it|they|i|myself|them)\s+bleeds?\b|\b(?:cut|cutting|scratch\w*|burn\w*|carv\w*|hit\w*|bit\w*)\s+(?:my|at my)\s+(?:arms?|wrists?|legs?|thighs?|skin|stomach|body)\b[^,]{0,30}\b(?:blood|bleed\w*|scars?|punish\w*)`),
	sign("self-harm", `\bself ?(?:harm|injur|mutilat)\w*`),
	sign("cutting", `\bcutting\s+(?:again|my (?:arms?|legs?|wrists?|skin|thighs?|body))\b|\b(?:start\w*|been|keep|kept|back to|urge to|want to|relaps\w*(?: on| into| to)?)\s+cutting\b`).
		unless(`\s+(?:down|back|out|off|up|in|carbs|sugar|caffeine|costs|corners|ties|hair|my hair|the|a|an|some|wood|paper|onions|vegetables)\b`),
	sign("want to cut", `\b(?:want|need|urge|going|itching)\s+to\s+cut(?:\s+myself)?{end}`),

	// Ending one's life, in words that leave no other reading.
	sign("end my life", `\b(?:end|ending|ended|take|taking|took)\s+(?:my|my own)\s+li(?:fe|ves)\b`),
	sign("end it all", `\b(?:end|ending)\s+(?:it all|everything|all of it)\b|\b(?:end|ending)\s+(?:it|things)\b`).
		unless(`\s+(?:with|between|there|here|early|on a|off|at work|properly|nicely|well|for the day|for today|today at)\b`),
	sign("want to die", `\b{want}\s+to\s+(?:{die}|be dead)\b`).
		// Not wanted, someone else's ("grandma is ready to die"), or
		// panic's fear ("feels like im going to die").
		negatedBy(`\b(?:dont|not|never|no longer|didnt|doesnt|scared|afraid|fear)\s+(?:\w+\s+)?|\b(?:is|are|he|she|they|its)\s+|\b(?:he|she|it|they|who|[a-z]{2,})\s+(?:was|were)\s+|\b(?:feel|feels|felt|feeling|like|as if|think|thought|sure|scared|afraid|worried)\s+(?:im|i am|i was|i will|ill)\s+`).
		unless(`\s+(?:of|from)\s+(?:embarrassment|boredom|laughter|laughing|cringe|cuteness|the heat)`),
	sign("want to be gone", `\b(?:{want}\s+to|rather|prefer(?:\s+to)?)\s+(?:be\s+gone|be\s+no\s+more|not\s+(?:exist|be alive|be here|be around|live|wake up)|never\s+(?:exist|wake up))\b`).
		unless(`\s+(?:by|before|from|for|at|in|on|when|until|till|tomorrow morning)\b`),
	sign("should die", `\b(?:should|must|need to|deserve to|better)\s+(?:just\s+)?{die}\b|\bfeel(?:s|ing)?\s+like\s+(?:just\s+)?dying\b`).
		unless(`\s+(?:of|from|laughing|inside)\b`),
	sign("wish I were dead", `\bwish\b[^,]{0,12}\b(?:was|were|be|could)\s+(?:dead|{die})\b|\bwish\b[^,]{0,12}\b(?:never|not|wasnt|werent)\s+(?:been\s+)?born\b|\bwish\b[^,]{0,12}\b(?:didnt|did not|could not|couldnt|dont)\s+exist`),
	sign("better off dead", `\bbetter off dead\b|\brather\s+(?:be\s+)?(?:dead|{die})\b`).
		unless(`\s+than\b`),
	sign("stop living", `\b(?:stop|quit|done)\s+(?:living|existing|being alive)\b|\b{not}\s+(?:want|wish)\s+to\s+(?:live|be alive|exist|go on living|keep living|carry on|go on|continue|keep going)\b`).
		unless(`\s+(?:in|at|with|near|here|there|on|abroad|alone|together|by|off|out of)\b`),
	sign("not be here", `\b{not}\s+(?:want|wish)\s+to\s+be\s+(?:here|around)\b`).
		unless(`\s+(?:at|in|on|for|with|tonight at|today at|right now at)\b`),
	sign("tired of living", `\b(?:tired|sick|done|finished|exhausted|weary)\s+(?:of|with)\s+(?:living|life|being alive|existing){end}`),
	sign("give up on life", `\b(?:give|gave|given|giving)\s+up\s+on\s+(?:life|living|myself|everything|it all)\b`),
	sign("pointless life", `\bpoint\s+(?:of|in|to)\s+(?:living|life|being alive|existing|going on|carrying on|it all|anything|any of it|being here)\b|\blife\s+(?:is|feels|seems)\s+(?:pointless|meaningless|not worth)|\b(?:isnt|not|no longer)\s+worth\s+living\b|\b(?:whats|what is)\s+(?:even\s+)?the\s+point\s+(?:anymore|any more|of anything|in anything|of it all|of any of this|of me)\b`),
	sign("nothing to live for", `\b(?:no|nothing|not|none|any)\b[^,]{0,20}\breasons?\s+(?:\w+\s+){0,3}(?:to|for)\s+(?:keep\s+|go\s+on\s+|carry\s+on\s+)?(?:live|living|be alive|being alive|going on|carry on)\b|\bnothing\s+(?:left\s+)?to\s+live\s+for\b|\bno\s+will\s+to\s+live\b`),

	// Passive ideation: not waking up, sleeping forever, disappearing,
	// being gone. Not "I never wake up rested" or "not wake up until noon".
	sign("never wake up", `\b(?:{not}|no)\s+(?:want\s+to\s+)?wake\s+up{end}`),
	sign("sleep forever", `\b(?:want|wish|ready|going|time|plan\w*|hope)\b[^,]{0,20}\bsleep\s+(?:forever|permanently|for good|for ever)\b`),
	sign("disappear", `\b(?:disappear|vanish|cease to exist)\s+(?:forever|for good|permanently|for ever)\b|\b(?:want|wish|need)\s+to\s+(?:disappear|vanish){end}`),
	sign("not be around", `\b(?:wont|not|never|dont think (?:ill|i will|im going to))\s+(?:going to\s+)?be\s+(?:around|here)\s+(?:much\s+|for\s+)?(?:longer|long|anymore|any longer|soon)\b`),
	sign("thinking about dying", `\b(?:think|thinking|thought|thoughts)\s+(?:about|of)\s+(?:dying|being dead|my (?:own )?death|not being here|not being alive|killing myself|ending it|ending things)\b`).
		negatedBy(`\b(?:scared|afraid|fear|worried|anxious)\s+(?:of|about|when)?\s*(?:\w+\s+)?`),
	sign("a plan", `\b(?:plan\w*|figur\w*|work\w* out|decid\w*|research\w*|thinking about|know)\s+how\s+(?:i|id|ill|im)\s+(?:would|will|could|should|can|going to|am going to|gonna)?\s*(?:do it|end it|go through with it|die){end}`),
	sign("better without me", `\b(?:better|happier|easier)\s+(?:off\s+)?without\s+me\b`),
	sign("if I were gone", `\b(?:better|happier|easier|miss|notice|care|matter)\w*\b[^,]{0,30}\b{ifgone}|\b{ifgone}[^,]{0,30}\b(?:better|happier|easier|miss|notice|care|matter)`),
	sign("live or die", `\b(?:care|cares|cared|matter|matters|difference)\b[^,]{0,15}\b(?:if|whether)\s+(?:i|im)\s+(?:live|die|lived|died|dead|alive|exist|existed|gone)\b`),
	sign("nobody would miss me", `\b(?:nobody|no one|noone|no body)\s+(?:would|will|is going to)\s+(?:even\s+|really\s+)?miss\s+me\b`),
	sign("burden to everyone", `\b(?:burden|problem)\s+(?:to|for|on)\s+(?:everyone|everybody|anyone|anybody|the world)\b`),
	sign("want out of life", `\bwant\s+out\s+of\s+(?:this\s+)?(?:life|this world|existence|everything|it all)\b`),
	sign("no way out", `\bway\s+out\b[^,]{0,20}\b(?:{die}|dying|death|dead|end it|suicide)`),
	sign("goodbye note", `\b(?:said|saying|say|made)\s+(?:all\s+)?(?:my\s+)?(?:final\s+|last\s+)?goodbyes?{end}|\bgoodbyes?\s+to\s+(?:everyone|everybody|my family|the world|you all)\b|\b(?:goodbye|farewell|suicide)\s+(?:letters?|notes?|messages?)\b|\b(?:my|a)\s+(?:final|last)\s+(?:letter|note)\b`),

	// Can't go on: the words people use when they have reached the end,
	// taken as crisis when nothing after them says what they are tired of
	// ("I can't go on like this with my sleep schedule" names it: a session).
	sign("cant go on", `\bcant\s+(?:go on|keep going|carry on|do life|live|live like this|live with myself|be alive)(?:\s+like\s+this)?{end}`),
	sign("want it to end", `\b(?:it all|everything|all of it|all this|life)\s+to\s+(?:stop|end|be over)\b|\b(?:it|this|the pain|my pain|the suffering|my suffering|the hurt)\s+(?:to\s+)?(?:stop|end|be over)\s+(?:for good|forever|permanently|for ever)\b`).
		unless(`\s+(?:for a|for an|for one|for just|for the|for tonight|for a while|for a bit|so i can|while|at|in|when)\b`),
	// Hopelessness alone is a bad night; with a wish for everything to stop
	// or be over, it is more, wherever in the intention the two are.
	sign("hopeless and ending", `\b(?:hopeless|no hope|give up|given up|cant take it anymore|cant do this anymore|cant do it anymore|cant cope|never going to get better|never get better|nothing will change|nothing left(?: for me)?|no point anymore)\b|\bim (?:so )?done(?:\s*,|$)`).
		and(`\b(?:want|wish|need|just)\b[^,]{0,20}\b(?:it|it all|everything|all of it|this|all this)\s+(?:to\s+)?(?:stop|end|be over|go away)\b|\bwant\s+(?:out|to go)(?:\s*,|$)|\bend it\b|\b(?:be\s+)?over\s+for\s+good\b|\bfor good\b|\bdisappear\b|\bnot be here\b|\bgone\b|\bgoodbye(?:\s*,|$)`),

	// Means: the plan or the method named.
	sign("pills", `\b(?:saving|saved|stockpil\w*|hoard\w*|collect\w*|stash\w*)\s+(?:up\s+)?(?:my\s+|the\s+|some\s+|all\s+my\s+)?{pills}|\b(?:take|taking|swallow\w*|down)\s+(?:all|every one|every last one)\s+(?:of\s+)?(?:my|the|these)\s+{pills}\s+(?:at once|together|in one go|tonight|right now|now)\b|\b(?:whole bottle|handful|bottle)\s+of\s+(?:my\s+)?{pills}|\b{pills}\s+(?:are\s+)?ready\b|\bgot\s+(?:the|my)\s+{pills}\s+ready\b`),
	sign("method", `\b(?:ways|way|how|methods?|easiest way|best way|painless way)\s+to\s+(?:{die}|kill myself|end it|end my life|commit)\b|\bpainless\s+(?:death|way out|suicide)\b|\blethal\s+dose\b`),
	sign("take pills", `\b(?:going to|gonna|want to|about to|will|planning to|plan to|ready to|might)\s+(?:just\s+)?(?:take|swallow|down)\s+(?:a\s+|all\s+)?(?:bunch|lot|lots|load|loads|ton|tons|handful|whole bottle|bottle|pack|box|packet|all)\s+(?:of\s+)?(?:my\s+|the\s+|these\s+)?{pills}`),
	sign("took all my pills", `\b(?:took|taken|swallowed|downed)\s+(?:all|every one|the whole (?:bottle|pack|box|packet))\s+(?:of\s+)?(?:my|the)\s+{pills}`).
		unless(`\s+(?:for|today|this|on time|as|like|with|at breakfast)\b`),
	sign("too many pills", `\b(?:took|take|taken|taking|swallowed|swallow)\s+(?:way\s+)?too\s+many\s+(?:of\s+)?(?:my\s+|the\s+)?{pills}`),
	sign("at the edge", `\b(?:standing|stood|sitting|climbed|climbing|im|i am)\s+(?:on|at|onto|over)\s+(?:the|a)\s+(?:bridge|ledge|railing|train tracks|railway tracks|tracks|edge of (?:the|a) (?:roof|building|bridge|cliff|platform))\b`),
	sign("overdose", `\boverdos\w*|\bod\s+on\s+{pills}`).
		unless(`\s+on\s+(?:coffee|caffeine|sugar|chocolate|candy|sweets|news|tv|netflix|social media|work|screens?|junk|carbs|cake|sun|sunshine|energy drinks)\b`),
	sign("jump", `\bjump\w*\s+(?:off|from)\s+(?:a|the|my|this|that)?\s*(?:bridge|building|roof|rooftop|cliff|balcony|tower|ledge|overpass|window|car park|parking garage)\b|\bjump\w*\s+(?:in front of|under)\s+(?:a|the)\s+(?:train|bus|car|truck|lorry|tube)\b`),
	sign("hanging", `\bnoose\b|\b(?:bought|buy|buying|got|have|tie|tied|tying)\s+(?:a\s+|the\s+|some\s+)?rope\b`).
		unless(`\s+(?:for|to climb|ladder|swing|course)\b`),
	sign("wrists", `\b(?:slit|slash|cut)\w*\s+(?:my\s+)?wrists?\b`),
	sign("crash on purpose", `\b(?:crash|driv|steer|swerv)\w*\b[^,]{0,20}\b(?:on purpose|deliberately|into (?:a|the) (?:tree|wall|river|sea|lake|oncoming))\b|\bdrive\s+(?:my\s+car\s+)?off\s+(?:a|the)\s+(?:cliff|bridge|pier)\b`),
}

// crisisIdioms are removed before the signs are read: phrases that hold a
// sign's words but talk about someone else, or about helping.
var crisisIdioms = []*regexp.Regexp{
	// Grief for someone who died by suicide is grief, one of lull's kinds.
	pattern(`\b(?:who|he|she|they|friend|brother|sister|mother|father|mum|mom|dad|son|daughter|husband|wife|partner|cousin|uncle|aunt|boyfriend|girlfriend|grandpa|grandma|colleague)\s+(?:\w+\s+)?(?:died|passed away|was lost|took (?:his|her|their) (?:own )?life)\s+(?:by|of|to|from|through|in)?\s*(?:suicide)?`),
	pattern(`\blost\s+(?:my|a|our|his|her)\s+\w+\s+to\s+suicide\b`),
	// Those who work in or campaign for suicide prevention need rest too.
	pattern(`\bsuicide\s+(?:prevention|awareness|hotline|helpline|crisis line|line|loss|survivors?)\b`),
}

// screenCrisis names the first crisis sign in the intention, or "".
func screenCrisis(intention string) string {
	text := normalizeIntention(intention)
	for _, idiom := range crisisIdioms {
		text = idiom.ReplaceAllString(text, ",")
	}
	for _, s := range crisisSigns {
		if s.matches(text) {
			return s.name
		}
	}
	return ""
}

func (s crisisSign) matches(text string) bool {
	if s.with != nil && !s.with.MatchString(text) {
		return false
	}
	for _, m := range s.re.FindAllStringIndex(text, -1) {
		if s.unlessBefore != nil && s.unlessBefore.MatchString(text[:m[0]]) {
			continue
		}
		if s.unlessAfter != nil && s.unlessAfter.MatchString(text[m[1]:]) {
			continue
		}
		return true
	}
	return false
}
