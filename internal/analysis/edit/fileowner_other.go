//go:build !unix

package edit

import "io/fs"

// ownerOf returns who owns a file and how many hard links name it; off
// Unix there is no owner to keep and links are not counted.
func ownerOf(fs.FileInfo) (o owner, known bool) { return owner{links: 1}, false }
