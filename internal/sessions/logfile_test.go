package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The log is moved aside once it passes its size, one old log is kept,
// and a log or old log that is a link is never moved or replaced.
func TestLogIsRotatedAndOnlyLullsOwn(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "lull.log")
	write := func(s string) {
		t.Helper()
		f, err := OpenLog(path, 10)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	read := func(p string) string {
		b, _ := os.ReadFile(p)
		return string(b)
	}
	write("first run\n") // 10 bytes: not past the bound
	write("second\n")
	if got := read(path); got != "first run\nsecond\n" {
		t.Fatalf("the log holds %q", got)
	}
	write("third\n") // the log was 17 bytes: moved aside first
	if read(path) != "third\n" || read(path+".1") != "first run\nsecond\n" {
		t.Fatalf("after rotating: log %q, old %q", read(path), read(path+".1"))
	}
	write(strings.Repeat("x", 20))
	write("fifth\n")
	if read(path) != "fifth\n" || read(path+".1") != "third\n"+strings.Repeat("x", 20) {
		t.Fatalf("after rotating again: log %q, old %q", read(path), read(path+".1"))
	}

	// An old log that is a link: the log is left where it is and grows.
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("not lull's"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + ".1")
	if err := os.Symlink(target, path+".1"); err != nil {
		t.Fatal(err)
	}
	write(strings.Repeat("y", 20))
	write("more\n")
	if read(target) != "not lull's" || !strings.HasSuffix(read(path), "more\n") || !strings.HasPrefix(read(path), "fifth\n") {
		t.Fatalf("with a linked old log: log %q, the link's target %q", read(path), read(target))
	}
}
