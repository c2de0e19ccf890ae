package release

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ChangelogPath is the changelog of the extension, the one the .vsix
// carries, relative to the repository.
const ChangelogPath = "editors/vscode/CHANGELOG.md"

// changelogRelease matches a release section's heading, "## 1.2.3".
var changelogRelease = regexp.MustCompile(`(?m)^## v?(\S+)\s*$`)

// CheckChangelog holds the changelog to the releases that exist: changes
// stay under "## Unreleased" until their release is tagged, so that every
// "## X.Y.Z" section names a tag vX.Y.Z of tags, except version, the
// release being built from its tag (empty for a snapshot), which must
// have its section unless it is a pre-release (1.3.0-rc.1).
func CheckChangelog(md []byte, version string, tags []string) []string {
	var problems []string
	seen := false
	for _, m := range changelogRelease.FindAllStringSubmatch(string(md), -1) {
		v := m[1]
		switch {
		case strings.EqualFold(v, "Unreleased"):
		case v == version:
			seen = true
		case !slices.Contains(tags, "v"+v):
			problems = append(problems, fmt.Sprintf("%s: section %q names a release that has no tag v%s: keep its changes under \"## Unreleased\" until the tag exists", ChangelogPath, strings.TrimSpace(m[0]), v))
		}
	}
	if version != "" && !strings.Contains(version, "-") && !seen {
		problems = append(problems, fmt.Sprintf("%s: no \"## %s\" section: move the changes under \"## Unreleased\" into it before tagging v%s", ChangelogPath, version, version))
	}
	return problems
}
