package bunload

import "syscall"

// isolate gives the process a network namespace of its own.
func isolate(attr *syscall.SysProcAttr) { attr.Cloneflags |= syscall.CLONE_NEWNET }
