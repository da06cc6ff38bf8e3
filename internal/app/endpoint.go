package app

import "github.com/lull-dev/lull/internal/llm"

// endpoint is the one rule for where the LLM guide's requests go and with
// which key, given a base URL the config names ("" for none) and own, the
// key meant for a server of one's own (LULL_LLM_API_KEY). The base URL is
// the config's, else OPENAI_BASE_URL, else "" (OpenAI, the SDK's
// default). The key is own, else OPENAI_API_KEY where that key may go: to
// OpenAI, or to the server OPENAI_BASE_URL names (the SDKs' own pairing).
// A base_url of one's own in the config never gets OpenAI's key.
//
// Speech keeps a rule of its own (Config.Voices): there OpenAI's key goes
// to OpenAI only, never with OPENAI_BASE_URL to a server that may be a
// guide's (an Ollama speaks no speech), and LULL_SPEECH_API_KEY only to a
// speech server of one's own.
func endpoint(base, own string, getenv func(string) string) Provider {
	switch {
	case base == "":
		base = getenv("OPENAI_BASE_URL")
	case !llm.IsOpenAI(base):
		return Provider{BaseURL: base, APIKey: own}
	}
	return Provider{BaseURL: base, APIKey: orText(own, getenv("OPENAI_API_KEY"))}
}

// atOpenAI reports whether a base URL is OpenAI's: its own, or none (the
// SDK's default).
func atOpenAI(base string) bool { return base == "" || llm.IsOpenAI(base) }
