//go:build unix

// lull installs as people install Go tools: go install
// github.com/lull-dev/lull/cmd/lull@VERSION, with no cgo, from a module
// proxy. The proxy is a folder made from the working tree
// (GOPROXY=file://…), and every dependency comes from the local module
// cache's own download folder: no network. It runs here, beside the
// binary TestMain builds the same way (CGO_ENABLED=0, -trimpath) and
// after it, so the dependencies are compiled once for both.

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

const modulePath = "github.com/lull-dev/lull"

// installVersion is what the proxy serves the working tree as.
const installVersion = "v0.0.1-installtest"

// go install …@version from a proxy of the working tree, into an empty
// GOBIN, with CGO_ENABLED=0: the binary says the version it was installed
// at (read from its build info: no -ldflags), and it is on no PATH but
// its own folder.
//
// It asks lull version, which prints what lull --version prints.
func TestGoInstallFromAModuleProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lull")
	}
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := moduleRoot(t)
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	serve(t, proxy, root)

	modcache := strings.TrimSpace(goEnv(t, goTool, "GOMODCACHE"))
	gobin := filepath.Join(tmp, "bin")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, goTool, "install", "-trimpath", modulePath+"/cmd/lull@"+installVersion)
	install.Dir = tmp // outside the module: go install …@version ignores any go.mod anyway
	install.Env = append(os.Environ(),
		"CGO_ENABLED=0",
		"GOBIN="+gobin,
		// The working tree's module first, then everything else from what
		// this machine has already downloaded; nothing from the network.
		"GOPROXY="+fileURL(proxy)+","+fileURL(filepath.Join(modcache, "cache", "download")),
		// Our module's version exists only here, and no checksum database
		// can be asked: there is no network. The dependencies come from
		// this machine's module cache, checked when they were downloaded.
		"GOSUMDB=off",
		// A private module cache: the real one must not keep this
		// version, made from whatever the working tree held today.
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOTOOLCHAIN=local",
	)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s/cmd/lull@%s: %v\n%s", modulePath, installVersion, err, out)
	}
	t.Cleanup(func() { chmodWritable(filepath.Join(tmp, "modcache")) })

	lull := filepath.Join(gobin, "lull")
	cmd := exec.Command(lull, "version")
	cmd.Env = append(os.Environ(), "LULL_HOME="+filepath.Join(tmp, "home"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("lull version: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "lull "+installVersion+" ") {
		t.Errorf("the installed lull says %q; want it to begin %q", out, "lull "+installVersion+" ")
	}
}

// serve lays out a module proxy at dir serving the module at root as
// version: the list, the .info, the .mod and the .zip, in the layout the
// go command reads (go help goproxy).
func serve(t *testing.T, dir, root string) {
	t.Helper()
	at := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(struct{ Version, Time string }{installVersion, "2026-11-29T00:00:00Z"})
	write(t, filepath.Join(at, "list"), []byte(installVersion+"\n"))
	write(t, filepath.Join(at, installVersion+".info"), info)
	write(t, filepath.Join(at, installVersion+".mod"), mod)

	var files []zip.File
	for _, name := range treeFiles(t, root) {
		files = append(files, diskFile{root: root, name: name})
	}
	var z bytes.Buffer
	if err := zip.Create(&z, module.Version{Path: modulePath, Version: installVersion}, files); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(at, installVersion+".zip"), z.Bytes())
}

// treeFiles are the working tree's files as a commit would take them:
// tracked ones as they are now, and new ones git does not ignore (so no
// built binary and no dist/). Files of nested modules are left to the
// zip package, which refuses them.
func treeFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("the working tree's files need git: %v", err)
	}
	var names []string
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		// A tracked file deleted in the working tree is not in it.
		if info, err := os.Lstat(filepath.Join(root, name)); err == nil && info.Mode().IsRegular() {
			names = append(names, name)
		}
	}
	return names
}

// diskFile is a file of the working tree, for zip.Create.
type diskFile struct{ root, name string }

func (f diskFile) Path() string { return f.name }
func (f diskFile) Lstat() (os.FileInfo, error) {
	return os.Lstat(filepath.Join(f.root, filepath.FromSlash(f.name)))
}
func (f diskFile) Open() (io.ReadCloser, error) {
	return os.Open(filepath.Join(f.root, filepath.FromSlash(f.name)))
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func goEnv(t *testing.T, goTool, name string) string {
	t.Helper()
	out, err := exec.Command(goTool, "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func fileURL(path string) string { return "file://" + filepath.ToSlash(path) }

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// chmodWritable lets t.TempDir remove a module cache, whose files the go
// command makes read-only.
func chmodWritable(dir string) {
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil {
			_ = os.Chmod(path, 0o755)
		}
		return nil
	})
}
