//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lull doctor says which local voices would sound better than the one it
// has, and how to install each; a wrong espeak.voice is named with what
// is close.
func TestDoctorSaysWhichVoicesWouldSoundBetter(t *testing.T) {
	t.Parallel()
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
	// A machine with espeak-ng alone: no flite, no mbrola.
	bin := t.TempDir()
	if err := os.Symlink(espeak, filepath.Join(bin, "espeak-ng")); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("espeak:\n  voice: en-uss\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullEnv(t, home, []string{"PATH=" + bin}, time.Minute, "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s\n%s", err, out, errOut)
	}
	_, better, ok := strings.Cut(out, "Better local voices")
	if !ok {
		t.Fatalf("doctor says nothing of better voices:\n%s", out)
	}
	for _, want := range []string{"piper", "espeak-ng with mbrola", "sudo apt-get install espeak-ng mbrola mbrola-us1",
		"contrib", "non-free", "flite", "sudo apt-get install flite"} {
		if !strings.Contains(better, want) {
			t.Errorf("the advice does not say %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"espeak.voice  en-uss", `espeak.voice "en-uss" is not a voice espeak-ng knows`, "did you mean en-us"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
}
