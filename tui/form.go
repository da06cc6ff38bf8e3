package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"lull/engine"
	"lull/human"
)

type formField int

const (
	fieldLength formField = iota
	fieldIntention
	fieldSleep
	fieldGuide
	fieldVoice
	fieldSoundscape
	fieldBegin
	fieldCount
)

// formView asks for what a new session needs: length, intention, sleep,
// guide, voice, soundscape. Every field has a sensible default, so enter
// at once begins.
type formView struct {
	choices Choices
	length  int // index into choices.Lengths
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
	f := formView{
		choices:    c,
		length:     max(slices.Index(c.Lengths, c.Length), 0),
		guide:      max(slices.Index(c.Guides, c.Guide), 0),
		voice:      max(slices.Index(c.Voices, c.Voice), 0),
		soundscape: max(slices.Index(c.Soundscapes, c.Soundscape), 0),
		intention:  in,
	}
	return f
}

func (f *formView) SetStyles(s *Styles) { f.intention.SetStyles(s.TextInput) }

// Options are the choices made, ready for the engine. The intention is
// cleaned by the engine's rule; Update has refused one the rule refuses.
func (f formView) Options() engine.Options {
	intention, _ := engine.CleanIntention(f.intention.Value())
	o := engine.Options{Intention: intention, Sleep: f.sleep}
	if f.sleep {
		o.SleepTail = f.choices.SleepTail
	}
	if len(f.choices.Lengths) > 0 {
		o.Length = time.Duration(f.choices.Lengths[f.length]) * time.Minute
	}
	if len(f.choices.Guides) > 0 {
		o.Guide = f.choices.Guides[f.guide]
	}
	if len(f.choices.Voices) > 0 {
		o.Voice = f.choices.Voices[f.voice]
	}
	if len(f.choices.Soundscapes) > 0 {
		o.Soundscape = f.choices.Soundscapes[f.soundscape]
	}
	return o
}

// formResult is what a key did to the form.
type formResult int

const (
	formStay formResult = iota
	formSubmit
	formBack
)

func (f *formView) Update(msg tea.Msg, keys KeyMap) (formResult, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok { // a paste, the cursor's blink
		var cmd tea.Cmd
		before := f.intention.Value()
		f.intention, cmd = f.intention.Update(msg)
		f.keepPlain(before)
		return formStay, cmd
	}
	switch {
	case key.Matches(kp, keys.Back):
		return formBack, nil
	case key.Matches(kp, keys.Begin):
		if _, err := engine.CleanIntention(f.intention.Value()); err != nil {
			f.refusal = err.Error()
			return formStay, f.setFocus(fieldIntention)
		}
		return formSubmit, nil
	case key.Matches(kp, keys.Next):
		return formStay, f.setFocus((f.focus + 1) % fieldCount)
	case key.Matches(kp, keys.Prev):
		return formStay, f.setFocus((f.focus + fieldCount - 1) % fieldCount)
	}
	step := 0
	if kp.String() == "left" {
		step = -1
	} else if kp.String() == "right" {
		step = 1
	}
	switch f.focus {
	case fieldLength:
		f.length = cycle(f.length, step, len(f.choices.Lengths))
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
		return formStay, cmd
	}
	return formStay, nil
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
	if to == fieldIntention {
		return f.intention.Focus()
	}
	f.intention.Blur()
	return nil
}

func (f formView) View(width int, s *Styles) string {
	var b strings.Builder
	b.WriteString(s.Title.Render("A new session") + "\n")
	b.WriteString(s.Muted.Render("Find a comfortable place, put on headphones, and choose.") + "\n\n")

	label := func(field formField, name string) string {
		st := s.FieldLabel
		marker := "  "
		if f.focus == field {
			st = s.FieldFocused
			marker = s.Accent.Render("› ")
		}
		return marker + st.Render(fmt.Sprintf("%-11s", name))
	}
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
		if suffix != "" {
			line += " " + s.Muted.Render(suffix)
		}
		return line
	}
	lengths := make([]string, len(f.choices.Lengths))
	for i, l := range f.choices.Lengths {
		lengths[i] = fmt.Sprint(l)
	}
	f.intention.SetWidth(max(width-18, 10))

	b.WriteString(label(fieldLength, "Length") + " " + choices(fieldLength, lengths, f.length, "minutes") + "\n\n")
	b.WriteString(label(fieldIntention, "Intention") + " " + f.intention.View() + "\n")
	if f.refusal != "" {
		wrap := lipgloss.NewStyle().Width(max(width, 12)).PaddingLeft(2)
		b.WriteString(s.Error.Render(wrap.Render(human.Line(f.refusal))) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(label(fieldSleep, "Sleep") + " " + choices(fieldSleep, []string{"off", "on"}, boolIndex(f.sleep), f.sleepNote()) + "\n\n")
	if len(f.choices.Guides) > 0 {
		guideNote := ""
		switch {
		case len(f.choices.Guides) == 1 && f.choices.Guides[0] == "builtin":
			guideNote = "an LLM needs OPENAI_API_KEY or a server"
		case f.choices.Guides[f.guide] == "openai":
			guideNote = f.choices.Model
		}
		b.WriteString(label(fieldGuide, "Guide") + " " + choices(fieldGuide, f.choices.Guides, f.guide, guideNote) + "\n\n")
	}
	b.WriteString(label(fieldVoice, "Voice") + " " + choices(fieldVoice, f.choices.Voices, f.voice, "") + "\n\n")
	b.WriteString(label(fieldSoundscape, "Soundscape") + " " + choices(fieldSoundscape, f.choices.Soundscapes, f.soundscape, "") + "\n\n")
	begin := s.Choice.Render("  Begin  ")
	if f.focus == fieldBegin {
		begin = s.Accent.Render("› ") + s.ChoiceOn.Render("Begin")
	}
	b.WriteString(begin)
	return b.String()
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
