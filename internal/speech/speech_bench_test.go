package speech

import "testing"

// BenchmarkSpeech: the cleaner's cost per sentence of ordinary guidance,
// streamed in small pieces as a model sends it.
func BenchmarkSpeech(b *testing.B) {
	text := "Let your shoulders drop away from your ears, and feel the chair beneath you. "
	for b.Loop() {
		var s Speech
		for i := 0; i < len(text); i += 4 {
			s.Feed(text[i:min(i+4, len(text))])
		}
		s.Flush()
	}
}

func BenchmarkSpeechJudge(b *testing.B) {
	w := speechWords()
	for b.Loop() {
		judge("Let your shoulders drop away from your ears, and feel the chair beneath you.", w)
	}
}

func BenchmarkSpeechScrub(b *testing.B) {
	for b.Loop() {
		scrub("Let your shoulders drop away from your ears, and feel the chair beneath you.")
	}
}
