package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// module writes a module of files into a temporary folder.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func check(t *testing.T, dir, platform string) Result {
	t.Helper()
	r, err := Check(context.Background(), dir, platform, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A name that only another platform's file defines is found on the
// platform that lacks it, and only there.
func TestANameOnlyOnePlatformDefines(t *testing.T) {
	dir := module(t, map[string]string{
		"m.go":       "package m\n\nfunc F() int { return suspend() }\n",
		"m_unix.go":  "//go:build unix\n\npackage m\n\nfunc suspend() int { return 1 }\n",
		"m_other.go": "//go:build !unix && !windows\n\npackage m\n\nfunc suspend() int { return 0 }\n",
	})
	if r := check(t, dir, "linux/amd64"); len(r.Errors) > 0 || r.Own == 0 {
		t.Errorf("linux/amd64: %d of the module's packages checked, errors %q; want them clean", r.Own, r.Errors)
	}
	r := check(t, dir, "windows/amd64")
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "m.go:3") || !strings.Contains(r.Errors[0], "undefined: suspend") {
		t.Errorf("windows/amd64: errors %q; want one, m.go's undefined suspend", r.Errors)
	}
}

// The tests are checked too, in and outside the package, and a function's
// body is read whole in the module's own code.
func TestTestsAndBodiesAreChecked(t *testing.T) {
	dir := module(t, map[string]string{
		"m.go":              "package m\n\nfunc F() { var unused int }\n",
		"m_windows_test.go": "package m\n\nvar _ = G()\n",
		"x_test.go":         "package m_test\n\nimport \"example.com/m\"\n\nvar _ = m.f\n",
	})
	r := check(t, dir, "windows/arm64")
	want := []string{"declared and not used: unused", "undefined: G", "undefined: m.f"}
	for _, w := range want {
		found := false
		for _, e := range r.Errors {
			found = found || strings.Contains(e, w)
		}
		if !found {
			t.Errorf("no error says %q: %q", w, r.Errors)
		}
	}
	if len(r.Errors) != len(want) {
		t.Errorf("%d errors, want %d, each once: %q", len(r.Errors), len(want), r.Errors)
	}
}

// Sizes are the platform's: what fits a 64-bit word overflows a 32-bit one.
func TestSizesAreThePlatforms(t *testing.T) {
	dir := module(t, map[string]string{
		"m.go": "package m\n\nimport \"unsafe\"\n\nvar _ [unsafe.Sizeof(uintptr(0)) - 8]int\n",
	})
	if r := check(t, dir, "linux/amd64"); len(r.Errors) > 0 {
		t.Errorf("linux/amd64: %q; want none", r.Errors)
	}
	if r := check(t, dir, "linux/386"); len(r.Errors) == 0 {
		t.Error("linux/386: a 4-byte uintptr less 8 was taken as an array length")
	}
}

func TestAPlatformIsGOOSSlashGOARCH(t *testing.T) {
	for _, p := range []string{"windows", "windows/", "/amd64", ""} {
		if _, err := Check(context.Background(), t.TempDir(), p, []string{"./..."}); err == nil {
			t.Errorf("%q was taken for a platform", p)
		}
	}
	if _, err := Check(context.Background(), t.TempDir(), "plan10/amd64", []string{"./..."}); err == nil {
		t.Error("an unknown GOOS was checked")
	}
}
