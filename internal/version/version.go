// Package version holds the build's version string.
package version

// Version is set at link time with
// -ldflags "-X github.com/beeuni/beeuni-lsp/internal/version.Version=v1.2.3".
// It is a variable only so that the linker can set it; nothing assigns it at
// run time.
var Version = "0.1.0-dev"
