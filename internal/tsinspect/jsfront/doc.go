// Package jsfront is the front end of the module inspection: esbuild's Go
// API transforms a file to JavaScript (its syntax errors and warnings,
// esbuild.go), tdewolff/parse's parser builds the syntax tree with scopes
// of that JavaScript (jstree.go), whose every read of a name is given its
// place in the file's own text through esbuild's source map (jsuses.go,
// sourcemap.go). The tree tells a file's runtime imports and its export
// names (jsfacts.go). The lexer (lex.go) gives the tokens of the user's
// own text, by which the value reader places each value and its extent.
// Nothing here knows about files on disk, modules' resolution or verdicts.
package jsfront
