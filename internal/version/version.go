// Package version names the build of beeuni-lsp: the version a release set
// at link time, else what the Go toolchain recorded in the binary.
package version

import (
	"runtime/debug"
	"strings"
)

// Linked is set at link time by release builds (scripts/release.sh), without
// the tag's leading "v":
//
//	-ldflags "-X github.com/beeuni/beeuni-lsp/internal/version.Linked=1.2.3"
//
// It is a variable only so that the linker can set it; nothing assigns it at
// run time. Empty in any other build.
var Linked string

// String is the version of the running binary, as `beeuni-lsp version` and
// the server's serverInfo.version show it.
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return FromBuild(Linked, info)
}

// FromBuild names a build, most precise first:
//
//   - the version set at link time (a release), as it is;
//   - the module version of `go install github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp@v1.2.3`
//     or of a build from a clean checkout of a tag: "1.2.3";
//   - the commit of a build from a checkout, short, with "+dirty" when the
//     work tree had changes, and its time: "devel 61c8dcea227d+dirty 2026-11-29T19:26:15Z";
//   - the pseudo-version of `go install ...@<commit>`: "0.0.0-20261129192615-61c8dcea227d";
//   - "devel" when the toolchain recorded nothing (go run, go test,
//     -buildvcs=false, a git worktree).
func FromBuild(linked string, info *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if info == nil {
		return "devel"
	}
	var revision, vcsTime string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			vcsTime = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	short := revision
	if len(short) > 12 {
		short = short[:12]
	}
	if main := info.Main.Version; main != "" && main != "(devel)" {
		// A pseudo-version embeds the commit's 12-digit prefix; a tag does
		// not. From a checkout, prefer the commit and its time to a
		// pseudo-version, and never name a tag for a modified tree.
		if revision == "" || (!modified && !strings.Contains(main, short)) {
			return strings.TrimPrefix(main, "v")
		}
	}
	if revision == "" {
		return "devel"
	}
	v := "devel " + short
	if modified {
		v += "+dirty"
	}
	if vcsTime != "" {
		v += " " + vcsTime
	}
	return v
}
