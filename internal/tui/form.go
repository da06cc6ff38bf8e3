package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

type formField int

const (
	fieldLength formField = iota
	fieldIntention
	fieldSleep
	fieldGuide
	fieldModel // the LLM's model, when the guide is one
	fieldVoice
	fieldSoundscape
	fieldMood // how the listener feels before, 1–5, or skipped
	fieldBegin
	fieldCount
)

// formView asks for what a new session needs: length, intention, sleep,
// guide and its model, voice, soundscape, and how the listener feels.
// Every field has a sensible default (the last session's choices), so
// enter at once begins.
type formView struct {
	choices    Choices
	lengths    []int  // the presets, and a length typed or last chosen among them
	length     int    // index into lengths
	typed      string // digits typed on the length field, for a length of one's own
	lengthNote string // why the typed length cannot be used, until the next key
	mood       int    // 1–5, 0 skipped
	model      textinput.Model
	height     int // lines the form may fill; it scrolls to keep the focus seen
	// sleep follows the intention — on when it speaks of sleep, bed or
	// night — until the listener sets it themselves.
	sleep      bool
	sleepSet   bool
	guide      int
	voice      int
	soundscape int
	intention  textinput.Model
	refusal    string // why the intention cannot be used, until it is edited
	focus      formField
}

func newFormView(c Choices, styles *Styles) formView {
	in := textinput.New()
	in.Placeholder = intentionPlaceholder
	// More than the rule allows, so that a longer intention is kept as
	// typed or pasted and refused in words, never cut in silence.
	in.CharLimit = 2 * engine.MaxIntention
	in.Prompt = ""
	in.SetStyles(styles.TextInput)
	mdl := textinput.New()
	mdl.Placeholder = c.Model
	mdl.CharLimit = maxModelName
	mdl.Prompt = ""
	mdl.SetValue(c.Model)
	mdl.SetStyles(styles.TextInput)
	lengths := withLength(c.Lengths, c.Length)
	f := formView{
		choices:    c,
		lengths:    lengths,
		length:     max(slices.Index(lengths, c.Length), 0),
		model:      mdl,
		guide:      max(slices.Index(c.Guides, c.Guide), 0),
		voice:      max(slices.Index(c.Voices, c.Voice), 0),
		soundscape: max(slices.Index(c.Soundscapes, c.Soundscape), 0),
		intention:  in,
	}
	return f
}

func (f *formView) SetStyles(s *Styles) {
	f.intention.SetStyles(s.TextInput)
	f.model.SetStyles(s.TextInput)
}

// SetSize is the room the form has; it scrolls within its height. The
// fields scroll their text within their width, which leaves the
// intention room for its count.
func (f *formView) SetSize(width, height int) {
	f.height = height
	f.intention.SetWidth(max(width-labelCells-countCells, 8))
	f.model.SetWidth(max(width-18, 10))
}

// countCells is the room beside the intention for its count: " 120/120"
// and a cell for the cursor.
const countCells = 9

// Options are the choices made, ready for the engine. The intention is
// cleaned by the engine's rule; Update has refused one the rule refuses.
func (f formView) Options() engine.Options {
	intention, _ := engine.CleanIntention(f.intention.Value())
	o := engine.Options{Intention: intention, Sleep: f.sleep, MoodBefore: f.mood}
	if f.sleep {
		o.SleepTail = f.choices.SleepTail
	}
	if len(f.lengths) > 0 {
		o.Length = time.Duration(f.lengths[f.length]) * time.Minute
	}
	if len(f.choices.Guides) > 0 {
		o.Guide = f.choices.Guides[f.guide]
	}
	if m := strings.TrimSpace(f.model.Value()); f.llm() && m != "" && m != f.choices.Model {
		o.Model = m // only a model the listener changed: the configured one is the default
	}
	if len(f.choices.Voices) > 0 {
		o.Voice = f.choices.Voices[f.voice]
	}
	if len(f.choices.Soundscapes) > 0 {
		o.Soundscape = f.choices.Soundscapes[f.soundscape]
	}
	return o
}

