// Package jsvalue is the value reader: it reads the values a module
// declares (above all its default export: `description`, `parameters`,
// `execute`) off the syntax tree, without running anything, and places
// each value in the user's text by the tokens of that text. What it cannot
// know statically is a Value of kind VUnknown with the reason, never a
// guess.
//
// A File is one module's declarations (decls.go, decls_exports.go). The
// Reader (reader.go) gives Values (value.go): it follows names to their
// values through the module's bindings, its imports and the exports of the
// relative files it imports (names.go), and evaluates expressions
// (expr.go), object and array literals (literals.go), strings built from
// templates and `+` (strings.go), calls of built-ins (builtins.go),
// instances of the module's classes (classes.go), CommonJS exports
// (commonjs.go), the enums and namespaces TypeScript lowers to functions
// (enums.go), the writes that change an object after it is built
// (writes.go) and the data files a module imports (data.go). Where the tree
// says nothing of extents, the tokens of the user's text do (extent.go).
// ToJSON turns a value into the JSON schema the model is given (json.go).
package jsvalue
