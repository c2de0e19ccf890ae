// Package resolve says where an import of a module leads, as Bun resolves
// it: relative files, packages in node_modules (package.json exports,
// module, main), Node's core modules, tsconfig.json paths and baseUrl
// (tsconfig.go), and whether git ignores the node_modules a package comes
// from (gitignore.go). Every read of the file system goes through a
// Tracker (deps.go), which records what the answer depended on, so that a
// cached inspection is reused only while those files are unchanged.
package resolve