func (f *formView) Update(msg tea.Msg, keys KeyMap) (editResult, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok { // a paste, the cursor's blink
		var cmd tea.Cmd
		if f.focus == fieldModel {
			f.model, cmd = f.model.Update(msg)
			f.model.SetValue(modelName(f.model.Value()))
			return editing, cmd
		}
		before := f.intention.Value()
		f.intention, cmd = f.intention.Update(msg)
		f.keepPlain(before)
		return editing, cmd
	}
	switch {
	case key.Matches(kp, keys.Back):
		return editBack, nil
	case key.Matches(kp, keys.Begin):
		if f.lengthNote != "" {
			return editing, f.setFocus(fieldLength) // a length half typed: say so rather than begin another
		}
		if _, err := engine.CleanIntention(f.intention.Value()); err != nil {
			f.refusal = err.Error()
			return editing, f.setFocus(fieldIntention)
		}
		return editSubmit, nil
	case key.Matches(kp, keys.Next):
		return editing, f.setFocus(f.step(1))
	case key.Matches(kp, keys.Prev):
		return editing, f.setFocus(f.step(-1))
	}
	if f.focus != fieldLength || !isDigit(kp.String()) {
		f.typed, f.lengthNote = "", ""
	}
	step := 0
	if kp.String() == "left" {
		step = -1
	} else if kp.String() == "right" {
		step = 1
	}
	switch f.focus {
	case fieldLength:
		if isDigit(kp.String()) {
			f.typeLength(kp.String())
			return editing, nil
		}
		f.length = cycle(f.length, step, len(f.lengths))
	case fieldMood:
		if d := kp.String(); isDigit(d) {
			if n := int(d[0] - '0'); engine.CheckMood(n) == nil {
				f.mood = n
			}
		} else if d == "backspace" || d == "delete" {
			f.mood = 0
		}
		f.mood = cycle(f.mood, step, engine.MaxMood+1)
	case fieldModel:
		var cmd tea.Cmd
		f.model, cmd = f.model.Update(msg)
		f.model.SetValue(modelName(f.model.Value()))
		return editing, cmd
	case fieldSleep:
		if step != 0 || kp.String() == "space" {
			f.sleep = step > 0 || (step == 0 && !f.sleep)
			f.sleepSet = true
		}
	case fieldGuide:
		f.guide = cycle(f.guide, step, len(f.choices.Guides))
	case fieldVoice:
		f.voice = cycle(f.voice, step, len(f.choices.Voices))
	case fieldSoundscape:
		f.soundscape = cycle(f.soundscape, step, len(f.choices.Soundscapes))
	case fieldIntention:
		var cmd tea.Cmd
		before := f.intention.Value()
		f.intention, cmd = f.intention.Update(msg)
		f.keepPlain(before)
		return editing, cmd
	}
	return editing, nil
}

// keepPlain takes out of the intention any control the rule refuses — a
// bidi override pasted in, say — and says what it took, so the field
// never shows one and the listener knows why their text changed. An edit
// clears the last refusal.
func (f *formView) keepPlain(before string) {
	v := f.intention.Value()
	if v == before {
		return
	}
	defer f.followIntention()
	f.refusal = ""
	var b strings.Builder
	for _, r := range v {
		switch what := human.Control(r); {
		case what == "":
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case f.refusal == "":
			f.refusal = "The intention cannot hold " + what + "; it was taken out."
		}
	}
	if f.refusal != "" {
		f.intention.SetValue(b.String())
	}
}

// followIntention turns sleep on when the intention speaks of sleep, and
// off when it no longer does, until the listener has set it themselves.
func (f *formView) followIntention() {
	if !f.sleepSet && f.choices.ProposesSleep != nil {
		f.sleep = f.choices.ProposesSleep(f.intention.Value())
	}
}

// cycle moves i by step within n choices, stopping at the ends.
func cycle(i, step, n int) int {
	if n == 0 {
		return 0
	}
	return min(max(i+step, 0), n-1)
}

func (f *formView) setFocus(to formField) tea.Cmd {
	f.focus = to
	f.model.Blur()
	if to == fieldModel {
		f.intention.Blur()
		return f.model.Focus()
	}
	if to == fieldIntention {
		return f.intention.Focus()
	}
	f.intention.Blur()
	return nil
}

