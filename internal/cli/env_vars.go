package cli

// envVariable is an environment variable lull reads.
type envVariable struct {
	Name  string
	About string
	Key   bool // it holds a secret: said to be set or not, never shown
}

// environmentVariables are every variable lull reads, for lull man and
// lull config show; the keys among them are known to the redactor from
// the start (keyVariables).
var environmentVariables = []envVariable{
	{Name: "LULL_HOME", About: "keep everything (sessions, config, log) in this folder"},
	{Name: "XDG_DATA_HOME", About: "without LULL_HOME, the sessions are in its lull folder (default ~/.local/share/lull)"},
	{Name: "XDG_CONFIG_HOME", About: "without LULL_HOME, the config is its lull/config.yaml (default ~/.config/lull/config.yaml)"},
	{Name: "XDG_STATE_HOME", About: "without LULL_HOME, the log is its lull/lull.log (default ~/.local/state/lull/lull.log)"},
	{Name: "OPENAI_API_KEY", About: "the LLM guide writes the sessions (--guide openai by default), and OpenAI's voice is available", Key: true},
	{Name: "OPENAI_BASE_URL", About: "the LLM guide talks to this OpenAI-compatible server instead"},
	{Name: "LULL_LLM_API_KEY", About: "the key for a server named by llm.base_url, if it wants one", Key: true},
	{Name: "LULL_SPEECH_API_KEY", About: "the key for a speech server of your own (speech.base_url), if it wants one", Key: true},
	{Name: "LULL_TIME_SCALE", About: "run all pacing N times faster (0.1 to 10000), the sound to a silent output: for tests and demos"},
	{Name: "LULL_LOG_LEVEL", About: "how much the log says: debug, info (the default), warn or error"},
	{Name: "NO_COLOR", About: "no colour in the interface"},
	{Name: "COLUMNS", About: "the width lull fits what it prints to when that is not a terminal (a pipe, a file); unset, nothing is wrapped"},
	{Name: "VISUAL", About: "the editor lull config edit opens; else EDITOR, else vi"},
	{Name: "EDITOR", About: "the editor lull config edit opens when VISUAL is not set"},
}

// keyVariables are the environment variables that may hold an API key.
var keyVariables = func() []string {
	var names []string
	for _, v := range environmentVariables {
		if v.Key {
			names = append(names, v.Name)
		}
	}
	return names
}()
