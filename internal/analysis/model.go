// Package analysis is the manifest engine: it loads beeuni.yaml and its
// imports through a vfs.FS, checks every rule of the spec with exact
// positions, and resolves the model the other features need (the tool set a
// session gets, the tools each agent's model sees). It knows nothing of LSP.
package analysis

import (
	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// ManifestName is the root manifest's file name.
const ManifestName = "beeuni.yaml"

// Project is one loaded Beeuni project: a root folder holding beeuni.yaml.
type Project struct {
	Root  string  // absolute folder holding beeuni.yaml
	Files []*File // root manifest first, then imported files in load order
	// Findings holds every finding of the YAML rules (syntax, imports,
	// T1-T10, A1-A3, H1-H2), sorted with diag.Sort. Module inspection (T11)
	// is separate: see InspectModules.
	Findings []diag.Finding
	Model    *Model
	// Unread holds the absolute paths of the imports the files name but
	// could not be read (I4: missing, not a file, unreadable): once a file
	// is there, on disk or as an editor's buffer, the project reads it.
	Unread []string
}

// File is one parsed YAML file of the project (the root or an import).
type File struct {
	Path  string      // absolute
	Rel   string      // repository-relative, slash-separated
	Lines *diag.Lines // the index of the file's content (Content)
	// Doc is the document node, or nil when the file does not parse (the
	// syntax error is then among the project's findings) or is empty.
	Doc *yaml.Node
	// SyntaxError is set when the YAML does not parse.
	SyntaxError *diag.Finding
	// Imported is false for the root manifest.
	Imported bool
	// chunks are the chunk parses of the loader's parse, for ParseEdited;
	// byChunks is set when that parse was made by chunks (one document).
	chunks   *chunkSet
	byChunks bool
	marks    *YAMLMarks    // the parse's conversion of yaml.v3 marks
	tree     *ManifestTree // the parse's typed tree (Tree)
}

// Content returns the file's content. Callers must not modify it.
func (f *File) Content() []byte { return f.Lines.Content() }

// Marks converts the yaml.v3 marks of f's nodes into byte offsets of
// f.Content, as the engine's own ranges do (shared: read-only).
func (f *File) Marks() *YAMLMarks { return f.marks }

// ToolKind is the KIND column of `tools ls`.
type ToolKind int

const (
	KindBeeuni     ToolKind = iota // "beeuni"
	KindOverridden                 // "beeuni (overridden)"
	KindProject                    // "project"
)

// String returns the name `tools ls` prints.
func (k ToolKind) String() string {
	switch k {
	case KindBeeuni:
		return "beeuni"
	case KindOverridden:
		return "beeuni (overridden)"
	case KindProject:
		return "project"
	}
	return "unknown"
}

// Tool is one tool a session gets.
type Tool struct {
	Name   string
	Kind   ToolKind
	Source string // as `tools ls` prints it: "beeuni:<name>" or the module path as written
	// Module is the absolute path of the module file for overridden and
	// project tools whose path is acceptable (T5 passed), else "".
	Module string
	// File is the absolute path of the declaring file; "" for the implicit
	// five Beeuni tools of a project with no tools: key.
	File  string
	Key   Span // the key's place in File
	Value Span // the value's place in File
}

// Span is a place in a file by lines and columns (0-based, columns in bytes
// of the line), without byte offsets: text typed in the lines above that
// adds or removes no line leaves it as it is. The model's tools and agents
// hold Spans, so a tool or an agent whose lines did not change is the same
// value from one load to the next and loads through one Cache share it (a
// keystroke above 10,000 tools makes no new Tool). File.Range gives its
// range with offsets.
type Span struct {
	StartLine, StartCol int
	EndLine, EndCol     int
}

// spanOf is r without its offsets.
func spanOf(r diag.Range) Span {
	return Span{StartLine: r.Start.Line, StartCol: r.Start.Col, EndLine: r.End.Line, EndCol: r.End.Col}
}

// IsZero reports whether s is the zero Span (no place: an implicit tool, an
// agent without tools:).
func (s Span) IsZero() bool { return s == Span{} }

// Range returns s as a range of f's content, offsets included.
func (f *File) Range(s Span) diag.Range {
	return diag.Range{
		Start: diag.Pos{Offset: f.Lines.LineStart(s.StartLine) + s.StartCol, Line: s.StartLine, Col: s.StartCol},
		End:   diag.Pos{Offset: f.Lines.LineStart(s.EndLine) + s.EndCol, Line: s.EndLine, Col: s.EndCol},
	}
}

// Implicit reports whether the tool comes from having no tools: key.
func (t Tool) Implicit() bool { return t.File == "" }

// Model is what a session gets.
type Model struct {
	// ToolsKey is true when the root or any import has a tools: key.
	ToolsKey bool
	// Tools in declaration order (root file first, then imports in order);
	// with no tools: key, the five Beeuni tools in canonical order.
	// Read-only, the slice and the tools it points at: loads through one
	// Cache share the tools that did not change (a renamed tool costs a
	// new slice of pointers, not a copy of every Tool), and the slice's
	// capacity is its length (an append copies).
	Tools []*Tool
	// Removed lists the Beeuni tools not loaded, in canonical order.
	Removed []string
	Agents  []*Agent // read-only, shared as Tools are
}

// Tool returns the tool of that name, if the session gets it.
func (m *Model) Tool(name string) (Tool, bool) {
	for _, t := range m.Tools {
		if t.Name == name {
			return *t, true
		}
	}
	return Tool{}, false
}

// AgentForm is the shape of agents.<name>.tools.
type AgentForm int

const (
	FormAll     AgentForm = iota // omitted, `all`, or a list holding `*`
	FormNone                     // `none`
	FormList                     // a list of names
	FormExclude                  // { exclude: [...] }
	FormLegacy                   // { bash: false, ... }
	FormInvalid                  // A3: any other shape
)

// AgentToolRef is one tool name written in an agent's tools value.
type AgentToolRef struct {
	Name string
	Span Span // the name's place (a list item or a legacy map key)
	// Enabled is the legacy map's boolean; true for list and exclude items.
	Enabled bool
}

// Agent is one entry under agents:.
type Agent struct {
	Name string
	File string // absolute path of the declaring file
	Key  Span   // the agent's name
	// ToolsKey and ToolsValue are the places of `tools` and its value; zero
	// when omitted.
	ToolsKey   Span
	ToolsValue Span
	Form       AgentForm
	Refs       []AgentToolRef
	// Sees is every tool the agent's model sees: the harness tools (catalog
	// order) then the session's tools (declaration order), filtered by Form.
	Sees View
	// Secrets is the agent's `secrets:` (rule_secrets.go).
	Secrets AgentSecrets
}
