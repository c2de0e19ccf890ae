// Package protocol holds the protocol-abuse tests of beeuni-lsp: they build
// the real binary, start it as an editor would (stdio), and send it what
// odd or broken clients send — malformed JSON, bad framing, batches,
// requests out of lifecycle order, positions past the end, huge documents,
// NUL bytes and invalid UTF-8 — checking each answer and that the server
// still answers a normal request correctly afterwards. The same harness
// drives the storm test and the check that the server opens no network
// connection and starts no process.
//
// The package has no code of its own outside its tests.
package protocol
