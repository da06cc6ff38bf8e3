package audio

import "github.com/lull-dev/lull/internal/engine"

func lineOf(text string) engine.Line {
	return engine.Line{Text: text, Phase: engine.Breathing}
}
