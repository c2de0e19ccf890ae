// Package jsvalue is the value reader: it reads the values a module
// declares (above all its default export: `description`, `parameters`,
// `execute`) off the syntax tree, without running anything, and places
// each value in the user's text by the tokens of that text. What it cannot
// know statically is a Value of kind VUnknown with the reason, never a
// guess.
//
// A File is one module's declarations (decls.go); the Reader follows
// names to their values through the module's bindings, its imports and the
// exports of the relative files it imports (eval_refs.go), and evaluates
// expressions (evalnode.go), object and array literals (evalobject.go),
// what a careful reader sees beyond literals (eval_values.go), the enums
// and namespaces TypeScript lowers to functions (lowered.go), the writes
// that change an object after it is built (writes.go) and the data files a
// module imports (data.go). ToJSON turns a value into the JSON schema the
// model is given (json.go).
package jsvalue
