package audio

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// What a voice engine sees: its folder, its environment, and the sentence
// written to a file only for an engine that reads files alone.
func TestVoiceEnginesKeepTheirFilesToThemselves(t *testing.T) {
	tmp, report := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("LULL_TEST_REPORT", report)
	wav := filepath.Join(t.TempDir(), "tone.wav")
	if err := os.WriteFile(wav, toneWAV(22050, 300*time.Millisecond, false), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LULL_TEST_WAV", wav)
	bin := installScript(t, t.TempDir(), "engine", outArg+`
ls -a > "$LULL_TEST_REPORT/files"
printf '%s\n%s\n%s\n%s\n' "$HOME" "$TMPDIR" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" > "$LULL_TEST_REPORT/env"
pwd > "$LULL_TEST_REPORT/dir"
cat > /dev/null
cp "$LULL_TEST_WAV" "$out"`)
	for _, c := range []struct {
		voice    Voice
		textFile bool
	}{{&espeak{path: bin}, false}, {&piper{path: bin, model: "m.onnx"}, false}, {&flite{path: bin}, true}} {
		if _, err := c.voice.Speak(context.Background(), engine.Line{Text: "A private worry, spoken.", Phase: engine.Sensory}, Rate); err != nil {
			t.Fatalf("%s: %v", c.voice.Name(), err)
		}
		files, _ := os.ReadFile(filepath.Join(report, "files"))
		if got := strings.Contains(string(files), textFile); got != c.textFile {
			t.Errorf("%s: the sentence written to a file: %v, want %v (the folder held %q)", c.voice.Name(), got, c.textFile, files)
		}
		dir, _ := os.ReadFile(filepath.Join(report, "dir"))
		env, _ := os.ReadFile(filepath.Join(report, "env"))
		own := strings.TrimSpace(string(dir))
		for _, v := range strings.Fields(string(env)) {
			if v != own {
				t.Errorf("%s: ran with %q among its home and temporary folders, want its own folder %q", c.voice.Name(), v, own)
			}
		}
		if !strings.HasPrefix(filepath.Base(own), voiceDirPrefix()) {
			t.Errorf("%s: its folder %q is not named for lull's process", c.voice.Name(), own)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A lull killed mid-sentence leaves its voice folder; the next one
// removes it, and nothing of a running lull or not lull's.
func TestStaleVoiceFoldersAreRemoved(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true to make a finished process with")
	}
	dead := gone.Process.Pid
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, textFile), []byte("a private worry\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk(voiceDirBase + strconv.Itoa(dead) + "-123")
	mine := mk(voiceDirPrefix() + "456")
	alive := mk(voiceDirBase + "1-789") // pid 1 runs
	other := mk("lull-voices-of-someone-else")
	removeStaleIn(tmp)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the folder of a lull no longer running is still there: %v", err)
	}
	for _, keep := range []string{mine, alive, other} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(keep), err)
		}
	}
}

// The real espeak-ng writes a sound server's settings under $HOME/.config
// and a folder under $TMPDIR as it starts: run by lull, both land in the
// voice's own folder and go with it. Nothing appears in the user's home
// or temporary folder.
func TestRealVoiceTouchesNothingOutside(t *testing.T) {
	e := needEspeak(t)
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	for _, k := range []string{"XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "PULSE_SERVER", "PULSE_RUNTIME_PATH"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)  // as on a desktop without them: the library makes its own
	}
	if _, err := e.Speak(context.Background(), engine.Line{Text: "Rest here.", Phase: engine.Sensory}, Rate); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{home, tmp} {
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			var names []string
			for _, l := range left {
				names = append(names, l.Name())
			}
			t.Errorf("%s holds %q after a sentence", dir, names)
		}
	}
}
