package audio

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A voice engine works in a folder of its own under the temporary
// directory, named for lull's process, removed after each sentence. A lull
// killed mid-sentence cannot remove it: the next lull does (see
// removeStaleVoiceDirs).

const voiceDirBase = "lull-voice-"

// voiceDirPrefix is the start of this process's voice folders' names.
func voiceDirPrefix() string { return voiceDirBase + strconv.Itoa(os.Getpid()) + "-" }

// voiceEnv is the environment a voice engine runs in: lull's, with its
// home, configuration, cache, runtime and temporary folders all the
// engine's own folder, so that nothing it or its libraries write (a sound
// server's cookie and settings) lands outside lull's folders.
func voiceEnv(env []string, dir string) []string {
	out := make([]string, 0, len(env)+len(voiceFolders))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(voiceFolders, k) {
			out = append(out, kv)
		}
	}
	for _, k := range voiceFolders {
		out = append(out, k+"="+dir)
	}
	return out
}

// voiceFolders are the variables that name where a program and its
// libraries write.
var voiceFolders = []string{"HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}

// removeStaleVoiceDirs removes, once a process, the voice folders of lulls
// that are no longer running: what a kill mid-sentence left. A folder of a
// running lull, or one lull did not make, is left alone.
var removeStaleVoiceDirs = sync.OnceFunc(func() { removeStaleIn(os.TempDir()) })

func removeStaleIn(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := voiceDirPID(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || processAlive(pid) || !ownedByUs(filepath.Join(tmp, e.Name())) {
			continue
		}
		os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}

// voiceDirPID is the process a voice folder's name says made it.
func voiceDirPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, voiceDirBase)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}
