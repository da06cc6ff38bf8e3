package sessions

import (
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// links is how many names path's file has.
func links(t *testing.T, path string) uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &d); err != nil {
		t.Fatal(err)
	}
	return uint64(d.NumberOfLinks)
}

// mkfifo skips: Windows has no named pipes in folders.
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("Windows has no named pipes in folders")
}
