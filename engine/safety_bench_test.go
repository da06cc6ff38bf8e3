package engine

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// keywordScreen is the sentence check lull had before the rules became
// data (commit 5463d93): a list of regular expressions, each sentence
// matched against all of them. It is kept here only as the benchmark's
// anchor: the screen should cost about what a regexp set costs.
type keywordScreen []struct {
	re    *regexp.Regexp
	check func(m []string) bool
}

func oldKeywordScreen() keywordScreen {
	words := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
		"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
		"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
	count := func(s string) int {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
		return words[strings.ToLower(s)]
	}
	longHold := func(m []string) bool {
		n := count(m[1])
		if strings.HasPrefix(strings.ToLower(m[2]), "min") {
			return n >= 1
		}
		return n > maxHold
	}
	const num = `(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty)`
	var k keywordScreen
	add := func(pattern string, check func([]string) bool) {
		k = append(k, struct {
			re    *regexp.Regexp
			check func(m []string) bool
		}{regexp.MustCompile(`(?i)` + pattern), check})
	}
	for _, p := range []string{
		`\bsuicid`, `\bself[- ]?harm|\b(hurt|harm|injur|cut|kill)\w*\s+(yourself|myself)\b`,
		`\b(end|take)\s+(your|my)\s+(own\s+)?life\b`,
		`\b(want|wish|ready|deserve)\s+to\s+die\b|\bno\s+reason\s+to\s+live\b|\bnot\s+want\s+to\s+(live|be\s+alive)\b|\bdon'?t\s+want\s+to\s+(live|be\s+alive|wake\s+up)\b`,
		`\boverdos`, `\bnever\s+wake\s+up\b`,
		`\b(sex|sexual|sexy|erotic|orgasm\w*|arous\w*|naked|nude|nudity|genital\w*|penis|vagina|breasts|nipples?|seduc\w*|lust\w*|horny)\b`,
		`\btouch(ing)?\s+yourself\b`, `\bundress\w*|\bstrip\s+(off|down)\b`,
		`\b(cures?|cured|curing)\b`,
		`\bheal\w*\s+(your\s+|the\s+)?(disease|illness|cancer|infection|depression|diabetes|condition|disorder|tumou?r)`,
		`\b(stop|skip|quit|replace|instead\s+of|no\s+need\s+for|without)\s+(taking\s+)?(your\s+)?(medication|medicine|meds|pills|prescription|treatment|therapy)\b`,
		`\b(no\s+need|don'?t\s+need|never\s+need)\s+(to\s+see\s+)?(a\s+|your\s+)?(doctor|therapist|physician)\b`,
		`\b(treats?|reverses?|eliminates?|prevents?)\s+(your\s+)?(anxiety\s+disorder|depression|insomnia|hypertension|high\s+blood\s+pressure|heart\s+disease|diabetes|cancer|ptsd|illness)`,
		`\b(clinically|medically)\s+(proven|shown)\b|\bguaranteed\s+to\b`,
		`\bhold\w*\b[^.!?]{0,40}?\bfor\s+(a|one|an\s+entire|a\s+full|a\s+whole|several|many|a\s+long)\s+(minutes?|while|time)\b`,
		`\bhold\w*\b[^.!?]{0,30}\b(as\s+long\s+as\s+(you\s+)?(can|possible)|until\s+(it\s+hurts|you\s+can'?t))`,
		`\bhyperventilat\w*|\b(rapid|forceful|fast)\s+(breaths|breathing)\b|\bbreathe\s+(as\s+)?(fast|hard|quickly)\s+as\b|\bpant(ing)?\b`,
		`\bstop\s+breathing\b|\bdon'?t\s+breathe\b`,
	} {
		add(p, nil)
	}
	add(`\bhold\w*\b[^.!?]{0,40}?\bfor\s+(?:a\s+count\s+of\s+|about\s+|at\s+least\s+)?`+num+`\s*(sec\w*|min\w*|counts?|beats?|breaths?)?`, longHold)
	add(`\bhold\w*\b[^.!?]{0,30}?\bcount(?:ing)?\s+(?:to|of)\s+`+num+`()`, longHold)
	return k
}

func (k keywordScreen) flagged(text string) bool {
	for _, r := range k {
		for _, m := range r.re.FindAllStringSubmatch(text, -1) {
			if r.check == nil || r.check(m) {
				return true
			}
		}
	}
	return false
}

// BenchmarkSafetyCheck is the cost of checking one sentence, over the
// whole corpus (safe and unsafe, in the place each is said), for the
// screen and for its anchor measured in the same run: the keyword list it
// replaced. Run with `make bench`, or
//
//	go test -run '^$' -bench SafetyCheck ./engine
func BenchmarkSafetyCheck(b *testing.B) {
	var lines []spoken
	for _, name := range []string{"testdata/safety/unsafe.tsv", "testdata/safety/safe.tsv"} {
		for _, l := range readSafetyCorpus(b, name) {
			lines = append(lines, spoken{l.text, l.places[0]})
		}
	}
	per := func(b *testing.B, check func(spoken)) {
		n := 0
		for b.Loop() {
			check(lines[n%len(lines)])
			n++
		}
	}
	b.Run("keywords", func(b *testing.B) {
		k := oldKeywordScreen()
		per(b, func(l spoken) { k.flagged(l.text) })
	})
	b.Run("screen", func(b *testing.B) {
		s := DefaultSafety()
		per(b, func(l spoken) { s.Check(l.text, l.at) })
	})
}
