// Package features implements the editor features of beeuni-lsp as plain
// services over a loaded analysis.Project: completion, hover, go to
// definition, document links, references, rename, document and workspace
// symbols, highlights, folding ranges and inlay hints.
//
// It knows nothing of the Language Server Protocol. Every position it takes
// or returns is a byte offset (or a diag.Range) in a file's current content;
// internal/lsp converts them to UTF-16 or UTF-8 columns.
//
// Positions in YAML come from the parsed nodes of each analysis.File. When a
// file does not parse (File.Doc is nil), the server passes the last project
// that did; completion alone also reads the text the user is typing now,
// line by line, so that it works on a half-written line.
package features
