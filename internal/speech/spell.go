package speech

import (
	"regexp"
	"strconv"
	"strings"
)

// Spoken writes out what a voice would misread: figures, ranges, times,
// counts ("3x"), units ("4s", "10 min"), slashes ("in/out"), symbols and
// common abbreviations become the words a guide would say. espeak-ng
// reads "Breathe in for 4s, 3x" as letters and digits; the listener should
// hear "Breathe in for four seconds, three times". Every voice is given a
// line through it (package audio); the screen shows the line as written.
// Spoken text is spoken again unchanged.
func Spoken(s string) string {
	if !strings.ContainsAny(s, "0123456789/&%+~#@") && !abbreviated(s) {
		return s
	}
	for _, r := range spellings {
		if r.quick == "" || strings.ContainsAny(s, r.quick) {
			s = r.re.ReplaceAllStringFunc(s, r.to)
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// abbreviated reports whether s may hold an abbreviation spellings write
// out: they all end in a full stop.
func abbreviated(s string) bool {
	return strings.Contains(s, ".") && abbreviation.MatchString(s)
}

var abbreviation = regexp.MustCompile(`(?i)\b(e\.g|i\.e|etc|approx|vs|min|mins|sec|secs|hr|hrs)\.`)

// spelling is one rewrite: a pattern, and what a match becomes. quick,
// when set, holds runes one of which a text must hold to be tried.
type spelling struct {
	re    *regexp.Regexp
	to    func(string) string
	quick string
}

func literal(w string) func(string) string { return func(string) string { return w } }

const num = `\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?`

var spellings = []spelling{
	// Abbreviations first: "approx. 4 sec." has a number and a unit.
	{re: regexp.MustCompile(`(?i)\be\.g\.,?`), to: literal("for example,")},
	{re: regexp.MustCompile(`(?i)\bi\.e\.,?`), to: literal("that is,")},
	{re: regexp.MustCompile(`(?i)\betc\.`), to: literal("and so on.")},
	{re: regexp.MustCompile(`(?i)\bapprox\.`), to: literal("about")},
	{re: regexp.MustCompile(`(?i)\bvs\.?(\s)`), to: func(m string) string { return "versus" + m[len(m)-1:] }},
	// Times of day: "10:30", "7 pm", "6am".
	{re: regexp.MustCompile(`\b(\d{1,2}):(\d{2})\s*([aApP])\.?[mM]\b`), to: clock, quick: ":"},
	{re: regexp.MustCompile(`\b(\d{1,2}):(\d{2})\b`), to: clock, quick: ":"},
	{re: regexp.MustCompile(`\b(\d{1,2})\s*([aApP])\.?[mM]\b`), to: clock},
	// Counts and rhythms: "4-7-8", "3-4", "2x", "x3".
	{re: regexp.MustCompile(`\b\d+(?:\s*[-–]\s*\d+){2,}\b`), to: rhythm},
	{re: regexp.MustCompile(`\b(` + num + `)\s*(?:-|–|—|to)\s*(` + num + `)\b`), to: numberRange},
	{re: regexp.MustCompile(`(?i)\b(\d+)\s*[x×]\b|\b[x×]\s*(\d+)\b`), to: times},
	// Units glued to or beside a number: "4s", "10 sec", "5 mins", "50%".
	{re: regexp.MustCompile(`(?i)\b(` + num + `)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b`), to: unit},
	{re: regexp.MustCompile(`(` + num + `)\s*%`), to: func(m string) string { return numberWords(strings.TrimSpace(strings.TrimSuffix(m, "%"))) + " percent" }, quick: "%"},
	// Ordinals and fractions: "1st", "2nd", "1/2".
	{re: regexp.MustCompile(`(?i)\b(\d+)(st|nd|rd|th)\b`), to: ordinal},
	{re: regexp.MustCompile(`\b(\d+)/(\d+)\b`), to: fraction, quick: "/"},
	// What is left of the figures.
	{re: regexp.MustCompile(`#\s*(\d+)`), to: func(m string) string { return "number " + numberWords(strings.TrimSpace(m[1:])) }, quick: "#"},
	{re: regexp.MustCompile(num), to: numberWords},
	// Slashes between words: "in/out", "and/or", "he/she".
	{re: regexp.MustCompile(`(?i)\band/or\b`), to: literal("or"), quick: "/"},
	{re: regexp.MustCompile(`(\pL+)\s*/\s*(\pL+)`), to: func(m string) string {
		a, b, _ := strings.Cut(m, "/")
		return strings.TrimSpace(a) + " or " + strings.TrimSpace(b)
	}, quick: "/"},
	{re: regexp.MustCompile(`\s*&\s*`), to: literal(" and "), quick: "&"},
	{re: regexp.MustCompile(`~\s*`), to: literal("about "), quick: "~"},
	{re: regexp.MustCompile(`\s*\+\s*`), to: literal(" and "), quick: "+"},
	{re: regexp.MustCompile(`\s*@\s*`), to: literal(" at "), quick: "@"},
}

var (
	digits = regexp.MustCompile(num)
	ones   = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tens     = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	ordinals = map[string]string{"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
		"nine": "ninth", "twelve": "twelfth"}
)

// numberWords spells a figure: "4" is "four", "4.5" "four and a half",
// "1,000" "one thousand", "2.25" "two point two five".
func numberWords(fig string) string {
	fig = strings.TrimSpace(fig)
	if whole, frac, ok := strings.Cut(fig, "."); ok {
		switch frac {
		case "5":
			return integerWords(whole) + " and a half"
		case "0", "00":
			return integerWords(whole)
		}
		var b strings.Builder
		b.WriteString(integerWords(whole) + " point")
		for _, d := range frac {
			b.WriteString(" " + ones[d-'0'])
		}
		return b.String()
	}
	return integerWords(strings.ReplaceAll(fig, ",", ""))
}

// integerWords spells a whole number below a billion; longer runs of
// digits are read digit by digit, as a voice would read a code.
func integerWords(fig string) string {
	n, err := strconv.Atoi(fig)
	if err != nil || n >= 1_000_000_000 || len(fig) > 1 && fig[0] == '0' {
		var parts []string
		for _, d := range fig {
			if d >= '0' && d <= '9' {
				parts = append(parts, ones[d-'0'])
			}
		}
		return strings.Join(parts, " ")
	}
	return say(n)
}

func say(n int) string {
	switch {
	case n < 20:
		return ones[n]
	case n < 100:
		if n%10 == 0 {
			return tens[n/10]
		}
		return tens[n/10] + "-" + ones[n%10]
	case n < 1000:
		return joinWords(say(n/100)+" hundred", n%100)
	case n < 1_000_000:
		return joinWords(say(n/1000)+" thousand", n%1000)
	}
	return joinWords(say(n/1_000_000)+" million", n%1_000_000)
}

func joinWords(head string, rest int) string {
	switch {
	case rest == 0:
		return head
	case rest < 100:
		return head + " and " + say(rest)
	}
	return head + " " + say(rest)
}

// rhythm spells a breathing pattern: "4-7-8" is "four-seven-eight".
func rhythm(m string) string {
	var parts []string
	for _, f := range digits.FindAllString(m, -1) {
		parts = append(parts, numberWords(f))
	}
	return strings.Join(parts, "-")
}

func numberRange(m string) string {
	fs := digits.FindAllString(m, -1)
	if len(fs) != 2 {
		return m
	}
	return numberWords(fs[0]) + " to " + numberWords(fs[1])
}

func times(m string) string {
	f := digits.FindString(m)
	switch f {
	case "1":
		return "once"
	case "2":
		return "twice"
	}
	return numberWords(f) + " times"
}

func unit(m string) string {
	f := digits.FindString(m)
	u := strings.ToLower(strings.TrimSpace(m[strings.Index(m, f)+len(f):]))
	name := map[byte]string{'s': "second", 'm': "minute", 'h': "hour"}[u[0]]
	words := numberWords(f)
	if f != "1" {
		name += "s"
	}
	return words + " " + name
}

func ordinal(m string) string {
	f := digits.FindString(m)
	w := numberWords(f)
	head, last := "", w
	if i := strings.LastIndexAny(w, " -"); i >= 0 {
		head, last = w[:i+1], w[i+1:]
	}
	switch o, ok := ordinals[last]; {
	case ok:
		last = o
	case strings.HasSuffix(last, "y"):
		last = strings.TrimSuffix(last, "y") + "ieth"
	default:
		last += "th"
	}
	return head + last
}

func fraction(m string) string {
	a, b, _ := strings.Cut(m, "/")
	switch {
	case a == "1" && b == "2":
		return "a half"
	case a == "1" && b == "4":
		return "a quarter"
	case a == "3" && b == "4":
		return "three quarters"
	}
	return numberWords(a) + " out of " + numberWords(b)
}

func clock(m string) string {
	fs := digits.FindAllString(m, -1)
	h := numberWords(fs[0])
	out := h
	if len(fs) > 1 {
		switch mins := fs[1]; {
		case mins == "00":
			out = h + " o'clock"
		case mins[0] == '0':
			out = h + " oh " + numberWords(mins[1:])
		default:
			out = h + " " + numberWords(mins)
		}
	}
	lower := strings.ToLower(m)
	switch {
	case strings.Contains(lower, "a"):
		out = strings.TrimSuffix(out, " o'clock") + " in the morning"
	case strings.Contains(lower, "p"):
		out = strings.TrimSuffix(out, " o'clock") + " in the evening"
	}
	return out
}
