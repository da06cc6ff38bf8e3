package main

import (
	_ "charm.land/bubbles/v2/help"
	_ "charm.land/bubbles/v2/key"
	_ "charm.land/bubbles/v2/list"
	_ "charm.land/bubbles/v2/textinput"
	_ "charm.land/bubbles/v2/viewport"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/gopxl/beep/v2"
	_ "github.com/gopxl/beep/v2/speaker"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/sys/unix"
	_ "gopkg.in/yaml.v3"
)

func main() {}
