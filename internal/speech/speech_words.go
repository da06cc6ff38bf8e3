package speech

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/lull-dev/lull/internal/lexis"

	"github.com/lull-dev/lull/internal/prompts"
)

// The speech cleaner's lists are data (prompts/speech/): this file reads
// them into matchers. A phrase ("^ i cant/cannot help", "here is ...
// script") becomes a regular expression over a sentence's normal form:
// lower case, apostrophes gone, every other mark a space but for colons and
// question marks, which stay as words of their own.

// speechLists are the compiled lists.
type speechLists struct {
	drop        []reasonMatcher // in the order they are tried
	direction   phrases         // an aside that is a stage direction
	parenthesis phrases         // an aside in parentheses that is a direction too
	languages   languageProfile
}

type reasonMatcher struct {
	reason Reason
	phrases
}

// phrases are a list's compiled phrases, indexed by their first word: a
// phrase is tried only when a sentence holds a word it can start with,
// so a few hundred phrases cost a few map lookups.
type phrases struct {
	byWord   map[string][]*phrase
	byPrefix []prefixed // first words written "stem*"
}

type prefixed struct {
	stem string
	p    *phrase
}

// phrase is one compiled phrase: plain words in a row are looked for as
// they are; a phrase with choices, endings or gaps is an expression,
// tried only when the words it must hold are all there.
type phrase struct {
	literal    string // " here is ", when the phrase is plain words
	start, end bool   // ^ and $, for a literal
	re         *regexp.Regexp
	needs      []string // " word " the expression cannot match without
}

func (p *phrase) in(norm string) bool {
	if p.re == nil {
		switch {
		case p.start && p.end:
			return norm == p.literal
		case p.start:
			return strings.HasPrefix(norm, p.literal)
		case p.end:
			return strings.HasSuffix(norm, p.literal)
		}
		return strings.Contains(norm, p.literal)
	}
	for _, n := range p.needs {
		if !strings.Contains(norm, n) {
			return false
		}
	}
	return p.re.MatchString(norm)
}

func (ps *phrases) add(p *phrase, first []string) {
	if ps.byWord == nil {
		ps.byWord = map[string][]*phrase{}
	}
	for _, f := range first {
		if stem, ok := strings.CutSuffix(f, "*"); ok {
			ps.byPrefix = append(ps.byPrefix, prefixed{stem, p})
		} else {
			ps.byWord[f] = append(ps.byWord[f], p)
		}
	}
}

// match reports whether a phrase is in norm (a normalForm), whose words
// are words.
func (ps *phrases) match(norm string, words []string) bool {
	for _, w := range words {
		for _, p := range ps.byWord[w] {
			if p.in(norm) {
				return true
			}
		}
	}
	for _, pp := range ps.byPrefix {
		for _, w := range words {
			if strings.HasPrefix(w, pp.stem) {
				if pp.p.in(norm) {
					return true
				}
				break
			}
		}
	}
	return false
}

// speechWords compiles prompts/speech once; the files are embedded, so a
// mistake in them is a mistake in the build, which a test catches.
var speechWords = sync.OnceValue(func() *speechLists {
	l, err := compileSpeechWords()
	if err != nil {
		panic("prompts/speech: " + err.Error())
	}
	return l
})

func compileSpeechWords() (*speechLists, error) {
	w, err := prompts.LoadSpeechWords()
	if err != nil {
		return nil, err
	}
	out := &speechLists{}
	for _, l := range w.Drop {
		r := Reason(l.Name)
		if !droppable[r] {
			return nil, fmt.Errorf("drop.txt: [%s] is not a reason lull knows (%s)", l.Name, reasonNames())
		}
		ps, err := compilePhrases(l)
		if err != nil {
			return nil, fmt.Errorf("drop.txt: %w", err)
		}
		out.drop = append(out.drop, reasonMatcher{r, ps})
	}
	for _, l := range w.Directions {
		ps, err := compilePhrases(l)
		if err != nil {
			return nil, fmt.Errorf("directions.txt: %w", err)
		}
		switch l.Name {
		case "direction":
			out.direction = ps
		case "parenthesis":
			out.parenthesis = ps
		default:
			return nil, fmt.Errorf("directions.txt: [%s] is neither [direction] nor [parenthesis]", l.Name)
		}
	}
	if out.direction.byWord == nil || out.parenthesis.byWord == nil {
		return nil, fmt.Errorf("directions.txt needs both [direction] and [parenthesis]")
	}
	out.languages, err = newLanguageProfile(w.Languages)
	if err != nil {
		return nil, fmt.Errorf("languages.txt: %w", err)
	}
	return out, nil
}

// droppable are the reasons drop.txt may list.
var droppable = map[Reason]bool{
	RemovedThinking: true, RemovedRefusal: true, RemovedAI: true, RemovedHeading: true,
	RemovedMeta: true, RemovedChatter: true, RemovedQuestion: true,
}

