// Package redact keeps secrets out of everything lull shows, logs or saves:
// the credentials a URL carries (user info, query values), the API keys
// lull was given, and anything shaped like an API key or a bearer token.
// It is the one redactor: the log handler, the session's history, the
// terminal and doctor all ask it.
package redact

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mask stands where a secret was.
const Mask = "REDACTED"

// MinKey is the shortest value registered as a key. A shorter one ("none",
// "test", an empty variable) is no secret worth the name, and masking it
// would mangle ordinary words wherever they appear.
const MinKey = 8

var (
	mu   sync.RWMutex
	keys []string // longest first, so a key that holds another goes whole
)

// Key registers the values of the keys lull was given (from the
// environment, at start, and by each client that holds one). Values
// shorter than MinKey, after trimming, are ignored; registering a value
// twice is harmless.
func Key(values ...string) {
	mu.Lock()
	defer mu.Unlock()
	for _, v := range values {
		v = strings.TrimSpace(v)
		if len(v) < MinKey || slices.Contains(keys, v) {
			continue
		}
		keys = append(keys, v)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
}

var (
	// urlInText finds a URL with a scheme inside any text, such as the
	// Post "http://…": message of a network error.
	urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)
	// keyShaped is an OpenAI-style secret key: sk-, sk-proj-, sk-svcacct-….
	keyShaped = regexp.MustCompile(`\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}`)
	// bearer is an Authorization header's token, quoted in some error.
	bearer = regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=-]{8,}`)
)

// Text is s with every secret masked: URLs as URL masks them, the
// registered keys' values, sk-… keys, and bearer tokens.
func Text(s string) string {
	if strings.Contains(s, "://") {
		s = urlInText.ReplaceAllStringFunc(s, inText)
	}
	return secrets(s)
}

// URL is a URL fit to show: no user info, the value of every query
// parameter and the fragment masked (the names stay, so
// ?token=REDACTED still says what was set), and any key in what is left
// masked too. A URL that does not parse is not shown at all.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = maskQuery(u.RawQuery)
	}
	if u.Fragment != "" || u.RawFragment != "" {
		u.Fragment, u.RawFragment = Mask, ""
	}
	return secrets(u.String())
}

// inText masks a URL found in running text; punctuation that ends the
// sentence around it is not part of it.
func inText(s string) string {
	trimmed := strings.TrimRight(s, ".,;:!?)]}")
	return URL(trimmed) + s[len(trimmed):]
}

// maskQuery keeps each parameter's name and masks its value.
func maskQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if name, value, ok := strings.Cut(p, "="); ok && value != "" {
			parts[i] = name + "=" + Mask
		}
	}
	return strings.Join(parts, "&")
}

// secrets masks the registered keys and whatever is shaped like a key.
func secrets(s string) string {
	mu.RLock()
	for _, k := range keys {
		if strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, Mask)
		}
	}
	mu.RUnlock()
	if strings.Contains(s, "sk-") {
		s = keyShaped.ReplaceAllString(s, Mask)
	}
	if containsFold(s, "bearer") {
		s = bearer.ReplaceAllString(s, "${1}${2}"+Mask)
	}
	return s
}

// containsFold reports whether s holds word in any case (word is lower
// case ASCII), without building a lowered copy of s.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}
