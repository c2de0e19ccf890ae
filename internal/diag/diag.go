// Package diag holds the position and finding types shared by the engine
// (internal/analysis), the module inspector (internal/tsinspect) and the
// protocol glue (internal/lsp), and Lines, the one line index they all
// convert positions with. Positions are byte based; conversion to
// characters or UTF-16 units happens at the edges, with Lines.
package diag

import "sort"

// Severity follows the LSP numbering so that the server can pass it through.
type Severity int

const (
	Error       Severity = 1
	Warning     Severity = 2
	Information Severity = 3
	Hint        Severity = 4
)

// String returns the name the CLI and its JSON use.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return "unknown"
}

// Pos is a position in a file: a byte offset and its 0-based line and 0-based
// byte column within that line.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// Range is a half-open byte range [Start, End).
type Range struct {
	Start, End Pos
}

// Contains reports whether offset lies in r (end inclusive, as a cursor at
// the end of a word still touches it).
func (r Range) Contains(offset int) bool {
	return r.Start.Offset <= offset && offset <= r.End.Offset
}

// IsZero reports whether r is the zero Range (no position known).
func (r Range) IsZero() bool { return r == Range{} }

// Related points at another place that explains a finding (the other
// declaration of a duplicate name, a step of an import cycle).
type Related struct {
	File    string // absolute path
	Range   Range
	Message string
}

// Finding is one diagnostic produced by a rule.
type Finding struct {
	File     string // absolute path of the file the finding is in
	Range    Range
	Severity Severity
	Code     string // stable rule id: "T1".."T11", "A1".."A4", "H1", "H2", "I1"..., "Y1" (YAML syntax)
	Message  string
	Related  []Related
	// Data carries rule-specific facts that quick fixes need (for example
	// "suggest" for A1, "name" for A2). Keys are documented next to each rule.
	Data map[string]string
}

// Sort orders findings by file, then position, then code, then message.
// The sort is stable: findings equal in all of these keep their order.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(&fs[i], &fs[j]) })
}

// Less reports whether a sorts before b in Sort's order.
func Less(a, b *Finding) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Range.Start.Offset != b.Range.Start.Offset {
		return a.Range.Start.Offset < b.Range.Start.Offset
	}
	if a.Range.End.Offset != b.Range.End.Offset {
		return a.Range.End.Offset < b.Range.End.Offset
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	return a.Message < b.Message
}

// Merge returns, in a new slice, the findings of a and b (each already in
// Sort's order) in the order Sort gives to a followed by b: a finding of a
// comes before an equal one of b.
func Merge(a, b []Finding) []Finding {
	out := make([]Finding, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if Less(&b[0], &a[0]) {
			out = append(out, b[0])
			b = b[1:]
		} else {
			out = append(out, a[0])
			a = a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}