// step is the field dir away from the focus, passing over the model field
// when the guide is not an LLM.
func (f *formView) step(dir int) formField {
	to := f.focus
	for {
		to = formField((int(to) + dir + int(fieldCount)) % int(fieldCount))
		if to != fieldModel || f.llm() {
			return to
		}
	}
}

// llm reports whether the chosen guide is an LLM, which has a model.
func (f formView) llm() bool {
	return len(f.choices.Guides) > 0 && f.choices.Guides[f.guide] == engine.GuideOpenAI
}

// spacedForm is the fewest rows the form is drawn in with a line between
// its fields.
const spacedForm = 20

// labelCells is the cells before a field's value: the focus marker, the
// field's name and a space.
const labelCells = 14

// fieldNames name the fields where the form says which are out of sight.
var fieldNames = map[formField]string{
	fieldLength: "Length", fieldIntention: "Intention", fieldSleep: "Sleep", fieldGuide: "Guide",
	fieldModel: "Model", fieldVoice: "Voice", fieldSoundscape: "Soundscape", fieldMood: "Mood", fieldBegin: "Begin",
}

func (f formView) View(width int, s *Styles) string {
	var lines []string
	at := map[formField][2]int{} // each field's first and last line
	add := func(field formField, text string) {
		first := len(lines)
		lines = append(lines, strings.Split(text, "\n")...)
		if field >= 0 {
			at[field] = [2]int{first, len(lines) - 1}
		}
	}
	// On a short screen the fields go without the line between them and
	// the words under the title: more of them are seen at once.
	compact := f.height > 0 && f.height < spacedForm
	gap := func() {
		if !compact {
			add(-1, "")
		}
	}
	add(-1, s.Title.Render("A new session"))
	if !compact {
		add(-1, s.Muted.Render(wrap("Find a comfortable place, put on headphones, and choose.", max(width, 1))))
	}
	gap()

	label := func(field formField, name string) string {
		st := s.FieldLabel
		marker := "  "
		if f.focus == field {
			st = s.FieldFocused
			marker = s.Accent.Render("› ")
		}
		return marker + st.Render(fmt.Sprintf("%-11s", name))
	}
	indent := strings.Repeat(" ", labelCells)
	choices := func(opts []string, on int, suffix string) string {
		room := max(width-labelCells, 1)
		line := choiceWindow(opts, on, room, s)
		if suffix == "" {
			return line
		}
		if lipgloss.Width(line)+1+lipgloss.Width(suffix) <= room {
			return line + " " + s.Muted.Render(suffix)
		}
		if short := lipgloss.Width(suffix); short <= room/2 {
			// A word or two: fewer choices in sight, and the note beside them.
			return choiceWindow(opts, on, room-1-short, s) + " " + s.Muted.Render(suffix)
		}
		// Too narrow for the note beside the choices: under them.
		return line + "\n" + indent + s.Muted.Render(truncate(suffix, max(width-labelCells, 1)))
	}
	lengths := make([]string, len(f.lengths))
	for i, l := range f.lengths {
		lengths[i] = fmt.Sprint(l)
	}
	refusal := func(text string) string {
		wrap := lipgloss.NewStyle().Width(max(width, 12)).PaddingLeft(2)
		return s.Error.Render(wrap.Render(human.Line(text)))
	}

	lengthNote := "minutes"
	if f.focus == fieldLength {
		lengthNote = fmt.Sprintf("minutes · or type %d–%d", engine.MinLength/time.Minute, engine.MaxLength/time.Minute)
	}
	lengthLine := label(fieldLength, "Length") + " " + choices(lengths, f.length, lengthNote)
	if f.lengthNote != "" {
		lengthLine += "\n" + refusal(f.lengthNote)
	}
	add(fieldLength, lengthLine)
	gap()
	intention := label(fieldIntention, "Intention") + " " + f.intentionView(width-labelCells, s)
	if f.refusal != "" {
		intention += "\n" + refusal(f.refusal)
	} else if over := f.intentionOver(); over != "" {
		intention += "\n" + refusal(over)
	}
	add(fieldIntention, intention)
	gap()
	add(fieldSleep, label(fieldSleep, "Sleep")+" "+choices([]string{"off", "on"}, boolIndex(f.sleep), f.sleepNote()))
	gap()
	if len(f.choices.Guides) > 0 {
		guideNote := ""
		if len(f.choices.Guides) == 1 && f.choices.Guides[0] == engine.GuideBuiltin {
			guideNote = "an LLM needs OPENAI_API_KEY or a server"
		}
		add(fieldGuide, label(fieldGuide, "Guide")+" "+choices(f.choices.Guides, f.guide, guideNote))
		gap()
		if f.llm() {
			add(fieldModel, label(fieldModel, "Model")+" "+f.model.View())
			gap()
		}
	}
	add(fieldVoice, label(fieldVoice, "Voice")+" "+choices(f.choices.Voices, f.voice, ""))
	gap()
	add(fieldSoundscape, label(fieldSoundscape, "Soundscape")+" "+choices(f.choices.Soundscapes, f.soundscape, ""))
	gap()
	add(fieldMood, label(fieldMood, "Mood")+" "+choices(moodChoices, f.mood, moodNote(f.mood)))
	gap()
	begin := s.Choice.Render("  Begin  ")
	if f.focus == fieldBegin {
		begin = s.Accent.Render("› ") + s.ChoiceOn.Render("Begin")
	}
	add(fieldBegin, begin)
	return strings.Join(scroll(lines, at, f.focus, f.height, width, s), "\n")
}

