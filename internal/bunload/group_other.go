//go:build !unix

package bunload

import (
	"errors"
	"os"
	"syscall"
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*syscall.SysProcAttr) {}

// killGroup kills p alone: its children are not known here.
func killGroup(p *os.Process) error {
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
