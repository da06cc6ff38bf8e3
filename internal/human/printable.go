package human

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/redact"
)

// Control names a character that does something other than show itself
// on a terminal — a C0 or C1 control, DEL, or a bidirectional-text
// control that reorders what follows — and is "" for any other. Tab and
// line breaks are controls too: what takes text decides whether to fold
// them. It is the one rule for both what lull refuses in an intention and
// what it strips before printing.
func Control(r rune) string {
	switch {
	case r == 0x1b:
		return "an escape character (ESC, which begins a terminal escape sequence)"
	case r == 0x07:
		return "a bell character (BEL)"
	case r == 0x00:
		return "a null character (NUL)"
	case r == 0x08:
		return "a backspace character"
	case r == 0x7f:
		return "a delete character (DEL)"
	case r == '\t':
		return "a tab"
	case lineBreak(r):
		return "a line break"
	case r < 0x20 || r >= 0x80 && r < 0xa0:
		return fmt.Sprintf("a control character (U+%04X)", r)
	case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return fmt.Sprintf("a bidirectional-text control (U+%04X), which reorders the text after it", r)
	case invisible(r):
		return fmt.Sprintf("an invisible character (U+%04X), which hides what the text holds", r)
	}
	return ""
}

// invisible reports a character that takes no room and shows nothing:
// the zero-width space and non-joiner, the byte-order mark, word joiners
// and invisible operators, the Mongolian vowel separator, and tag
// characters. (The zero-width joiner stays: it makes one emoji of several.)
func invisible(r rune) bool {
	return r == 0x200b || r == 0x200c || r >= 0x2060 && r <= 0x2064 || r == 0xfeff || r == 0x180e || r >= 0xe0000 && r <= 0xe007f
}

func lineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029
}

// Line is text from a person, a model or a file made safe to print as one
// line on a terminal: escape sequences removed whole, other controls
// removed, line breaks and runs of space folded to one space, the ends
// trimmed, and every secret masked (redact.Text).
func Line(s string) string {
	if plain(s) {
		return redact.Text(s)
	}
	return redact.Text(strings.Join(strings.Fields(printable(s)), " "))
}

// Lines is Line for text of several lines, such as an error that says
// what to do next: its line breaks stay.
func Lines(s string) string {
	if plain(s) {
		return redact.Text(s)
	}
	lines := strings.Split(printable(strings.ReplaceAll(s, "\r\n", "\n")), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return redact.Text(strings.Join(lines, "\n"))
}

// plain reports whether s is printable as it stands on one line: valid
// UTF-8 without a control of any kind nor a double space to fold.
func plain(s string) bool {
	prev := rune(0)
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || Control(r) != "" || r == ' ' && prev == ' ' {
			return false
		}
		prev = r
	}
	return !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ")
}

// Printable is text with what would act on a terminal removed, as
// printable says, and nothing else changed: its spaces and line breaks
// stay, for a reader that still needs them (the speech cleaner).
func Printable(s string) string { return printable(s) }

// printable removes what would act on a terminal: escape sequences whole
// (CSI, OSC and the other strings, in their ESC and C1 forms), every
// other control but line breaks (tabs become spaces, the other breaks
// "\n"), and bidi controls. Bytes that are not UTF-8 become U+FFFD.
func printable(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b:
			i = skipEscape(rs, i)
		case r == 0x9b: // CSI
			i = skipCSI(rs, i+1)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // DCS, SOS, OSC, PM, APC
			i = skipString(rs, i+1)
		case r == '\t':
			b.WriteByte(' ')
		case lineBreak(r):
			b.WriteByte('\n')
		case Control(r) != "":
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skipEscape passes over the sequence that the ESC at rs[i] begins and
// returns the index of its last rune.
func skipEscape(rs []rune, i int) int {
	if i+1 >= len(rs) {
		return i
	}
	switch next := rs[i+1]; {
	case next == '[':
		return skipCSI(rs, i+2)
	case next == ']' || next == 'P' || next == 'X' || next == '^' || next == '_':
		return skipString(rs, i+2)
	case next >= 0x20 && next <= 0x2f: // intermediates, then one final
		j := i + 1
		for j < len(rs) && rs[j] >= 0x20 && rs[j] <= 0x2f {
			j++
		}
		if j < len(rs) && rs[j] >= 0x30 && rs[j] <= 0x7e {
			return j
		}
		return j - 1
	case next >= 0x30 && next <= 0x7e: // a two-character sequence: ESC 7, ESC c…
		return i + 1
	}
	return i // a lone ESC
}

// skipCSI passes over a control sequence's parameters and intermediates
// from rs[j] to its final byte, and returns the index of that byte (or of
// the last rune that belonged to the sequence, if it was cut short).
func skipCSI(rs []rune, j int) int {
	for ; j < len(rs); j++ {
		switch r := rs[j]; {
		case r >= 0x20 && r <= 0x3f:
			continue
		case r >= 0x40 && r <= 0x7e:
			return j
		default:
			return j - 1 // not part of a sequence: left for the caller
		}
	}
	return len(rs) - 1
}

// skipString passes over an OSC, DCS, SOS, PM or APC string from rs[j] to
// its terminator (BEL, ESC \ or ST) and returns the terminator's last
// index. A string never ended runs to the end of the text, as it would on
// a terminal.
func skipString(rs []rune, j int) int {
	for ; j < len(rs); j++ {
		switch rs[j] {
		case 0x07, 0x9c:
			return j
		case 0x1b:
			if j+1 < len(rs) && rs[j+1] == '\\' {
				return j + 1
			}
			return j - 1 // a new sequence begins
		}
	}
	return len(rs) - 1
}
