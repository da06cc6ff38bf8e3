package tui

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours, 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Terminal backgrounds as they ship: the plain ones and a few common
// themes, light and dark.
var terminalBackgrounds = map[bool]map[string]string{
	false: {"white": "#FFFFFF", "GNOME light": "#FAFAFA", "Solarized light": "#FDF6E3", "macOS Basic": "#FFFFFF"},
	true: {"black": "#000000", "Windows Terminal": "#0C0C0C", "VS Code": "#1E1E1E", "One Dark": "#282C34",
		"Solarized dark": "#002B36", "Ubuntu": "#300A24", "Dracula": "#282A36"},
}

// The key help is read by someone learning the keys: every part of it —
// keys, what they do, separators — reaches WCAG AA (4.5:1) against the
// terminal's background, light and dark. The colours are the ones
// NewStyles gives the help.
func TestKeyHelpHasRealContrast(t *testing.T) {
	const aa = 4.5
	for _, dark := range []bool{false, true} {
		h := NewStyles(dark, false).Help
		parts := map[string]lipgloss.Style{
			"short key": h.ShortKey, "short description": h.ShortDesc, "short separator": h.ShortSeparator,
			"full key": h.FullKey, "full description": h.FullDesc, "full separator": h.FullSeparator,
			"ellipsis": h.Ellipsis,
		}
		for name, st := range parts {
			fg := st.GetForeground()
			if _, none := fg.(lipgloss.NoColor); fg == nil || none {
				t.Errorf("dark=%v: the help's %s has no colour of its own", dark, name)
				continue
			}
			for bgName, hex := range terminalBackgrounds[dark] {
				if c := contrast(fg, lipgloss.Color(hex)); c < aa {
					t.Errorf("dark=%v: the help's %s is %.2f:1 on %s (%s), want at least %.1f:1", dark, name, c, bgName, hex, aa)
				}
			}
		}
	}
}

// A field's placeholder says what to write there ("optional — sleep,
// calm before a talk…", "tab to write a line…"): it reaches WCAG AA on
// the usual backgrounds too, as does a field's text when it is not
// focused. bubbles' own grey was 2.9:1 on black.
func TestFieldTextHasRealContrast(t *testing.T) {
	const aa = 4.5
	for _, dark := range []bool{false, true} {
		ti := NewStyles(dark, false).TextInput
		parts := map[string]lipgloss.Style{
			"focused placeholder": ti.Focused.Placeholder, "blurred placeholder": ti.Blurred.Placeholder,
			"blurred text": ti.Blurred.Text,
		}
		for name, st := range parts {
			fg := st.GetForeground()
			if _, none := fg.(lipgloss.NoColor); fg == nil || none {
				t.Errorf("dark=%v: the %s has no colour of its own", dark, name)
				continue
			}
			for bgName, hex := range terminalBackgrounds[dark] {
				if c := contrast(fg, lipgloss.Color(hex)); c < aa {
					t.Errorf("dark=%v: the %s is %.2f:1 on %s (%s), want at least %.1f:1", dark, name, c, bgName, hex, aa)
				}
			}
		}
	}
}
