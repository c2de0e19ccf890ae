//go:build unix

package vfs

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without blocking: O_NONBLOCK makes the
// open of a FIFO with no writer return at once (a regular file ignores the
// flag), and O_NOCTTY keeps a terminal device from becoming the process's
// controlling terminal. The caller checks the file's type before reading.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
