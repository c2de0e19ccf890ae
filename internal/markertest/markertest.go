// Package markertest reads the marker tests' archives: txtar workspaces in
// which markers, @name(arg, ...), say what a test checks and ⁁ marks a
// cursor. The feature tests (internal/features) and the server's tests
// (internal/lsp) write their archives in this one syntax; each runs its own
// set of marker names (their testdata READMEs list them).
//
// The package is test support: only tests import it.
package markertest

import (
	"fmt"
	"strconv"
	"strings"
)

// Cursor marks a cursor: in a workspace file, where a marker's request is
// made (it is removed before the file is loaded); in a pattern, where in
// the pattern's text.
const Cursor = "⁁"

// Marker is one @name(args).
type Marker struct {
	Name string
	Args []string
	File string // the file the marker is in; "" for the archive comment
	Line int    // 1-based line of File (or of the comment)
	// Cursor is the offset, in File with its cursors removed, of the
	// nearest cursor before the marker (on its line or above); -1 if none.
	Cursor int
}

func (m Marker) String() string {
	where := m.File
	if where == "" {
		where = "comment"
	}
	return fmt.Sprintf("%s:%d: @%s(%s)", where, m.Line, m.Name, strings.Join(m.Args, ", "))
}

// File removes the cursors from a workspace file and reads the markers in
// its comments ("#@name(...)" in YAML, "// @name(...)" in a module; several
// may follow each other on a line).
func File(name, data string) (clean string, markers []Marker, err error) {
	var out strings.Builder
	cursor := -1
	for i, line := range strings.SplitAfter(data, "\n") {
		// Cursors first, so that a marker on the same line sees them.
		for {
			j := strings.Index(line, Cursor)
			if j < 0 {
				break
			}
			out.WriteString(line[:j])
			cursor = out.Len()
			line = line[j+len(Cursor):]
		}
		out.WriteString(line)
		c := strings.Index(line, "#@")
		if c < 0 {
			c = strings.Index(line, "// @")
		}
		if c < 0 {
			continue
		}
		ms, err := parse(line[c:])
		if err != nil {
			return "", nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		for _, m := range ms {
			m.File, m.Line, m.Cursor = name, i+1, cursor
			markers = append(markers, m)
		}
	}
	return out.String(), markers, nil
}

// Script reads an archive comment written as a script: one marker a line,
// run in order; blank lines and lines that start with "#" are prose.
func Script(comment string) ([]Marker, error) {
	var out []Marker
	for i, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, "@") {
			return nil, fmt.Errorf("comment:%d: %q is neither a marker (@name(...)) nor prose (# ...)", i+1, line)
		}
		ms, err := parse(line)
		if err != nil {
			return nil, fmt.Errorf("comment:%d: %w", i+1, err)
		}
		if len(ms) != 1 {
			return nil, fmt.Errorf("comment:%d: one marker a line", i+1)
		}
		ms[0].Line, ms[0].Cursor = i+1, -1
		out = append(out, ms[0])
	}
	return out, nil
}

// Pattern finds pattern's first occurrence in text: its start and end (the
// pattern without its cursor) and the cursor's offset (the start when the
// pattern has none).
func Pattern(text, pattern string) (start, end, cursor int, ok bool) {
	plain := strings.Replace(pattern, Cursor, "", 1)
	start = strings.Index(text, plain)
	if start < 0 {
		return 0, 0, 0, false
	}
	cursor = start
	if bar := strings.Index(pattern, Cursor); bar >= 0 {
		cursor = start + bar
	}
	return start, start + len(plain), cursor, true
}

// parse reads every @name(args) of s.
func parse(s string) ([]Marker, error) {
	var out []Marker
	for {
		at := strings.Index(s, "@")
		if at < 0 {
			return out, nil
		}
		s = s[at+1:]
		open := strings.Index(s, "(")
		if open < 0 {
			return out, nil
		}
		m := Marker{Name: s[:open]}
		args, rest, err := parseArgs(s[open+1:])
		if err != nil {
			return nil, fmt.Errorf("bad marker @%s: %w", m.Name, err)
		}
		m.Args = args
		out = append(out, m)
		s = rest
	}
}

// parseArgs reads comma-separated arguments up to the closing parenthesis:
// Go-quoted strings or bare words (no "," or ")").
func parseArgs(s string) ([]string, string, error) {
	var args []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return nil, "", fmt.Errorf("unclosed (")
		}
		if s[0] == ')' {
			return args, s[1:], nil
		}
		var arg string
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, "", fmt.Errorf("bad quoted string: %w", err)
			}
			arg, _ = strconv.Unquote(q)
			s = s[len(q):]
		} else {
			end := strings.IndexAny(s, ",)")
			if end < 0 {
				return nil, "", fmt.Errorf("unclosed (")
			}
			arg = strings.TrimSpace(s[:end])
			s = s[end:]
		}
		args = append(args, arg)
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, ",") {
			s = s[1:]
		}
	}
}
