//go:build !unix

package audio

import "os/exec"

// killGroup is left to exec's own kill where there are no process groups.
func killGroup(*exec.Cmd) {}
