//go:build unix

package edit

import (
	"io/fs"
	"syscall"
)

// ownerOf returns who owns a file and how many hard links name it; known
// is false when the system does not say.
func ownerOf(info fs.FileInfo) (o owner, known bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{links: 1}, false
	}
	return owner{uid: int(st.Uid), gid: int(st.Gid), links: uint64(st.Nlink)}, true
}
