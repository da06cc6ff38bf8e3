package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

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
	in.Placeholder = "optional — sleep, calm before a talk…"
	in.CharLimit = engine.MaxIntention
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

// SetSize is the room the form has; it scrolls within its height.
func (f *formView) SetSize(_, height int) { f.height = height }

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
	add(-1, s.Title.Render("A new session"))
	add(-1, s.Muted.Render("Find a comfortable place, put on headphones, and choose."))
	add(-1, "")

	label := func(field formField, name string) string {
		st := s.FieldLabel
		marker := "  "
		if f.focus == field {
			st = s.FieldFocused
			marker = s.Accent.Render("› ")
		}
		return marker + st.Render(fmt.Sprintf("%-11s", name))
	}
	const labelWidth = 14 // the marker, the name and a space
	choices := func(field formField, opts []string, on int, suffix string) string {
		var parts []string
		for i, o := range opts {
			if i == on {
				parts = append(parts, s.ChoiceOn.Render("["+o+"]"))
			} else {
				parts = append(parts, s.Choice.Render(" "+o+" "))
			}
		}
		line := strings.Join(parts, " ")
		if labelWidth+lipgloss.Width(line) > width && len(opts) > 1 {
			// Too narrow for every choice: the one chosen, and that ←/→
			// move among the others.
			line = s.Muted.Render("‹ ") + s.ChoiceOn.Render(opts[on]) + s.Muted.Render(fmt.Sprintf(" › %d of %d", on+1, len(opts)))
			if field == fieldMood { // the digits say where it is
				line = s.Muted.Render("‹ ") + s.ChoiceOn.Render(opts[on]) + s.Muted.Render(" ›")
				suffix = strings.TrimPrefix(suffix, "how you feel: ")
			}
		}
		if suffix != "" {
			line += " " + s.Muted.Render(suffix)
		}
		return line
	}
	lengths := make([]string, len(f.lengths))
	for i, l := range f.lengths {
		lengths[i] = fmt.Sprint(l)
	}
	f.intention.SetWidth(max(width-18, 10))
	f.model.SetWidth(max(width-18, 10))
	refusal := func(text string) string {
		wrap := lipgloss.NewStyle().Width(max(width, 12)).PaddingLeft(2)
		return s.Error.Render(wrap.Render(human.Line(text)))
	}

	lengthNote := "minutes"
	if f.focus == fieldLength {
		lengthNote = fmt.Sprintf("minutes · or type %d–%d", engine.MinLength/time.Minute, engine.MaxLength/time.Minute)
	}
	lengthLine := label(fieldLength, "Length") + " " + choices(fieldLength, lengths, f.length, lengthNote)
	if f.lengthNote != "" {
		lengthLine += "\n" + refusal(f.lengthNote)
	}
	add(fieldLength, lengthLine)
	add(-1, "")
	intention := label(fieldIntention, "Intention") + " " + f.intention.View()
	if f.refusal != "" {
		intention += "\n" + refusal(f.refusal)
	}
	add(fieldIntention, intention)
	add(-1, "")
	add(fieldSleep, label(fieldSleep, "Sleep")+" "+choices(fieldSleep, []string{"off", "on"}, boolIndex(f.sleep), f.sleepNote()))
	add(-1, "")
	if len(f.choices.Guides) > 0 {
		guideNote := ""
		if len(f.choices.Guides) == 1 && f.choices.Guides[0] == engine.GuideBuiltin {
			guideNote = "an LLM needs OPENAI_API_KEY or a server"
		}
		add(fieldGuide, label(fieldGuide, "Guide")+" "+choices(fieldGuide, f.choices.Guides, f.guide, guideNote))
		add(-1, "")
		if f.llm() {
			add(fieldModel, label(fieldModel, "Model")+" "+f.model.View())
			add(-1, "")
		}
	}
	add(fieldVoice, label(fieldVoice, "Voice")+" "+choices(fieldVoice, f.choices.Voices, f.voice, ""))
	add(-1, "")
	add(fieldSoundscape, label(fieldSoundscape, "Soundscape")+" "+choices(fieldSoundscape, f.choices.Soundscapes, f.soundscape, ""))
	add(-1, "")
	add(fieldMood, label(fieldMood, "Mood")+" "+choices(fieldMood, moodChoices, f.mood, moodNote(f.mood)))
	add(-1, "")
	begin := s.Choice.Render("  Begin  ")
	if f.focus == fieldBegin {
		begin = s.Accent.Render("› ") + s.ChoiceOn.Render("Begin")
	}
	add(fieldBegin, begin)
	return strings.Join(scroll(lines, at[f.focus], f.height), "\n")
}

// scroll keeps the lines of the focused field within height: the form
// moves only as far as it must, so Voice, Soundscape and Begin are seen on
// a small terminal when they are reached.
func scroll(lines []string, focus [2]int, height int) []string {
	if height <= 0 || len(lines) <= height {
		return lines
	}
	top := 0
	if focus[1] >= height {
		top = focus[1] - height + 1
	}
	top = min(top, focus[0])
	return lines[top:min(top+height, len(lines))]
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
