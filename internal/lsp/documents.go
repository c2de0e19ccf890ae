package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/protocol"
)

// document is one version of an open editor buffer. It is immutable: a
// change makes a new document.
type document struct {
	uri     protocol.DocumentURI
	path    string // absolute, cleaned
	version int32
	mapper  *Mapper
}

func (d *document) content() []byte { return d.mapper.Content() }

// applyChanges returns content with changes applied in order, each range
// read in the text the previous changes left (as the protocol says).
func applyChanges(content []byte, enc Encoding, changes []contentChange) []byte {
	return applyChangesWith(NewMapper(content, enc), changes).Content()
}

// applyChangesWith is applyChanges starting from the mapper of the
// current content (a document keeps one), which saves indexing it again;
// it returns the mapper of the new content (see Mapper.Edited: each edit
// makes a copy, so that an earlier document, held by a snapshot or a
// request, never changes).
func applyChangesWith(m *Mapper, changes []contentChange) *Mapper {
	for _, c := range changes {
		if c.Range == nil {
			m = NewMapper([]byte(c.Text), m.Encoding())
			continue
		}
		start, end := m.Offsets(*c.Range)
		m = m.Edited(start, end, c.Text)
	}
	return m
}

// uriToPath returns the absolute file path of a file: URI.
func uriToPath(u protocol.DocumentURI) (string, error) {
	p, err := localPath(u, runtime.GOOS == "windows")
	if err != nil {
		return "", err
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("invalid file URI %q: the path is not absolute", u)
	}
	return filepath.Clean(p), nil
}

// localPath returns the slash path a file: URI names on this machine
// (windows: the server runs on Windows). Only local files are served: an
// empty host or `localhost`. A drive letter is read where clients put it,
// in the path (file:///C:/x) or, malformed, as the host (file://C:/x); on
// Windows both name C:/x, elsewhere the second is refused, since no local
// path has a drive.
func localPath(u protocol.DocumentURI, windows bool) (string, error) {
	parsed, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("invalid URI %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("unsupported URI %q: only file: URIs are served", u)
	}
	p := parsed.Path
	switch host := parsed.Host; {
	case host == "" || strings.EqualFold(host, "localhost"):
		if windows && hasDrive(strings.TrimPrefix(p, "/")) {
			p = strings.TrimPrefix(p, "/")
		}
	case isDrive(host):
		if !windows {
			return "", fmt.Errorf("unsupported URI %q: it names the Windows drive %s, which is no path on this machine: open the file through a local path", u, host)
		}
		p = host + p
	default:
		return "", fmt.Errorf("unsupported URI %q: it names the host %q; only local files (file:///path or file://localhost/path) are served", u, host)
	}
	if windows && !hasDrive(p) {
		return "", fmt.Errorf("invalid file URI %q: no drive letter (file:///C:/...)", u)
	}
	return p, nil
}

// hasDrive reports whether p starts with a drive ("C:").
func hasDrive(p string) bool { return len(p) >= 2 && isDrive(p[:2]) }

// isDrive reports whether s is a drive letter and its colon ("C:").
func isDrive(s string) bool {
	return len(s) == 2 && s[1] == ':' && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}

// pathToURI returns the file: URI of an absolute path.
func pathToURI(p string) protocol.DocumentURI {
	p = filepath.ToSlash(p)
	if runtime.GOOS == "windows" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return protocol.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}
