package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// historyLength is about what an hour-long session leaves.
const historyLength = 600

// benchStore writes n sessions with long histories straight to disk.
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	home := b.TempDir()
	s, err := Open(home)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	st := longState(b, "x", historyLength)
	for i := range n {
		st.ID = fmt.Sprintf("20261123-101500-%04d", i)
		data, err := encode(st)
		if err != nil {
			b.Fatal(err)
		}
		dir := filepath.Join(home, "sessions", st.ID)
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, primaryName), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

func BenchmarkList(b *testing.B) {
	s := benchStore(b, 1000)
	for b.Loop() {
		if list, problems := s.List(); len(list) != 1000 || len(problems) != 0 {
			b.Fatal(len(list), problems)
		}
	}
}

// BenchmarkLoadEach is what List would cost if it decoded every session
// in full.
func BenchmarkLoadEach(b *testing.B) {
	s := benchStore(b, 1000)
	for b.Loop() {
		for i := range 1000 {
			if _, _, err := s.Load(fmt.Sprintf("20261123-101500-%04d", i)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSave(b *testing.B) {
	s, _ := openStore(b)
	sess, err := s.Create(newState(b, id))
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	st := longState(b, id, historyLength)
	for b.Loop() {
		if err := sess.Save(st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncode is Save without the disk: marshal and checksum.
func BenchmarkEncode(b *testing.B) {
	st := longState(b, id, historyLength)
	for b.Loop() {
		if _, err := encode(st); err != nil {
			b.Fatal(err)
		}
	}
}
