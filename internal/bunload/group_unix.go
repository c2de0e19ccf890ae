//go:build unix

package bunload

import (
	"errors"
	"os"
	"syscall"
)

// ownGroup starts the process in a process group of its own, which the
// children it spawns join unless they leave it (setsid, setpgid).
func ownGroup(attr *syscall.SysProcAttr) { attr.Setpgid = true }

// killGroup kills p's process group: p and the children still in it.
func killGroup(p *os.Process) error {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
