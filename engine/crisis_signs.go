package engine

// crisisSigns are read in order; the first that matches names the refusal in
// the log. They are grouped by kind of saying it, and each group says why it
// is there and what ordinary intention shares its words. The patterns are
// written for a kind, not for a line of the corpus: the corpus has rounds
// written by people who had not seen them (testdata/crisis), and a miss
// there was met by widening the kind, not by copying the line.
var crisisSigns = []crisisSign{
	// --- Naming it. Negated ("not suicidal, just can't sleep") is taken at
	// its word; talk of someone else's suicide is removed before (see
	// crisisIdioms), so grief for them still gets a session.
	sign("suicide", `\bsuicid\w*`).negatedBy(`\b(?:not|never|no|no longer|isnt|arent|wasnt|im not)\s+(?:\w+\s+)?`),

	// --- Slang, algospeak and the abbreviations of the communities where
	// people talk about it: "kms", "unalive", "ctb" (catch the bus), "si"
	// (suicidal ideation), "sh" (self-harm). "si" and "sh" are also other
	// words ("si" in Spanish, "sh" for hush), so they count only beside a
	// word that says which they are.
	sign("slang", `\b(?:kms|kys|ctb|ctbing|unaliv\w*|sewerslide|self delet\w*|commit die|(?:end|ending|ended|off|offing|offed)\s+myself|toaster bath|forever nap|eternal (?:sleep|nap)|permanent (?:sleep|nap))\b`),
	sign("rope (slang)", `\b(?:want|going|time|ready|about) to rope\b`),
	sign("si", `\b(?:passive|active|having|my|bad|heavy|constant|daily)\s+si\b|\bsi\s+(?:is|thoughts?|urges?|again|tonight|today|bad|loud|strong|has been|lately|all day|every day|creeping|spiking|hitting)\b`).
		unless(`\s+(?:joints?|units?|belt|pain|flare)\b`), // the sacroiliac joint
	sign("sh", `\bsh\s+(?:urges?|relapse|relapsed|again|tonight|scars?|wounds?|cuts?|clean|free)\b|\b(?:relapsed on|relapse on|urge to|urges to|want to) sh\b`),

	// --- Killing or hurting oneself, any tense, including self-harm that is
	// not suicide. An accident ("cut myself shaving") or a figure of speech
	// ("hurting myself with self criticism") is not.
	sign("harm oneself", `\b(?:kill|hurt|harm|cut|burn|injur|punish|starv|hang|shoot|drown|poison|stab|hit|scratch|suffocat|strangl|bruis)\w*\s+myself\b`).
		unless(`\s+(?:shaving|cooking|by accident|accidentally|at the gym|at work|while|running|playing|lifting|working out|into (?:work|my work|it|the|a|this|bed|sleep|projects?)|on (?:a|an|the|some|my)\b|with (?:self ?)?(?:criticism|critical|talk|thoughts|words|negativity|comparison|worry|blame|perfectionism|overthinking|work|caffeine|sugar|junk)|laughing|(?:a|an|some)\s+(?:\w+\s+)?(?:slice|piece|portion|share|hunk|break|deal|slack))`),
	sign("on myself", `\b(?:use|using|turn|turning|point|pointing)\s+(?:it|them|a \w+|the \w+|my \w+)\s+on\s+myself\b`),
	// Injury done until the body shows it, to the writer's own body or
	// through it ("punched the wall until my knuckles bled").
	sign("until it bleeds", `\b(?:until|till|til|to|make|made|making)\s+(?:it|they|i|myself|them|my (?:knuckles|fists?|hands?|head|face|{body}))\s+(?:bleeds?|bled|bleeding|bruised?|bruises|blistered|scarred)\b|\b(?:cut|cutting|scratch\w*|burn\w*|carv\w*|hit\w*|bit\w*)\s+(?:my|at my)\s+{body}\b[^,]{0,30}\b(?:blood|bleed\w*|scars?|punish\w*)`).
		// Nails and cuticles picked until they bleed are a nervous habit.
		negatedBy(`\b(?:nails|cuticles|lips)\s+$`),
	// The body hurt on purpose, whatever the means.
	sign("on purpose", `\b(?:burn|burnt|cut|scratch|punch|hit|bang|bash|slam|bit|bite|carv|bruis|stab|scald|took|take|swallow)\w*\s+(?:\w+\s+){0,3}(?:{body}|myself|head|face|hands?|knuckles|{pills})\b[^,]{0,20}\b(?:on purpose|deliberately|intentionally|to feel something|to punish myself)\b`),
	// Cuts and burns to the arms, thighs, skin: where self-harm is done.
	// Not a finger in the kitchen, not a leg on a rock.
	sign("cut the body", `\b(?:cut|cutting|cuts|carv\w*|slash\w*|slic\w*|burn|burnt|burned|burning)\s+(?:into\s+|up\s+|open\s+)?(?:my|into my|up my)\s+{body}\b`).
		unless(`\s+(?:on|in|at|while|when|shaving|by accident|accidentally|cooking|getting|during|from|off|with (?:a|the) (?:branch|paper|tool|saw)|open on)\b`).
		// The sun, the stove, the bath do it by accident.
		negatedBy(`\b(?:sun|heat|stove|oven|iron|water|bath|shower|coffee|tea|wind|cold|rash|eczema)\s+(?:is\s+|was\s+|keeps\s+)?$`),
	sign("self-harm", `\bself ?(?:harm|injur|mutilat)\w*`),
	sign("cutting", `\bcutting\s+(?:again|deeper|my (?:arms?|legs?|wrists?|skin|thighs?|body))\b|\bcut\w*\s+(?:deeper|too deep)\b|\b(?:start\w*|been|keep|kept|back to|urge to|want to|relaps\w*(?: on| into| to)?)\s+cutting\b`).
		unless(`\s+(?:down|back|out|off|up|in|carbs|sugar|caffeine|costs|corners|ties|hair|my hair|the|a|an|some|wood|paper|onions|vegetables)\b`),
	// "I cut" with nothing cut: the word alone is the act.
	sign("i cut", `\bi\s+cut(?:\s+(?:again|last night|yesterday|deeper|deep|today|tonight|myself))?{end}`),
	// Hitting oneself again and again. Not the idiom of frustration
	// ("banging my head against the wall over this bug").
	sign("hitting myself", `\b(?:keep|kept|been|started|start|always|cant stop|couldnt stop)\s+(?:hitting|banging|bashing|slamming|punching)\s+(?:my\s+head|myself|my\s+fists?|my\s+face)\b`).
		unless(`[^,]{0,30}\b(?:over|with|about|trying|on this|because of|figuring|to figure|code|bug|work|project|homework)\b`),
	// Self-punishment and the wounds talked of as wanted.
	sign("deserve pain", `\bi\s+(?:\w+\s+)?deserve\s+(?:to\s+(?:hurt|suffer|bleed|be hurt|be punished|feel pain|be in pain)|pain|the pain|to die)\b`).
		negatedBy(`\b(?:dont|not|never|nobody|no one)\s+(?:\w+\s+)?$`),
	sign("covered in cuts", `\b{body}\b[^,]{0,15}\b(?:covered in|full of)\s+(?:fresh\s+)?(?:cuts|scars|burns|wounds)\b`).
		unless(`\s+(?:from|after)\b`),
	sign("want to bleed", `\b(?:want|need|wish|urge|itching)\s+to\s+(?:bleed|see blood|feel pain|hurt|be hurt){end}`),
	// Cutting named as a relapse or by how long it had stopped.
	sign("cut again", `\bcut\s+(?:for the first time in|again after|after (?:\d+|a|two|three|six|many)\s+(?:days|weeks|months|years?))|\brelaps\w*\s*(?:,|and)?\s*(?:i\s+)?cut\b`),
	// The urge or wish to cut, with no object that makes it a haircut or
	// a diet: "the urge to cut is so strong".
	sign("want to cut", `\b(?:want|need|urges?|going|itching)\s+to\s+cut(?:\s+myself)?(?:{end}|\s+(?:is|are|has|keeps|wont|so)\b)`).
		unless(`\s+(?:and\s+)?(?:paste|copy|run)\b`),

	// --- Ending one's life, in words that leave no other reading.
	sign("end my life", `\b(?:end|ending|ended|take|taking|took|finish|finishing|terminate)\s+(?:my|my own)\s+li(?:fe|ves)\b`),
	sign("end it all", `\b(?:end|ending)\s+(?:it all|everything|all of it)\b|\b(?:end|ending)\s+(?:it|things)\b`).
		unless(`\s+(?:with|between|there|here|early|on a|off|at work|properly|nicely|well|for the day|for today|today at)\b`),
	sign("want to die", `\b{want}\s+to\s+(?:{die}|be dead)\b`).
		// Not wanted, someone else's ("grandma is ready to die"), or
		// panic's fear ("feels like im going to die").
		negatedBy(`\b(?:dont|not|never|no longer|didnt|doesnt|scared|afraid|fear)\s+(?:\w+\s+)?|\b(?:is|are|he|she|they|its)\s+|\b(?:he|she|it|they|who|[a-z]{2,})\s+(?:was|were)\s+|\b(?:feel|feels|felt|feeling|like|as if|think|thought|sure|scared|afraid|worried)\s+(?:im|i am|i was|i will|ill)\s+`).
		unless(`\s+(?:of|from)\s+(?:embarrassment|boredom|laughter|laughing|cringe|cuteness|the heat)|\s+(?:asleep|tired|to the world|on my feet)\b`),
	sign("want to be gone", `\b(?:{want}\s+to|rather|prefer(?:\s+to)?)\s+(?:be\s+gone|be\s+no\s+more|not\s+(?:exist|be alive|be here|be around|live|wake up)|never\s+(?:exist|wake up))\b`).
		unless(`\s+(?:by|before|from|for|at|in|on|when|until|till|tomorrow morning|all|the whole|this|next|over)\b`),
	sign("should die", `\b(?:should|must|need to|deserve to|better|might as well|may as well)\s+(?:just\s+)?(?:{die}|be dead)\b|\bfeel(?:s|ing)?\s+like\s+(?:just\s+)?dying\b`).
		unless(`\s+(?:of|from|laughing|inside|tired|asleep|to the world)\b`),
	// A wish to be dead, not to have been born, not to be alive, or to die
	// in one's sleep.
	sign("wish I were dead", `\bwish\b[^,]{0,15}\b(?:was|were|be|could|would|id|to)\s+(?:just\s+)?(?:dead|{die}|stop existing|not wake up|never wake up)\b|\bwish\b[^,]{0,12}\b(?:never|not|wasnt|werent)\s+(?:been\s+)?(?:born|alive|living)\b|\bwish\b[^,]{0,12}\b(?:didnt|did not|could not|couldnt|dont)\s+exist`).
		unless(`\s+(?:of|from|laughing|inside|asleep|tired|to the world|on my feet)\b`),
	sign("better off dead", `\bbetter off dead\b|\brather\s+(?:be\s+)?(?:dead|{die})\b|\bworth more dead\b`).
		unless(`\s+(?:than|inside)\b`),
	// Not wanting to live, in any grammar ("i not want live more").
	sign("stop living", `\b(?:stop|quit|done)\s+(?:living|existing|being alive)\b|\b{not}\s+(?:want|wish|like)\s+(?:to\s+)?(?:live|be alive|exist|go on living|keep living|carry on|go on|continue|keep going|stay alive)\b`).
		unless(`\s+(?:in|at|with|near|here|there|on|abroad|alone|together|by|off|out of|like that|through|this|that|my|the|working|doing)\b`),
	sign("stop breathing", `\b(?:want|wish|need|ready|going)\s+to\s+stop\s+breathing{end}|\bwant\s+my\s+heart\s+to\s+stop\b`),
	sign("not be here", `\b{not}\s+(?:want|wish)\s+to\s+be\s+(?:here|around|on this (?:earth|planet)|in this world|on earth|in this life)\b`).
		unless(`\s+(?:at|in|on|for|with|tonight at|today at|right now at)\b`),
	sign("should not be alive", `\b(?:should|am meant to|im meant to|was meant to|am supposed to|im supposed to|was supposed to)\s+(?:not|never)\s+(?:be alive|exist|be here|have been born|be born|live)\b|\b(?:shouldnt|should not|wasnt meant to|was not meant to|wasnt supposed to)\s+(?:be alive|exist|still be alive|have been born|be living)\b`),
	sign("tired of living", `\b(?:tired|sick|done|finished|exhausted|weary|had enough|fed up)\s+(?:of|with)\s+(?:living|life|being alive|existing){end}`),
	sign("give up on life", `\b(?:give|gave|given|giving)\s+up\s+on\s+(?:life|living|myself|everything|it all)\b`),
	sign("life unbearable", `\blife\s+(?:is|feels|has become|became)\s+(?:so\s+|just\s+)?(?:unbearable|torture|agony|too painful|too much to bear|not worth it)\b|\b{not}\s+want\s+(?:this\s+life|my\s+life|life|to\s+be\s+alive)(?:\s+anymore|\s+any longer)?{end}`).
		negatedBy(`\b(?:work|social|love|dating|school|home|night|sleep|city|family|office|student|baby|toddler)\s+$`),
	sign("pointless life", `\bpoint\s+(?:of|in|to)\s+(?:living|life|being alive|existing|going on|carrying on|it all|anything|any of it|being here)\b|\bno\s+point\s+(?:in\s+)?(?:continuing|going on|carrying on|trying anymore|being alive|existing){end}|\blife\s+(?:is|feels|seems)\s+(?:pointless|meaningless|not worth)|\b(?:isnt|not|no longer)\s+worth\s+living\b|\b(?:whats|what is)\s+(?:even\s+)?the\s+point\s+(?:anymore|any more|of anything|in anything|of it all|of any of this|of me)\b`),
	sign("nothing to live for", `\b(?:no|nothing|not|none|any)\b[^,]{0,20}\breasons?\s+(?:\w+\s+){0,3}(?:to|for)\s+(?:keep\s+|go\s+on\s+|carry\s+on\s+)?(?:live|living|be alive|being alive|stay alive|staying alive|exist|existing|be here|going on|carry on)\b|\bnothing\s+(?:left\s+)?to\s+live\s+for\b|\bno\s+will\s+to\s+live\b|\bnothing\s+left\s+for\s+me(?:\s+here|\s+in this world|\s+in this life)?{end}`),
	// No future seen: "i dont see myself living past this year".
	sign("no future", `\b(?:dont|cant|do not|cannot|never)\s+see\s+myself\s+(?:living|alive|being alive|being here|surviving|making it|growing old|getting old)\s*(?:past|beyond|much longer|another|to see|until|till|long|to \d+|{stop})`),
	// Imagining one's own funeral or death, as relief or plan.
	sign("my funeral", `\b(?:imagin\w*|pictur\w*|think\w* about|dream\w* about|plan\w*|who would come to|who would go to)\s+my\s+(?:own\s+)?(?:funeral|death|grave)\b`).
		unless(`\s+(?:home|director|playlist|insurance|costs?)\b`),
	// Death welcomed, as rest or relief.
	sign("death welcome", `\b(?:death|dying|being dead|not existing|not being alive)\s+(?:sounds|seems|feels|looks|would be|would feel)\s+(?:so\s+|really\s+|kind of\s+|like\s+)?(?:peaceful|nice|good|better|easier|welcome|appealing|tempting|inviting|like (?:a|the)\s+(?:relief|release|rest|answer|way out|escape))\b|\b(?:long|longing|wish|wishing|pray|praying|ready)\s+for\s+death\b`),
	sign("wouldnt mind dying", `\b(?:wouldnt|would not|dont|do not|really wouldnt)\s+mind\s+(?:dying|not waking up|being dead|never waking up|if i (?:died|die|didnt wake up|never woke up))\b`).
		unless(`\s+(?:my|it|the|of|from)\b`),
	// Asking to be killed. Hyperbole about a thing ("kill this headache")
	// names the thing; asking about oneself does not.
	sign("kill me", `\b(?:someone|somebody|anyone|anybody|please|pls|plz|god|lord)\s+(?:please\s+|pls\s+|just\s+|just please\s+)?(?:kill|end|shoot)\s+me\b|\b(?:god|lord)\s+(?:please\s+)?take\s+me(?:\s+home|\s+now|\s+away)?{end}`).
		unless(`\s+(?:lol|lmao|haha|jk|with|to (?:the|a|bed|sleep|dinner|work)|out|away from|through|home from|back)\b`),

	// --- Being alive as the thing that hurts: "it hurts too much to be
	// alive", "why am i still alive". Not "glad to be alive", not "why am i
	// still awake", not "too hard to live in this city".
	sign("too painful to live", `\b(?:too\s+(?:much|hard|painful|heavy|exhausting|tiring|tired)|so\s+(?:hard|painful|heavy|exhausting))\s+(?:\w+\s+)?to\s+(?:be alive|keep living|go on living|live|exist|stay alive|keep existing|be here)\b`).
		unless(`\s+(?:in|with|on|alone|near|here|there|like|by|at|without|my|a|properly|well|normally)\b`),
	sign("hate being alive", `\b(?:hate|hating|hated|despise)\s+(?:being\s+alive|existing|that im (?:still\s+)?alive|waking up (?:every day|at all|alive))\b|\b(?:hate|hating|hated|despise)\s+living{end}`).
		unless(`\s+(?:in|with|on|alone|near|here|there|so close|next to|at|like this in|under|above|below)\b`),
	sign("being alive hurts", `\b(?:being alive|existing|staying alive|being here)\s+(?:is|feels)\s+(?:so\s+|too\s+|just\s+)?(?:unbearable|torture|a burden|too much|hell|exhausting|painful|agony|pointless|meaningless|wrong)\b`),
	sign("why still alive", `\bwhy\s+(?:am\s+i|im|do\s+i\s+(?:keep|even|still)|should\s+i|would\s+i|is\s+it\s+that\s+im)\s+(?:still\s+|even\s+)?(?:alive|here|living|breathing|exist|existing|around|bother living|keep living|stay alive)\b`).
		unless(`\s+(?:at|in|on|awake|up|with|doing|working|reading|watching)\b`),
	sign("not deserve to live", `\b(?:dont|doesnt|do not|dont even|no longer|not|never)\s+deserve\s+to\s+(?:live|be alive|exist|be here|keep living|wake up|breathe)\b`).
		unless(`\s+(?:in|with|near|on|at|like|under)\b`),

	// --- Passive ideation: not waking up, sleeping forever, disappearing,
	// being gone. Not "I never wake up rested" or "not wake up until noon".
	sign("never wake up", `\b(?:{not}|no|wont)\s+(?:want\s+to\s+|going\s+to\s+|planning\s+(?:on|to)\s+)?wake(?:\s+up)?{end}`).
		// Fear of not waking from surgery is fear, not a wish.
		negatedBy(`\b(?:afraid|scared|worried|fear|terrified|anxious|nervous|worry)\s+(?:that\s+|of\s+)?(?:\w+\s+){0,2}$`),
	sign("sleep forever", `\b(?:want|wish|ready|going|time|plan\w*|hope|put me to|let me)\b[^,]{0,20}\b(?:sleep|asleep|rest)\s+(?:forever|permanently|for good|for ever|eternally|and never wake|and not wake|and never come back|and not come back)\b`),
	sign("disappear", `\b(?:disappear|vanish|cease to exist)\s+(?:forever|for good|permanently|for ever)\b|\b(?:want|wish|need|should|going|ready)\s+to\s+(?:just\s+)?(?:disappear|vanish|fade away|fade out){end}|\b(?:it all|everything|all of it|the world)\s+to\s+(?:go dark|go black|fade away|fade to black)\b`),
	sign("not be around", `\b(?:wont|not|never|dont think (?:ill|i will|im going to))\s+(?:going to\s+)?be\s+(?:around|here)\s+(?:much\s+|for\s+)?(?:longer|long|anymore|any longer|soon|after tonight|by morning|by tomorrow)\b|\b(?:wont|not going to)\s+be\s+(?:around|here|alive)\s+(?:next|by)\s+\w+\s*$`),
	sign("thinking about dying", `\b(?:think|thinking|thought|thoughts)\s+(?:about|of)\s+(?:dying|being dead|my (?:own )?death|not being here|not being alive|killing myself|ending it|ending things)\b`).
		negatedBy(`\b(?:scared|afraid|fear|worried|anxious)\s+(?:of|about|when)?\s*(?:\w+\s+)?`),
	// Not living to see tomorrow, or a last waking: "if i even make it to
	// tomorrow", "the last time i ever have to wake up". A deadline is not
	// ("make it to friday with this workload").
	sign("not make it to tomorrow", `\b(?:wont|not going to|dont think (?:ill|i will|i can)|doubt (?:ill|i will)|if i (?:even\s+)?|hope i dont|may not|might not|probably wont|not sure (?:ill|i will|i can))\s*make it\s+(?:to|through|past|until|till)\s+(?:tomorrow|the night|the morning|morning|sunrise|dawn){end}`).
		unless(`\s+(?:without|with|at|shift|because)\b`),
	sign("last waking", `\blast\s+time\s+(?:i|ill|i will)\s+(?:ever\s+)?(?:have to\s+)?(?:wake up|open my eyes|see the sun|see the sunrise){end}|\blast\s+time\s+(?:ill|i will|i)\s+ever\s+(?:do this|meditate|sleep|wake|see|feel|breathe|say)\b`),
	// Death hoped for by accident or illness: "wishing a car would hit me",
	// "hoping i die before it", "pray i dont survive the surgery". Not the
	// opposite ("hope i dont die of boredom", "hope i survive").
	sign("wish for an accident", `\b(?:hope|hoping|hopefully|wish|wishing|pray|praying)\b[^,]{0,15}\b(?:i|im|i will|ill)\s+(?:just\s+)?(?:{die}|dies|died|get killed|dont survive|wont survive|dont make it|wont make it|never make it|get hit|drown|dont come back)\b|\b(?:hope|hoping|wish|wishing|pray|praying)\b[^,]{0,30}\b(?:would|will|to|could|might)\s+(?:just\s+)?(?:hit|kill|run over|crash into)\s+me\b|\b(?:hope|hoping|wish|wishing|pray|praying)\b[^,]{0,15}\bmy\s+(?:plane|car|flight|bus|train)\s+(?:crashes|goes down|would crash|will crash)\b|\b(?:hope|hoping|wish|wishing|pray|praying)\b[^,]{0,25}\b(?:takes|take|will take|would take|kills|will kill|would kill)\s+me(?:\s+(?:quickly|soon|fast|already|in my sleep|tonight))?{end}`).
		unless(`\s+(?:of|from|laughing|inside|with|by (?:a wave|inspiration|a wall of))\b`),

	// --- Reunion with someone who died: "join my mom in heaven soon", "i
	// want to go be with him" after a loss. Grief alone is a session; the
	// wish to follow is not. Seeing family again, living, is ordinary, and
	// so is a believer's "i will see her in heaven one day".
	sign("reunion in death", `\b(?:join|joining|be with|go to|go home to)\s+(?:\w+\s+){0,3}{beyond}|\b(?:want|wish|ready|going|need|long|time|cant wait)\s+to\s+(?:go\s+)?(?:see|meet)\s+(?:\w+\s+){0,3}{beyond}|\b(?:see|meet)\s+(?:\w+\s+){0,3}{beyond}\s+(?:soon|tonight|today|now)\b|\b(?:want|wish|ready|going|need|long|time)\s+to\s+(?:go\s+)?(?:be with|join|follow)\s+my\s+(?:late|dead|deceased)\s+\w+|\b(?:want|wish|ready|going|need|long|time)\s+to\s+go\s+(?:to\s+heaven|home\s+to\s+(?:god|jesus|the lord))\b`).
		negatedBy(`\b(?:someday|some day|one day|eventually)\s+(?:\w+\s+){0,3}`).
		unless(`\s+(?:one day|someday|some day|eventually|when (?:my|its my) time)\b`),
	// After a death, wanting to go to the one who died, named by a pronoun
	// ("i want to go be with him"): wanting to be with "my mom" after
	// losing "my dad" is wanting company.
	sign("follow the dead", `\b(?:want|wish|ready|going|need|long|time|just want)\s+to\s+(?:go\s+)?(?:and\s+)?(?:be with|join|follow)\s+(?:him|her|them)(?:\s+again)?{end}`).
		and(`\b(?:death of|died|passed|passing|grief|grieving|funeral|heaven|grave|rip|buried|my late|late (?:wife|husband|partner|mother|father|mom|mum|dad|son|daughter))\b`),

	// Following someone who died or left, missed: "i miss him so much i
	// want to follow him". Following a partner to a new city names it.
	sign("follow them", `\b(?:want|wish|ready|going|need)\s+to\s+(?:just\s+)?follow\s+(?:him|her|them){end}`).
		and(`\b(?:miss|missing|died|passed|grief|grieving|heaven|funeral|my late)\b`),

	// --- A burden who would not be missed: "better without me", "fine
	// without me", "relieved if i was gone", "my life insurance would help
	// them more". Not "a burden when i ask for help at work", not "the team
	// will be fine without me for a week".
	sign("better without me", `\b(?:better|happier|easier)\s+(?:off\s+)?(?:without\s+me(?:\s+in it|\s+around|\s+here)?|with\s+me\s+(?:dead|gone))\b|\b(?:free|rid)\s+of\s+me{end}|\b(?:everyone|everybody|my family|my kids|the world|they all|theyd all|theyll all|everyone else|people)\b[^,]{0,20}\b(?:fine|okay|ok|alright|relieved|free|lighter)\s+without\s+me\b`).
		unless(`\s+(?:for|at|on|while|this|next|today|tonight|tomorrow|when|during|until|in the|in this)\b`),
	sign("if I were gone", `\b(?:better|happier|easier|miss|notice|care|matter|relieved|fine|okay|ok)\w*\b[^,]{0,30}\b{ifgone}|\b{ifgone}[^,]{0,30}\b(?:better|happier|easier|miss|notice|care|matter|relieved|fine|okay|ok)|\b(?:move on|forget|get over it|forget me)\b[^,]{0,20}\b{ifgone}`),
	sign("live or die", `\b(?:care|cares|cared|caring|matter|matters|difference)\b[^,]{0,15}\b(?:if|whether)\s+(?:i|im)\s+(?:live|die|lived|died|dead|alive|exist|existed|gone)\b`),
	sign("nobody would miss me", `\b(?:nobody|no one|noone|no body)\s+(?:would|will|is going to)\s+(?:even\s+|really\s+)?miss\s+me\b|\b(?:nobody|no one|noone|no body)\b[^,]{0,20}\b(?:miss|notice|care)\b[^,]{0,10}\b(?:when|once|after)\s+(?:im|i am)\s+(?:gone|dead)\b`),
	sign("not needed", `\b(?:the world|everyone|anyone|anybody|nobody|no one)\s+(?:doesnt|does not|wouldnt|would not|will not|wont)?\s*needs?\s+me(?:\s+(?:anymore|any longer|here|alive|around))?{stop}`),
	sign("burden to everyone", `\b(?:burden|problem)\s+(?:to|for|on)\s+(?:everyone|everybody|anyone|anybody|the world|my family|them|all)\b|\b(?:im|i am|feel like|being)\s+(?:just\s+|only\s+|such\s+|nothing but\s+|so much of\s+|a\s+)?(?:a\s+)?burden{end}`).
		negatedBy(`\b(?:worried|worry|scared|afraid|fear|anxious|about|of)\s+(?:\w+\s+){0,3}`),
	sign("worth more dead", `\bmy life insurance\b[^,]{0,20}\b(?:would|will|could)\s+(?:help|pay|do|be worth|take care of|cover)\b[^,]{0,15}\b(?:them|my family|my kids|my wife|my husband|my partner|everyone|more|than)\b|\bworth more\b[^,]{0,15}\bdead\b`),
	sign("want out of life", `\bwant\s+out\s+of\s+(?:this\s+)?(?:life|this world|existence|everything|it all)\b|\b(?:leave|leaving|exit|exiting|depart)\s+(?:this|the)\s+(?:world|earth|life|planet)\b`).
		unless(`\s+(?:behind|for|of)\b`),
	sign("no way out", `\bway\s+out\b[^,]{0,20}\b(?:{die}|dying|death|dead|end it|suicide)`),

	// --- Plans, timing and preparations: a date set, a night chosen, a
	// note written, a pet given away, a last session. Each has an ordinary
	// twin that names what it is for ("tonight is the night of my recital",
	// "my plan is set for fridays presentation", "last session of the
	// course", "gave the cat to my sister while i travel"), so these count
	// only when nothing after them says what they are for.
	sign("a plan", `\b(?:plan\w*|figur\w*|work\w* out|decid\w*|research\w*|thinking about|know)\s+how\s+(?:i|id|ill|im)\s+(?:would|will|could|should|can|going to|am going to|gonna)?\s*(?:do it|end it|go through with it|die){end}`),
	sign("the plan is set", `\bmy\s+plan\s+is\s+(?:set|ready|made|final|in place|settled|decided)(?:\s+for\s+(?:tonight|tomorrow|today|this weekend|the weekend|next week|this week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|the \d+\w*))?{end}|\b(?:ive|i|i have|ive already|i already)\s+(?:set|picked|chosen|chose|decided on)\s+(?:a|the|my)\s+date(?:\s+for\s+it)?{end}`),
	// "Tonight is the night" alone, or decided; not "tonight is the night,
	// first date in years".
	sign("the night", `\b(?:tonight|tonights)\s+(?:is\s+|s\s+)?the\s+night\s*$|\b(?:decided|ive decided|i know|know that|i think|feel like|sure)\s+(?:tonight|tonights)\s+(?:is\s+|s\s+)?the\s+night{end}`),
	sign("an attempt", `\battempting\s+(?:tonight|today|tomorrow|this weekend|soon|now){end}|\b(?:i|ill|im going to|going to|might|will|want to|planning to)\s+attempt\s+(?:it\s+)?again{end}|\b(?:since|after|survived|before)\s+my\s+(?:last\s+)?attempt{end}|\b(?:i|i already|i once)\s+attempted{end}`),
	sign("last session", `\b(?:my|this is my|this will be my|its my|this is the)\s+(?:very\s+)?(?:last|final)\s+(?:night|session|meditation|sleep|breath|sunset|goodbye|words|message|post)(?:\s+(?:ever|before i go|on earth|alive))?{end}|\b(?:last|final)\s+(?:day|night|hours?)\s+(?:on earth|alive|of my life){end}`).
		unless(`\s*,?\s*(?:at|in|of|on|here|there|shift|off|with|as|for|working|home|together|job|exam|class|course|abroad|away|tomorrow|then|before (?:my|the|a|we|our|going|i (?:leave|start|move|fly|travel|go (?:on|to|back|away|home)|head)))\b`),
	sign("then im gone", `\b(?:then|after that|after this|soon|and)\s+(?:ill be|im|i will be|i am)\s+gone{end}|\b(?:ill be|i will be)\s+gone\s+(?:soon|forever|for good)\b`).
		unless(`\s+(?:for|on|to|from|all|until|till|at|away)\b`),
	sign("goodbye note", `\b(?:said|saying|say|made)\s+(?:all\s+)?(?:my\s+)?(?:final\s+|last\s+)?goodbyes?{end}|\b(?:goodbyes?|farewell)\s+(?:to\s+)?(?:everyone|everybody|the world|cruel world|world|you all|all of you|my family){end}|\b(?:goodbye|farewell|suicide)\s+(?:letters?|notes?|messages?)\b|\b(?:my|a)\s+(?:final|last)\s+(?:letter|note)\b`).
		unless(`\s+(?:at|from|in|on)\b`),
	sign("affairs in order", `\b(?:put|putting|getting|got|get|set|setting)\s+(?:all\s+)?my\s+affairs\s+in\s+order\b`).
		unless(`\s+(?:before (?:the|my|surgery|a|an)|for (?:the|my|surgery))\b`),
	sign("this is goodbye", `\b(?:this is|its|this is my)\s+(?:goodbye|farewell){end}`),
	sign("a note for the family", `\b(?:wrote|written|writing|write|left|leaving|leave)\s+(?:a|my|the|some)?\s*(?:notes?|letters?)\s+(?:for|to)\s+(?:my\s+)?(?:family|kids|children|parents|loved ones|everyone|everybody|the people i love|everyone i love|all of you)\b`).
		unless(`\s+(?:about|for (?:the|their|his|her|christmas|xmas|a|an)|of thanks|thanking)\b`),
	sign("giving things away", `\b(?:gave|give|giving|given)\s+(?:away\s+)?(?:my|all my|all of my|most of my)\s+(?:cats?|dogs?|pets?|things|stuff|belongings|possessions|plants|fish|bird|rabbit|hamster)\s+(?:away\b|to\b)|\b(?:gave|giving|given)\s+away\s+(?:my|all my|all of my|most of my)\s+(?:cats?|dogs?|pets?|things|stuff|belongings|possessions)\b`).
		unless(`[^,]{0,40}\b(?:while|for (?:the|a|an|two|three|one)|until|moving|move|moved|travel\w*|trip|holiday|vacation|charity|donat\w*|downsiz\w*|declutter\w*|a bath|a treat)\b`),

	// --- Can't go on: the words people use when they have reached the end,
	// taken as crisis when nothing after them says what they are tired of
	// ("I can't go on like this with my sleep schedule" names it: a session).
	sign("cant go on", `\bcant\s+(?:go on|keep going|keep living|carry on|do life|live|live like this|live with myself|be alive|take living|take being alive|take life)(?:\s+like\s+this)?{end}`),
	sign("end my suffering", `\b(?:end|ending|stop)\s+(?:my|all my|this)\s+(?:suffering|misery|existence)\b|\bend\s+(?:my|the)\s+pain\s+(?:for good|forever|permanently)\b`).
		unless(`\s+(?:with|at|from|in)\b`),
	sign("want it to end", `\b(?:it all|everything|all of it|all this|life|my life)\s+(?:to|would|could)\s+(?:stop|end|be over)\b|\b(?:it|this|the pain|my pain|the suffering|my suffering|the hurt)\s+(?:to\s+)?(?:stop|end|be over)\s+(?:for good|forever|permanently|for ever)\b`).
		unless(`\s+(?:for a|for an|for one|for just|for the|for tonight|for a while|for a bit|so i can|while|at|in|when|being|spinning|racing|moving|changing|buzzing|ringing|hurting for)\b`),
	// Hopelessness alone is a bad night; with a wish for everything to stop
	// or be over, it is more, wherever in the intention the two are.
	sign("hopeless and ending", `\b(?:hopeless|no hope|give up|given up|cant take it anymore|cant do this anymore|cant do it anymore|cant cope|never going to get better|never get better|nothing will change|nothing left(?: for me)?|no point anymore)\b|\bim (?:so )?done(?:\s*,|$)`).
		and(`\b(?:want|wish|need|just)\b[^,]{0,20}\b(?:it|it all|everything|all of it|this|all this)\s+(?:to\s+)?(?:stop|end|be over|go away|over)\b|\bwant\s+(?:out|to go)(?:\s*,|$)|\bend it\b|\b(?:be\s+)?over\s+for\s+good\b|\bfor good\b|\bdisappear\b|\bnot be here\b|\bgone\b|\bgoodbye(?:\s*,|$)`),

	// --- Means: the method named, bought, held, counted or taken.
	sign("pills", `\b(?:saving|saved|stockpil\w*|hoard\w*|collect\w*|stash\w*)\s+(?:up\s+)?(?:my\s+|the\s+|some\s+|all\s+my\s+)?{pills}|\b(?:take|taking|swallow\w*|down)\s+(?:all|every one|every last one)\s+(?:of\s+)?(?:my|the|these)\s+{pills}\s+(?:at once|together|in one go|tonight|right now|now)\b|\b(?:whole bottle|handful|bottle)\s+of\s+(?:my\s+)?{pills}`),
	// Pills set out: not a dose set out for the morning.
	sign("pills ready", `\b{pills}\s+(?:are\s+)?(?:ready|lined up|counted|laid out|in front of me)\b|\bgot\s+(?:the|my)\s+{pills}\s+ready\b`).
		unless(`\s+(?:for|to take|as)\b`),
	// Many pills at once, in any tense: "took a bunch of pills", "took 30
	// tylenol", "swallow all of them". A daily dose is not ("took my
	// pills", "took 2 advil").
	sign("a lot of pills", `\b(?:took|taken|swallowed|downed|popped)\s+(?:a\s+)?(?:bunch|lot|lots|load|loads|ton|tons|handful|whole bottle|bottle|pack|box|packet|dozens|fistful|[1-9]\d+)\s+(?:of\s+)?(?:my\s+|the\s+|these\s+|those\s+)?(?:sleeping\s+|pain\s+)?{pills}|\b(?:take|taking|swallow\w*)\s+all\s+(?:of\s+)?the\s+{pills}|\bswallow\w*\s+(?:all\s+of\s+them|them\s+all|every\s+(?:last\s+)?one)\b`).
		unless(`\s+(?:for|after|because|today for|since|to (?:help|sleep|get))\b`),
	sign("how many would it take", `\bhow\s+(?:many|much)\s+(?:of\s+)?(?:my\s+|the\s+)?(?:\w+\s+)?{pills}\b[^,]{0,25}\b(?:would (?:it )?take{end}|it would take{end}|it takes{end}|(?:would|will|to|does it take to)\s+(?:kill|be fatal|be lethal|{die}|not wake up|od|overdose)|(?:is|are)\s+(?:fatal|lethal|deadly))|\bhow\s+(?:many|much)\b[^,]{0,30}\b(?:is|are|would be)\s+(?:fatal|lethal|a lethal dose)\b`),
	sign("take pills", `\b(?:going to|gonna|want to|about to|will|planning to|plan to|ready to|might)\s+(?:just\s+)?(?:take|swallow|down)\s+(?:a\s+|all\s+)?(?:bunch|lot|lots|load|loads|ton|tons|handful|whole bottle|bottle|pack|box|packet|all)\s+(?:of\s+)?(?:my\s+|the\s+|these\s+)?{pills}`),
	sign("took all my pills", `\b(?:took|taken|swallowed|downed)\s+(?:all|every one|the whole (?:bottle|pack|box|packet))\s+(?:of\s+)?(?:my|the)\s+{pills}`).
		unless(`\s+(?:for|today|this|on time|as|like|with|at breakfast)\b`),
	sign("too many pills", `\b(?:took|take|taken|taking|swallowed|swallow)\s+(?:way\s+)?too\s+many\s+(?:of\s+)?(?:my\s+|the\s+)?{pills}`),
	sign("method", `\b(?:ways|way|how|methods?|easiest way|best way|painless way)\s+to\s+(?:{die}|kill myself|end it|end my life|commit|bleed out)\b|\bpainless\s+(?:death|way out|suicide)\b|\blethal\s+dose\b|\bbleed\s+out\b`),
	// The means at hand: ready, within reach, held, stared at, loaded,
	// just bought. Not a jump rope, a gun range or a knife skills class.
	sign("means at hand", `\b{weapon}\s+(?:is\s+|are\s+|s\s+)?(?:already\s+)?(?:ready|loaded|next to me|beside me|in my hand|in my hands|in front of me|within reach|under my (?:pillow|bed))\b|\b(?:rope|noose)\s+(?:is\s+|s\s+)?(?:already\s+)?(?:set up|tied|hung|hanging|up)\b|\b{weapon}\s+(?:is|are|s)\s+already\s+(?:in|on|here|there|under)\b|\b(?:staring|stare|stared|looking|look|keep looking)\s+at\s+(?:the|a|my|this)\s+{weapon}\b|\b(?:holding|hold|held|grabbed|grabbing|loaded|loading)\s+(?:a|the|my)\s+{weapon}\b|\b(?:bought|buying|got|just got|found)\s+(?:a|the|my|some|my \w+s)\s+(?:gun|pistol|rifle|shotgun|revolver|firearm|razor blades?|noose)\b|\b(?:gun|pistol|barrel)\s+(?:to|in|against)\s+my\s+(?:head|mouth|temple|chest)\b|\b{weapon}\s+and\s+a\s+(?:chair|stool)\b`).
		unless(`\s+(?:safe|range|license|licence|for (?:hunting|cooking|work|the kitchen|climbing|camping|skipping)|cleaning|case|show|club|lessons?|class|course|skills|set|swing|ladder|to (?:cook|chop|climb|skip|cut|slice|open|peel)|while (?:cooking|chopping))\b`),
	sign("at the edge", `\b(?:standing|stood|sitting|climbed|climbing|im|i am)\s+(?:on|at|onto|over)\s+(?:the|a)\s+(?:bridge|ledge|railing|train tracks|railway tracks|tracks|edge of (?:the|a) (?:roof|building|bridge|cliff|platform))\b`),
	// An overdose of pills, or any overdose not of a thing named lightly
	// ("overdosed on coffee", "an overdose of screen time").
	sign("overdose", `\b(?:overdos\w*|od)\s+(?:on|of)\s+(?:\w+\s+){0,2}(?:{pills}|drugs|heroin|fentanyl|opioids|alcohol and pills)\b`),
	sign("overdose (bare)", `\boverdos\w*`).
		unless(`\s+(?:on|of)\b`),
	// Jumping, with a place or a height, or alone where nothing after it
	// makes it a jump into bed or a jump rope.
	sign("jump", `\b(?:jump\w*|leap\w*|throw\w* myself|threw myself|fling\w* myself|step\w*|fall\w*)\s+(?:off|from)\s+(?:a|the|my|this|that)?\s*(?:\w+\s+)?(?:bridge|building|roof|rooftop|cliff|balcony|tower|ledge|overpass|window|car park|parking garage|garage|multi storey|something (?:high|tall)|a height|the top)\b|\b(?:jump\w*|step\w*|walk\w*|throw\w* myself|threw myself)\s+(?:out\s+)?(?:in front of|under|into)\s+(?:a|the|an)\s+(?:\w+\s+){0,2}(?:train|bus|car|truck|lorry|tube|traffic|oncoming)\b|\b(?:going to|want to|about to|ready to|should|will|might|thinking of|thinking about|urge to|need to)\s+(?:just\s+)?jump{end}`),
	// A place or a means that "calls": the pull people describe.
	sign("it calls me", `\b(?:bridge|tracks|ledge|edge|roof|pills|rope|knife|blade|gun|void|river)\b[^,]{0,25}\b(?:calling|calls|call)\s+(?:to\s+)?me\b`),
	sign("the tracks", `\b(?:stare|staring|stared|looked|looking|look|sat|sitting|standing|stood|lying|lay|lie)\s+(?:at|by|near|next to|on)\s+the\s+(?:train\s+|railway\s+|rail\s+)?tracks\b`),
	sign("into the water", `\b(?:want|plan|planning|going|ready|about|thinking of|thinking about)\s+(?:to\s+)?(?:walk|walking|swim|swimming|wade|wading)\s+(?:out\s+)?into\s+the\s+(?:sea|ocean|river|lake|water)(?:\s+and\s+(?:not|never)\s+come\s+back|\s+tonight|\s+until)?{stop}`),
	sign("starve", `\b(?:stop|quit)\s+(?:eating|drinking|taking my meds)\s+(?:until|till)\s+(?:i\s+{die}|im\s+dead)\b`),
	sign("pills and drink", `\bbottle\s+of\s+(?:vodka|whiskey|whisky|rum|gin|alcohol|booze|tequila)\b`).
		and(`\b{pills}\b`),
	sign("hanging", `\bnoose\b|\b(?:bought|buy|buying|got|have|tie|tied|tying)\s+(?:a\s+|the\s+|some\s+)?rope\b`).
		unless(`\s+(?:for|to climb|ladder|swing|course)\b`),
	sign("wrists", `\b(?:slit|slash|cut)\w*\s+(?:my\s+)?wrists?\b`),
	sign("crash on purpose", `\b(?:crash|driv|steer|swerv)\w*\b[^,]{0,20}\b(?:on purpose|deliberately|into (?:a|the) (?:tree|wall|river|sea|lake|oncoming))\b|\bdrive\s+(?:my\s+car\s+)?off\s+(?:a|the)\s+(?:cliff|bridge|pier)\b`),
}