func reasonNames() string {
	var names []string
	for _, r := range []Reason{RemovedThinking, RemovedRefusal, RemovedAI, RemovedHeading, RemovedMeta, RemovedChatter, RemovedQuestion} {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}

// phraseWord is one word of a phrase: letters and digits, "*" at the end
// for any ending.
var phraseWord = regexp.MustCompile(`^[\pL\pN]+\*?$`)

// phraseGap is "...": up to six words.
const phraseGap = `(?:\S+ ){0,6}`

// compilePhrases compiles a list's phrases.
func compilePhrases(l prompts.WordList) (phrases, error) {
	var ps phrases
	for i, text := range l.Entries {
		p, first, err := compilePhrase(text)
		if err != nil {
			return ps, fmt.Errorf("line %d, [%s] %q: %w", l.Lines[i], l.Name, text, err)
		}
		ps.add(p, first)
	}
	return ps, nil
}

// compilePhrase compiles a phrase to match normal forms, and says what
// its first word may be ("word", or "stem*").
func compilePhrase(text string) (p *phrase, first []string, err error) {
	p = &phrase{}
	toks := strings.Fields(text)
	if len(toks) > 0 && toks[0] == "^" {
		p.start = true
		toks = toks[1:]
	}
	if len(toks) > 0 && toks[len(toks)-1] == "$" {
		p.end = true
		toks = toks[:len(toks)-1]
	}
	var re, lit strings.Builder
	literal := true
	re.WriteString(" ")
	lit.WriteString(" ")
	for i, t := range toks {
		switch {
		case t == "...":
			if i == 0 || i == len(toks)-1 {
				return nil, nil, fmt.Errorf("... stands between two words")
			}
			re.WriteString(phraseGap)
			literal = false
			continue
		case t == ":" || t == "?":
			if first == nil {
				return nil, nil, fmt.Errorf("a phrase starts with a word")
			}
			re.WriteString(regexp.QuoteMeta(t) + " ")
			lit.WriteString(t + " ")
			continue
		case t == "^" || t == "$":
			return nil, nil, fmt.Errorf("%s stands only first (^) or last ($)", t)
		}
		alts := strings.Split(t, "/")
		var res []string
		for _, a := range alts {
			if !phraseWord.MatchString(a) || a != strings.ToLower(a) {
				return nil, nil, fmt.Errorf("%q is not a word as lull compares them (lower case letters and digits, no apostrophes; * only at the end)", a)
			}
			stem, prefix := strings.CutSuffix(a, "*")
			if prefix {
				res = append(res, regexp.QuoteMeta(stem)+`\S*`)
			} else {
				res = append(res, regexp.QuoteMeta(a))
			}
			if i == 0 {
				first = append(first, a)
			}
		}
		if len(alts) == 1 && !strings.HasSuffix(t, "*") {
			p.needs = append(p.needs, " "+t+" ")
			lit.WriteString(t + " ")
		} else {
			literal = false
		}
		re.WriteString("(?:" + strings.Join(res, "|") + ") ")
	}
	if first == nil {
		return nil, nil, fmt.Errorf("a phrase needs a word")
	}
	if literal {
		p.literal, p.needs = lit.String(), nil
		return p, first, nil
	}
	expr := re.String()
	if p.start {
		expr = "^" + expr
	}
	if p.end {
		expr += "$"
	}
	p.re = regexp.MustCompile(expr)
	return p, first, nil
}

// normalForm is a sentence as the phrase lists are matched against it:
// " im sorry but i cant help with that request ", with a space at each
// end so every word is whole.
func normalForm(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space := true
	put := func(r rune) {
		if r == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			return
		}
		b.WriteRune(r)
		space = false
	}
	for _, r := range s {
		switch {
		case lexis.IsApostrophe(r):
			// "I'm" is "im": the lists are written without apostrophes.
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			put(unicode.ToLower(r))
		case r == ':' || r == '?':
			put(' ')
			put(r)
			put(' ')
		default:
			put(' ')
		}
	}
	put(' ')
	return b.String()
}

// dropReason is why a sentence is not said, or "" when it may be.
func (l *speechLists) dropReason(sentence string) Reason {
	norm := normalForm(sentence)
	words := strings.Fields(norm)
	for _, m := range l.drop {
		if m.match(norm, words) {
			return m.reason
		}
	}
	return ""
}

// isDirection reports whether an aside (the text inside brackets,
// parentheses or stars) is a stage direction rather than words to say.
func (l *speechLists) isDirection(aside string, paren bool) bool {
	norm := normalForm(aside)
	if strings.TrimSpace(norm) == "" {
		return true
	}
	words := strings.Fields(norm)
	return l.direction.match(norm, words) || paren && l.parenthesis.match(norm, words)
}

// Prepare compiles the cleaner's lists now, so the first sentence of a
// session does not wait for them.
func Prepare() { speechWords() }
