//go:build unix

package audio

import (
	"os/exec"
	"syscall"
)

// killGroup runs the engine in its own process group and stops the whole
// group when the sentence is cancelled: an engine behind a wrapper script
// would otherwise outlive it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
