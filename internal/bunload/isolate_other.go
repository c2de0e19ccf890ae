//go:build !linux

package bunload

import "syscall"

// isolated is nil where network namespaces do not exist.
func isolated() *syscall.SysProcAttr { return nil }
