// Package beeunitools holds the TypeScript sources of the five Beeuni tools,
// embedded in the binary, so that `beeuni-lsp tools eject` and the editor's
// eject action can give a project its own copy without reaching the Beeuni
// API. Each source imports only node:* modules, reads BEEUNI_API_URL,
// BEEUNI_TOKEN and provider keys from context.env, passes context.signal on,
// and exports { description, parameters, execute(args, context) }.
package beeunitools

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
)

// Version names this set of sources. Bump it whenever a source changes, so
// that an ejected copy can be traced to the release it came from.
const Version = "2026.11.1"

// names lists the Beeuni tools in the page's canonical order.
var names = [...]string{"web_search", "image_search", "scrape_webpage", "memory", "show"}

//go:embed tools/*.ts
var sources embed.FS

// Names returns the five Beeuni tool names in canonical order (a fresh slice).
func Names() []string { return append([]string(nil), names[:]...) }

// Source returns the TypeScript source of a Beeuni tool, as it is written to
// tools/<name>.ts on eject; ok is false for a name that is not a Beeuni tool.
func Source(name string) (src []byte, ok bool) {
	if !isName(name) {
		return nil, false
	}
	data, err := sources.ReadFile("tools/" + name + ".ts")
	if err != nil {
		// The embed pattern and names are kept in step by the package test;
		// a missing file here is a build mistake, not user input.
		panic("beeunitools: source of " + name + " is not embedded: " + err.Error())
	}
	return data, true
}

// Digest returns the SHA-256 of a tool's source in hex, or "" for an unknown
// name. Return-to-beeuni uses it to tell an untouched copy from an edited one.
func Digest(name string) string {
	src, ok := Source(name)
	if !ok {
		return ""
	}
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

func isName(name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
