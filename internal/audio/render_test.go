package audio

import (
	"context"
	"errors"
	"io"
	"syscall"
	"testing"
	"time"
)

// fullFile is a file on a disk with room for limit bytes: every write
// past them fails as a full disk does.
type fullFile struct {
	limit, written int
}

func (f *fullFile) Write(b []byte) (int, error) {
	n := min(len(b), f.limit-f.written)
	f.written += n
	if n < len(b) {
		return n, syscall.ENOSPC
	}
	return n, nil
}

func (f *fullFile) Seek(int64, int) (int64, error) { return 0, nil }

// A render whose file fails stops every wait for sound with the error:
// nothing pulls the mix any more, and a silence or a line queued before
// or after must not wait for ever (issue 9: a render onto a full disk sat
// at 0 % CPU for ten minutes).
func TestRenderWriteErrorEndsTheWait(t *testing.T) {
	for _, limit := range []int{0, 100 << 10} {
		p, err := Open(Options{Voice: "none", Soundscape: "brown", Render: &fullFile{limit: limit}})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 2)
		go func() {
			ctx := context.Background()
			done <- p.Rest(ctx, 30*time.Second) // longer than the disk has room for
			done <- p.Rest(ctx, time.Second)    // and one queued after the failure
		}()
		for i := range 2 {
			select {
			case err := <-done:
				var oe *OutputError
				if !errors.As(err, &oe) || !errors.Is(err, syscall.ENOSPC) {
					t.Errorf("room for %d bytes, wait %d: %v; want the full disk's error", limit, i, err)
				}
			case <-time.After(60 * time.Second): // bounds a hang; measures nothing
				t.Fatalf("room for %d bytes: the wait for sound never ended", limit)
			}
		}
		if err := p.Close(); !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("Close: %v; want the full disk's error", err)
		}
	}
}

// A stream that cannot seek (a pipe) gets a header with streamed sizes
// and the whole sound after it; a file gets the real sizes once whole.
func TestRenderHeaderStreamedOrFinished(t *testing.T) {
	for _, seekable := range []bool{false, true} {
		var buf seekBuffer
		var w io.Writer = struct{ io.Writer }{&buf}
		if seekable {
			w = &buf
		}
		p, err := Open(Options{Voice: "none", Soundscape: "none", Render: w})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Rest(context.Background(), 2*time.Second); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		b := buf.b
		mono, rate, err := decodeWAV(b)
		if err != nil || rate != int(Rate) {
			t.Fatalf("seekable %v: %v, %d Hz", seekable, err, rate)
		}
		data := len(b) - 44
		want := uint32(streamedSize)
		if seekable {
			want = uint32(data)
		}
		if got := le32(b[40:]); got != want {
			t.Errorf("seekable %v: data size %#x, want %#x", seekable, got, want)
		}
		if got := le32(b[4:]); got != want+36 {
			t.Errorf("seekable %v: RIFF size %#x, want %#x", seekable, got, want+36)
		}
		if got := Rate.D(len(mono)); got < 2*time.Second {
			t.Errorf("seekable %v: %v of sound, want at least 2 s", seekable, got)
		}
	}
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// seekBuffer is an in-memory file.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if end := s.pos + len(p); end > len(s.b) {
		s.b = append(s.b, make([]byte, end-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		s.pos = int(off)
	case io.SeekEnd:
		s.pos = len(s.b) + int(off)
	default:
		s.pos += int(off)
	}
	return int64(s.pos), nil
}