const intentionPlaceholder = "optional — sleep, calm before a talk…"

// intentionView is the intention's field in room cells, and while it has
// the focus and words, how many characters of the most it may hold: past
// that, in the error's colour, and always then (intentionOver says by how
// much under it).
func (f formView) intentionView(room int, s *Styles) string {
	n := f.intentionLength()
	count := ""
	if f.focus == fieldIntention && n > 0 || n > engine.MaxIntention {
		count = fmt.Sprintf("%d/%d", n, engine.MaxIntention)
	}
	in := f.intention
	// The placeholder in full where it fits (the field's width and the
	// cursor's cell), else in brief, never cut in silence.
	for _, p := range []string{intentionPlaceholder, "optional — sleep, a talk…", "optional"} {
		in.Placeholder = truncate(p, in.Width()+1)
		if lipgloss.Width(p) <= in.Width()+1 {
			break
		}
	}
	line := in.View()
	if count == "" {
		return line
	}
	if n > engine.MaxIntention {
		return line + " " + s.Error.Render(count)
	}
	return line + " " + s.Muted.Render(count)
}

// intentionLength is the intention's length as the rule counts it: in
// characters, its spaces folded.
func (f formView) intentionLength() int {
	return utf8.RuneCountInString(strings.Join(strings.Fields(f.intention.Value()), " "))
}

// intentionOver says by how much the intention is longer than the rule
// allows, or "" when it is not.
func (f formView) intentionOver() string {
	n := f.intentionLength()
	if n <= engine.MaxIntention {
		return ""
	}
	return fmt.Sprintf("At most %d characters: %d too many.", engine.MaxIntention, n-engine.MaxIntention)
}

// choiceWindow lays out a field's choices, the one chosen in brackets, in
// room cells: all of them when they fit; otherwise the chosen one and as
// many of its neighbours as fit, with "…" on the side where others are out
// of sight (←/→ reach them).
func choiceWindow(opts []string, on, room int, s *Styles) string {
	item := func(i int) string {
		if i == on {
			return s.ChoiceOn.Render("[" + opts[i] + "]")
		}
		return s.Choice.Render(" " + opts[i] + " ")
	}
	if len(opts) == 0 {
		return ""
	}
	lay := func(lo, hi int) string {
		var parts []string
		if lo > 0 {
			parts = append(parts, s.Muted.Render("…"))
		}
		for i := lo; i <= hi; i++ {
			parts = append(parts, item(i))
		}
		if hi < len(opts)-1 {
			parts = append(parts, s.Muted.Render("…"))
		}
		return strings.Join(parts, " ")
	}
	lo, hi := on, on
	for grew := true; grew; {
		grew = false
		if hi+1 < len(opts) && lipgloss.Width(lay(lo, hi+1)) <= room {
			hi, grew = hi+1, true
		}
		if lo > 0 && lipgloss.Width(lay(lo-1, hi)) <= room {
			lo, grew = lo-1, true
		}
	}
	return lay(lo, hi)
}

