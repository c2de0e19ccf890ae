//go:build !unix

package vfs

import "os"

// openNoBlock opens path for reading. Systems without O_NONBLOCK rely on the
// type check done before the open.
func openNoBlock(path string) (*os.File, error) {
	return os.Open(path)
}
