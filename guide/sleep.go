package guide

import "regexp"

// sleepWords is a placeholder until the intention kinds land (issue 10):
// an intention that speaks of sleep, bed or night proposes a sleep session.
var sleepWords = regexp.MustCompile(`(?i)\b(sleep\w*|asleep|insomnia|bed\w*|night\w*)\b`)

// ProposesSleep reports whether an intention asks for a sleep session.
func ProposesSleep(intention string) bool { return sleepWords.MatchString(intention) }
