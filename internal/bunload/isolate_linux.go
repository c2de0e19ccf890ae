package bunload

import "syscall"

// isolated gives the process a network namespace of its own.
func isolated() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
}
