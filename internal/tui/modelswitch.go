package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// modelSwitch asks, on the interrupted screen, for another model to run
// the session on — and another provider, when more than one is set up —
// as lull resume --model does from the shell.
type modelSwitch struct {
	model     textinput.Model
	providers []string // the current one first; one or none: nothing to choose
	provider  int
}

// maxModelInput bounds what can be typed; the app checks the name.
const maxModelInput = 100

func newModelSwitch(current string, providers []string, s *Styles) modelSwitch {
	in := textinput.New()
	in.Placeholder = "the model's name, like gpt-4.1-mini"
	in.CharLimit = maxModelInput
	in.Prompt = ""
	in.SetStyles(s.TextInput)
	in.SetValue(current)
	in.Focus()
	return modelSwitch{model: in, providers: providers}
}

func (v *modelSwitch) Update(msg tea.KeyPressMsg, k KeyMap) (editResult, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Back):
		return editBack, nil
	case key.Matches(msg, k.Begin):
		return editSubmit, nil
	case key.Matches(msg, k.Provider) && len(v.providers) > 1:
		v.provider = (v.provider + 1) % len(v.providers)
		return editing, nil
	}
	var cmd tea.Cmd
	v.model, cmd = v.model.Update(msg)
	return editing, cmd
}

// Choice is the provider ("" when there is no other) and the model typed.
func (v modelSwitch) Choice() (provider, model string) {
	if len(v.providers) > 1 {
		provider = v.providers[v.provider]
	}
	return provider, strings.TrimSpace(v.model.Value())
}

func (v *modelSwitch) SetStyles(s *Styles) { v.model.SetStyles(s.TextInput) }

// SetWidth is the screen's width: the model's name scrolls within it.
func (v *modelSwitch) SetWidth(width int) { v.model.SetWidth(max(width-10, 8)) }

// View is the switch in width cells; brief, without its blank lines and
// its aside, for a short screen.
func (v modelSwitch) View(width int, brief bool, s *Styles) string {
	lines := []string{s.Heading.Render("Try another model"), "",
		s.FieldFocused.Render("Model") + "  " + v.model.View()}
	if brief {
		lines = slices.Delete(lines, 1, 2)
	}
	if len(v.providers) > 1 {
		var names []string
		for i, p := range v.providers {
			if i == v.provider {
				names = append(names, s.ChoiceOn.Render("["+p+"]"))
			} else {
				names = append(names, s.Choice.Render(" "+p+" "))
			}
		}
		lines = append(lines, s.FieldLabel.Render("Server")+" "+strings.Join(names, " "))
	}
	if !brief {
		lines = append(lines, "", s.Muted.Render("The session goes on from the last sentence you heard."))
	}
	return strings.Join(lines, "\n")
}
