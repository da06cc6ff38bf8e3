package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/app"
)

// editorScript is an editor that runs script with the file as $1.
func editorScript(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigPathAndInit(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, "config.yaml")
	if stdout, _, code := runIn(t, home, "config", "path"); code != 0 || stdout != config+"\n" {
		t.Errorf("config path: exit %d, %q; want %s", code, stdout, config)
	}
	if _, err := os.Lstat(config); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("config path made the file: %v", err)
	}
	if _, stderr, code := runIn(t, home, "config", "init"); code != 0 {
		t.Fatalf("config init: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(config)
	if err != nil || string(b) != app.DefaultConfigText() {
		t.Fatalf("config init wrote %q, %v", b, err)
	}
	if info, _ := os.Stat(config); info.Mode().Perm() != 0o600 {
		t.Errorf("config init wrote it %v, want private", info.Mode())
	}

	// Never over anything: a file of yours, or a link, dangling or not.
	if err := os.WriteFile(config, []byte("length: 20\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runIn(t, home, "config", "init")
	if b, _ := os.ReadFile(config); code == 0 || string(b) != "length: 20\n" || !strings.Contains(stderr, "lull config edit") || !strings.Contains(stderr, "move it away") {
		t.Errorf("config init over a config: exit %d, %q; the file is %q", code, stderr, b)
	}
	os.Remove(config)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, config); err != nil {
		t.Fatal(err)
	}
	if _, _, code := runIn(t, home, "config", "init"); code == 0 {
		t.Error("config init wrote through a link")
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("config init made the link's target: %v", err)
	}
}

func TestConfigShow(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("voice: flite\nllm:\n  base_url: https://me:hunter22@llm.example/v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runEnv(t, home, []string{"OPENAI_API_KEY=sk-proj-abcdefghijklmnop0123", "NO_COLOR=1"}, "config", "show")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"voice: flite", "# from the file", "length: 10", "# default", "https://llm.example/v1", "OPENAI_API_KEY       set (never shown)", "NO_COLOR             1", "LULL_LLM_API_KEY     not set"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("config show has no %q:\n%s", want, stdout)
		}
	}
	for _, secret := range []string{"hunter22", "sk-proj-abcdefghijklmnop0123"} {
		if strings.Contains(stdout, secret) {
			t.Errorf("config show shows %q", secret)
		}
	}

	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("length: 10\nsoundscpe: rain\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runIn(t, home, "config", "show")
	if code == 0 || stdout != "" || !strings.Contains(stderr, "line 2: unknown key soundscpe") || !strings.Contains(stderr, `did you mean "soundscape"`) || !strings.Contains(stderr, "lull config edit") {
		t.Errorf("a config lull refuses: exit %d, %q, %q", code, stdout, stderr)
	}
}

// lull config edit writes the config if there is none, opens the
// editor, and checks what it left; a refused config is kept as written.
func TestConfigEdit(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, "config.yaml")
	good := editorScript(t, `echo "length: 20" >> "$1"`)
	stdout, stderr, code := runEnv(t, home, []string{"VISUAL=", "EDITOR=" + good}, "config", "edit")
	if code != 0 || !strings.Contains(stdout, "is good") || !strings.Contains(stderr, "there was no config") {
		t.Fatalf("exit %d, %q, %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(config); string(b) != app.DefaultConfigText()+"length: 20\n" {
		t.Errorf("the config is %q", b)
	}

	// VISUAL before EDITOR, and an editor given with its arguments.
	bad := editorScript(t, `[ "$1" = --wait ] && shift; echo "breathing: {hold: 30}" >> "$1"`)
	stdout, stderr, code = runEnv(t, home, []string{"VISUAL=" + bad + " --wait", "EDITOR=" + good}, "config", "edit")
	line := fmt.Sprintf("line %d", strings.Count(app.DefaultConfigText(), "\n")+2)
	if code == 0 || !strings.Contains(stderr, line) || !strings.Contains(stderr, "breathing") || !strings.Contains(stderr, "kept as you left it") {
		t.Errorf("a refused edit: exit %d, %q, %q", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(config); !strings.HasSuffix(string(b), "length: 20\nbreathing: {hold: 30}\n") {
		t.Errorf("the refused edit was not kept: %q", b)
	}

	missing := editorScript(t, "exit 3")
	if _, stderr, code := runEnv(t, home, []string{"VISUAL=" + missing}, "config", "edit"); code == 0 || !strings.Contains(stderr, "the editor") {
		t.Errorf("an editor that fails: exit %d, %q", code, stderr)
	}
}

// On a terminal, a refused config is explained and the listener asked to
// edit again, until it is good or they say no.
func TestConfigEditAsksAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	var out, errOut strings.Builder
	c := &cli{stdout: &out, stderr: &errOut}
	writes := []string{"length: 99\n", "length: 20\n"}
	edits, asked := 0, 0
	edit := func() error {
		edits++
		return os.WriteFile(path, []byte(writes[min(edits, len(writes))-1]), 0o600)
	}
	if err := c.editConfig(path, edit, func() bool { asked++; return true }); err != nil {
		t.Fatal(err)
	}
	if edits != 2 || asked != 1 || !strings.Contains(errOut.String(), "length 99 is not between") || !strings.Contains(out.String(), "is good") {
		t.Errorf("%d edits, asked %d times; said %q, %q", edits, asked, out.String(), errOut.String())
	}

	edits, asked = 0, 0
	writes = []string{"length: 99\n"}
	err := c.editConfig(path, edit, func() bool { asked++; return false })
	if err == nil || edits != 1 || asked != 1 {
		t.Errorf("said no: %v, %d edits, asked %d times", err, edits, asked)
	}
	if b, _ := os.ReadFile(path); string(b) != "length: 99\n" {
		t.Errorf("the refused config was not kept: %q", b)
	}
}
