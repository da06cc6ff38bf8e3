// Package prompts holds lull's words as data: the built-in guide's material
// (guide/: a skeleton, the sleep variant, journeys and intention kinds),
// the LLM guide's prompts (llm/: the
// safety rules, the persona, each phase's instructions and the messages
// that ask for words), and the message shown instead of a session when an
// intention signals crisis (crisis.txt, plain text: it is printed as it is,
// in a terminal and in the TUI; every number in it is sourced in
// crisis_sources.md), the words the crisis screen reads intentions with
// (crisis_concepts.txt), and the safety screen's lists and rules that every
// sentence passes (safety/). The files are meant to be read and reviewed by people
// who do not read Go.
package prompts

import _ "embed"

// Crisis is shown instead of a session when an intention suggests the
// listener may be in danger: kindness, and where to find help.
//
//go:embed crisis.txt
var Crisis string

// CrisisConcepts is the crisis screen's vocabulary: the lists of words and
// phrases it reads an intention with (crisis_concepts.txt; the rules that
// combine them are in crisis/crisis_rules.go).
//
//go:embed crisis_concepts.txt
var CrisisConcepts string
