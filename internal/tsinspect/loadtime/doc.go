// Package loadtime is the load-time analysis of one file, on its syntax
// tree alone: what surely runs when the file loads (loadwalk.go follows
// the statements of the top level and the functions they surely call),
// and what of it fails in Bun: a name read at load that is declared
// nowhere (globals.go holds the names Bun gives every module), a binding
// read before its declaration ran, a `throw` that surely or maybe runs,
// the require() through createRequire and the reads of files by a literal
// path that run then (loadtime.go). Whether those files exist is the
// inspection's to check; nothing here reads the file system.
package loadtime
