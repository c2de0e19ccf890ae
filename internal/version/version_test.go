package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuild(t *testing.T) {
	const rev = "61c8dcea227dbc215459123bd4194a1b49b14ee1"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-29T19:26:15Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	build := func(mainVersion string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/beeuni/beeuni-lsp", Version: mainVersion}, Settings: settings}
	}
	tests := []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{"a release sets the version at link time", "1.2.3", build("v0.0.0-20261129192615-61c8dcea227d", vcs("false")), "1.2.3"},
		{"a snapshot release", "0.2.0-snapshot+61c8dcea227d", nil, "0.2.0-snapshot+61c8dcea227d"},
		{"go install @v1.2.3 from the module proxy", "", build("v1.2.3", nil), "1.2.3"},
		{"go install @<commit> from the module proxy", "", build("v0.0.0-20261129192615-61c8dcea227d", nil), "0.0.0-20261129192615-61c8dcea227d"},
		{"go build in a clean checkout of a tag", "", build("v1.2.3", vcs("false")), "1.2.3"},
		{"go build in a checkout between tags", "", build("v1.2.4-0.20261129192615-61c8dcea227d", vcs("false")), "devel 61c8dcea227d 2026-11-29T19:26:15Z"},
		{"go build in a modified checkout", "", build("v0.0.0-20261129192615-61c8dcea227d+dirty", vcs("true")), "devel 61c8dcea227d+dirty 2026-11-29T19:26:15Z"},
		{"go build in a modified checkout of a tag", "", build("v1.2.3+dirty", vcs("true")), "devel 61c8dcea227d+dirty 2026-11-29T19:26:15Z"},
		{"an older toolchain: (devel) and the VCS settings", "", build("(devel)", vcs("false")), "devel 61c8dcea227d 2026-11-29T19:26:15Z"},
		{"-buildvcs=false", "", build("(devel)", nil), "devel"},
		{"no build information", "", nil, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromBuild(tt.linked, tt.info); got != tt.want {
				t.Errorf("FromBuild = %q, want %q", got, tt.want)
			}
		})
	}
}