// scroll keeps the lines of the focused field within height: the form
// moves only as far as it must, so Voice, Soundscape and Begin are seen on
// a small terminal when they are reached. A row above and below says
// which fields are out of sight there.
func scroll(lines []string, at map[formField][2]int, focus formField, height, width int, s *Styles) []string {
	if height <= 0 || len(lines) <= height {
		return lines
	}
	span := at[focus]
	hidden := func(first, last int) string {
		var names []string
		for fd := formField(0); fd < fieldCount; fd++ {
			if r, ok := at[fd]; ok && r[0] >= first && r[1] <= last {
				names = append(names, fieldNames[fd])
			}
		}
		return strings.Join(names, ", ")
	}
	for room := height; room > 0; room-- {
		top := 0
		if span[1] >= room {
			top = span[1] - room + 1
		}
		top = max(min(top, span[0]), 0)
		bottom := min(top+room, len(lines))
		above, below := top > 0, bottom < len(lines)
		if room+boolIndex(above)+boolIndex(below) > height {
			continue
		}
		out := slices.Clone(lines[top:bottom])
		if above {
			note := "↑ more"
			if names := hidden(0, top-1); names != "" {
				note = "↑ " + names
			}
			out = append([]string{s.Muted.Render(truncate(note, max(width, 1)))}, out...)
		}
		if below {
			note := "↓ more"
			if names := hidden(bottom, len(lines)-1); names != "" {
				note = "↓ " + names
			}
			out = append(out, s.Muted.Render(truncate(note, max(width, 1))))
		}
		return out
	}
	return lines[:height]
}

// sleepNote says what a sleep session does.
func (f formView) sleepNote() string {
	switch {
	case !f.sleep:
		return "a waking close"
	case f.choices.SleepTail <= 0:
		return "nothing wakes you; the sound stops with the words"
	default:
		return fmt.Sprintf("nothing wakes you; the sound plays on %d min", int(f.choices.SleepTail.Minutes()))
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// moodChoices are the mood field's choices: skipped, or 1–5.
var moodChoices = []string{"skip", "1", "2", "3", "4", "5"}

// moodNote says what the chosen mood means, or the scale.
func moodNote(m int) string {
	if w := engine.MoodWord(m); w != "" {
		return "how you feel: " + w
	}
	return fmt.Sprintf("how you feel: %d %s … %d %s", engine.MinMood, engine.MoodWord(engine.MinMood), engine.MaxMood, engine.MoodWord(engine.MaxMood))
}

// maxModelName bounds the model field.
const maxModelName = 100

// modelName keeps a model's name to printable characters without spaces.
func modelName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || human.Control(r) != "" {
			return -1
		}
		return r
	}, s)
}

func isDigit(k string) bool { return len(k) == 1 && k[0] >= '0' && k[0] <= '9' }

// typeLength takes a digit typed on the length field: up to two digits
// make minutes of one's own, shown among the presets once in range.
func (f *formView) typeLength(d string) {
	if len(f.typed) >= 2 {
		f.typed = ""
	}
	f.typed += d
	n, _ := strconv.Atoi(f.typed)
	lo, hi := int(engine.MinLength/time.Minute), int(engine.MaxLength/time.Minute)
	if engine.CheckLength(time.Duration(n)*time.Minute) != nil {
		f.lengthNote = fmt.Sprintf("%s minutes: a session is %d to %d minutes; type another", f.typed, lo, hi)
		if len(f.typed) == 1 {
			f.lengthNote = fmt.Sprintf("%s… type the next digit: a session is %d to %d minutes", f.typed, lo, hi)
		}
		return
	}
	f.lengthNote = ""
	// The presets, the length the form opened with, and this one.
	f.lengths = withLength(withLength(f.choices.Lengths, f.choices.Length), n)
	f.length = slices.Index(f.lengths, n)
}

// withLength is lengths with n among them, in order.
func withLength(lengths []int, n int) []int {
	if n <= 0 || slices.Contains(lengths, n) {
		return lengths
	}
	out := append(slices.Clone(lengths), n)
	slices.Sort(out)
	return out
}
