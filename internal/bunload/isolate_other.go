//go:build !linux

package bunload

import "syscall"

// isolate does nothing where network namespaces do not exist.
func isolate(*syscall.SysProcAttr) {}
