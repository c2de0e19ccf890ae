// Package modfacts holds the facts of a file's content: what one esbuild
// transform and the syntax tree of its output tell (syntax errors and
// warnings, runtime imports, export names, named imports of relative
// modules, what surely runs at load), and their cache. The facts depend on
// the content, the loader and the JSX options only, so a helper shared by
// many modules is parsed once, and a module inspected again after a
// dependency changed is not parsed again (facts.go, factscache.go).
package modfacts
