// Package vfs is the small file-system interface the engine reads through.
// The CLI gives it the disk; the language server lays open editor buffers
// over the disk (Overlay); tests use an in-memory tree (Mem, often built from
// a txtar archive). Paths are absolute, in the operating system's form.
package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// FS is what the engine may do with files: read, stat, list, and resolve
// symbolic links (so that a path leaving the repository through a link is
// caught before it is read). Implementations must be safe for concurrent use.
type FS interface {
	// ReadFile returns the content of a regular file. It refuses anything
	// else (a FIFO, a device, a directory) and files over the size limit
	// with an error that says so, instead of blocking or exhausting memory.
	ReadFile(path string) ([]byte, error)
	// Stat follows symbolic links.
	Stat(path string) (fs.FileInfo, error)
	// ReadDir lists a directory, sorted by name.
	ReadDir(path string) ([]fs.DirEntry, error)
	// EvalSymlinks returns the path with every symbolic link resolved.
	EvalSymlinks(path string) (string, error)
}

// ErrTooLarge is returned (wrapped) by ReadFile for files over the limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is returned (wrapped) by ReadFile for non-regular files.
var ErrNotRegular = errors.New("not a regular file")

// DefaultMaxFileSize is the largest file Disk reads unless told otherwise.
const DefaultMaxFileSize = 64 << 20

// Disk reads the real file system.
type Disk struct {
	// MaxFileSize caps ReadFile; 0 means DefaultMaxFileSize.
	MaxFileSize int64
}

// NewDisk returns a Disk with the default size limit.
func NewDisk() *Disk { return &Disk{} }

func (d *Disk) limit() int64 {
	if d.MaxFileSize > 0 {
		return d.MaxFileSize
	}
	return DefaultMaxFileSize
}

// ReadFile implements FS. It stats before opening, so that a FIFO or a
// device never blocks the caller, and checks the opened file again (the path
// may have been swapped between the two; the open itself never blocks, see
// openNoBlock).
func (d *Disk) ReadFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := d.check(path, info); err != nil {
		return nil, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err = f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if err := d.check(path, info); err != nil {
		return nil, err
	}
	// Read at most limit+1 bytes: the file may have grown since Stat, and
	// some regular files (under /proc) report size 0 and never end. The
	// buffer starts at the size Stat gave (plus room to read the end),
	// so that a large manifest is read without growing it step by step.
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, d.limit()+1)); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	data := buf.Bytes()
	if int64(len(data)) > d.limit() {
		return nil, fmt.Errorf("%s: %w (limit %d)", path, ErrTooLarge, d.limit())
	}
	return data, nil
}

// check refuses what ReadFile must not read: anything but a regular file,
// and files over the limit.
func (d *Disk) check(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kindOf(info.Mode()))
	}
	if info.Size() > d.limit() {
		return fmt.Errorf("%s: %w (%d bytes, limit %d)", path, ErrTooLarge, info.Size(), d.limit())
	}
	return nil
}

// kindOf names a non-regular file type for error messages.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// Stat implements FS.
func (d *Disk) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// ReadDir implements FS.
func (d *Disk) ReadDir(path string) ([]fs.DirEntry, error) { return os.ReadDir(path) }

// EvalSymlinks implements FS.
func (d *Disk) EvalSymlinks(path string) (string, error) { return filepath.EvalSymlinks(path) }

// Within reports whether path is root itself or inside it (both cleaned,
// absolute, and already free of symbolic links where that matters).
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	if rel == "." {
		return true
	}
	return rel != ".." && !startsWithDotDot(rel)
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:2] == ".." && os.IsPathSeparator(rel[2])
}
