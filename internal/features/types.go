package features

import "github.com/beeuni/beeuni-lsp/internal/diag"

// TextEdit replaces the bytes [Start, End) of File with NewText. Offsets are
// in the file's current content.
type TextEdit struct {
	File    string
	Start   int
	End     int
	NewText string
}

// Location is a range in a file. For a file the project did not load (a
// module, a file that does not parse), Range holds byte offsets with their
// line and byte column in that file's content.
type Location struct {
	File  string
	Range diag.Range
}

// ItemKind says what a completion item is; internal/lsp maps it to the
// protocol's CompletionItemKind.
type ItemKind int

const (
	ItemBeeuniTool  ItemKind = iota + 1 // a Beeuni tool (web_search, ...)
	ItemProjectTool                     // a tool the project declares
	ItemHarnessTool                     // a tool of the harness (bash, read, ...)
	ItemModule                          // a tool module file (.ts, .js, ...)
	ItemYAMLFile                        // a YAML file to import
	ItemKeyword                         // all, none, exclude, *, false, true
	ItemKey                             // a manifest key (tools, agents, imports)
)

// String names the kind for tests and logs.
func (k ItemKind) String() string {
	switch k {
	case ItemBeeuniTool:
		return "beeuni-tool"
	case ItemProjectTool:
		return "project-tool"
	case ItemHarnessTool:
		return "harness-tool"
	case ItemModule:
		return "module"
	case ItemYAMLFile:
		return "yaml-file"
	case ItemKeyword:
		return "keyword"
	case ItemKey:
		return "key"
	}
	return "unknown"
}

// CompletionItem is one proposal. Edit replaces exactly the word being typed
// (the run of name characters around the cursor) with the item's text.
type CompletionItem struct {
	Label         string
	Detail        string
	Documentation string // markdown
	Kind          ItemKind
	// FilterText is what the client should match against the typed word;
	// empty means Label.
	FilterText string
	InsertText string
	Edit       TextEdit
	SortText   string // items are returned in this order
}

// HoverInfo is the markdown shown for the word under the cursor, and that word's
// range.
type HoverInfo struct {
	Markdown string
	Range    diag.Range
	// Agent names the agent whose tools the hover lists (on its name, its
	// tools key or value): the server adds what its model gets.
	Agent string
}

// SymbolKind says what an outline entry is; internal/lsp maps it to the
// protocol's SymbolKind.
type SymbolKind int

const (
	SymbolSection SymbolKind = iota + 1 // the top-level tools:, agents:, imports: keys
	SymbolTool                          // an entry under tools:
	SymbolAgent                         // an entry under agents:
	SymbolImport                        // an entry under imports:
)

// String names the kind for tests and logs.
func (k SymbolKind) String() string {
	switch k {
	case SymbolSection:
		return "section"
	case SymbolTool:
		return "tool"
	case SymbolAgent:
		return "agent"
	case SymbolImport:
		return "import"
	}
	return "unknown"
}

// Symbol is an entry of the document outline or a workspace symbol.
type Symbol struct {
	Name   string
	Detail string
	Kind   SymbolKind
	File   string
	// Range covers the whole entry (key and value); Selection is the name.
	Range     diag.Range
	Selection diag.Range
	Children  []Symbol
	// Container names the enclosing section for workspace symbols
	// ("tools", "agents", "imports"), with the file's repository-relative
	// path: "tools in beeuni.yaml".
	Container string
}

// Highlight is one mention of a tool in a file. Write is true for its
// declaration (the key under tools:).
type Highlight struct {
	Range diag.Range
	Write bool
}

// FoldingRange spans whole lines (0-based, inclusive).
type FoldingRange struct {
	StartLine int
	EndLine   int
}

// DocumentLink is a path in the file and the file it points to.
type DocumentLink struct {
	Range  diag.Range
	Target string // absolute path
}

// InlayHint is a short label shown at Offset (between two characters).
type InlayHint struct {
	Offset  int
	Pos     diag.Pos
	Label   string
	Tooltip string // markdown, may be empty
	// PaddingLeft asks for a space before the label.
	PaddingLeft bool
}
