// Command beeuni-lsp is the language server for beeuni.yaml and a command
// line on the same engine: validate, tools ls, tools eject, version.
//
// Install it with
//
//	go install github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp@latest
//
// or from a release archive (see the README). `beeuni-lsp version` names
// the release, the module version `go install` fetched, or the commit it was
// built from.
//
// The module github.com/beeuni/beeuni-lsp is licensed under the Apache
// License, Version 2.0: see the LICENSE file at the root of the repository.
package main
