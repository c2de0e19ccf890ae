package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckChangelog(t *testing.T) {
	md := []byte("# Changelog\n\n## Unreleased\n\n- new\n\n## 0.2.0\n\n- b\n\n## 0.1.0\n\n- a\n")
	for _, tc := range []struct {
		name    string
		version string
		tags    []string
		want    []string
	}{
		{"every release tagged", "", []string{"v0.1.0", "v0.2.0"}, nil},
		{"a section without its tag", "", []string{"v0.1.0"}, []string{`section "## 0.2.0" names a release that has no tag v0.2.0`}},
		{"no tag at all", "", nil, []string{"no tag v0.2.0", "no tag v0.1.0"}},
		{"the release being built", "0.2.0", []string{"v0.1.0"}, nil},
		{"a release without its section", "0.3.0", []string{"v0.1.0", "v0.2.0"}, []string{`no "## 0.3.0" section`}},
		{"a pre-release needs no section", "0.3.0-rc.1", []string{"v0.1.0", "v0.2.0"}, nil},
	} {
		got := CheckChangelog(md, tc.version, tc.tags)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q", tc.name, got)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) {
				t.Errorf("%s: %q, want %q", tc.name, got[i], tc.want[i])
			}
		}
	}
}

// The repository's changelog names no release that was not tagged.
func TestTheRepositorysChangelog(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(ChangelogPath)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "tag", "-l", "v[0-9]*").Output()
	if err != nil {
		t.Fatalf("git tag: %v (the test reads the repository's tags: run it in a git checkout)", err)
	}
	if problems := CheckChangelog(md, "", strings.Fields(string(out))); len(problems) > 0 {
		t.Error(strings.Join(problems, "\n"))
	}
}
