package audio

import "lull/engine"

func lineOf(text string) engine.Line {
	return engine.Line{Text: text, Phase: engine.Breathing}
}
