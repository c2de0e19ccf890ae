// Package release knows what a release of beeuni-lsp is made of: the
// platforms it is built for, the names of its archives and .vsix files, how
// an archive is written so that two builds of one commit are byte for byte
// the same, and the checks a built dist/ folder must pass.
package release

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

// Platform is an operating system and architecture, as Go names them.
type Platform struct {
	GOOS, GOARCH string
}

// Platforms are the ones a release has an archive for.
func Platforms() []Platform {
	return []Platform{
		{"linux", "amd64"}, {"linux", "arm64"},
		{"darwin", "amd64"}, {"darwin", "arm64"},
		{"windows", "amd64"}, {"windows", "arm64"},
	}
}

func (p Platform) String() string { return p.GOOS + "_" + p.GOARCH }

// Binary is the executable's file name on p.
func (p Platform) Binary() string {
	if p.GOOS == "windows" {
		return "beeuni-lsp.exe"
	}
	return "beeuni-lsp"
}

// ArchiveName is the release asset holding p's binary:
// beeuni-lsp_<version>_<os>_<arch>.tar.gz (.zip for windows), the version
// without a leading "v".
func ArchiveName(version string, p Platform) string {
	ext := ".tar.gz"
	if p.GOOS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("beeuni-lsp_%s_%s_%s%s", version, p.GOOS, p.GOARCH, ext)
}

// SBOMName is the release asset describing the modules linked into the
// binary, in CycloneDX JSON.
func SBOMName(version string) string {
	return fmt.Sprintf("beeuni-lsp_%s.sbom.cdx.json", version)
}

// SchemaName is the release asset holding the JSON Schema of beeuni.yaml
// (schema/beeuni.schema.json). Its name carries no version, so that
// releases/latest/download/beeuni.schema.json is always the newest.
const SchemaName = "beeuni.schema.json"

// ChecksumsName is the file of SHA-256 sums of every other asset, in the
// format of sha256sum.
const ChecksumsName = "checksums.txt"

// MarkerName is the file scripts/release.sh writes into its output folder
// (scripts/release-out.sh) so that its next run empties only a folder it
// made. It is no asset: neither listed in checksums.txt nor published.
const MarkerName = ".beeuni-release"

// VSCodeTarget is a VS Code platform (editors/vscode/targets.json): vsce's
// name for it and the Go platform of the binary its .vsix carries.
type VSCodeTarget struct {
	VSCE   string `json:"vsce"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Binary string `json:"binary"`
}

// Platform is the Go platform of t's binary.
func (t VSCodeTarget) Platform() Platform { return Platform{t.GOOS, t.GOARCH} }

// VSIXName is the .vsix of target t: beeuni-lsp-<target>-<version>.vsix.
func VSIXName(version string, t VSCodeTarget) string {
	return fmt.Sprintf("beeuni-lsp-%s-%s.vsix", t.VSCE, version)
}

// LoadVSCodeTargets reads editors/vscode/targets.json.
func LoadVSCodeTargets(path string) ([]VSCodeTarget, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("VS Code targets: %w", err)
	}
	var targets []VSCodeTarget
	if err := json.Unmarshal(data, &targets); err != nil {
		return nil, fmt.Errorf("VS Code targets: %s: %w", path, err)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("VS Code targets: %s lists none", path)
	}
	for i, t := range targets {
		known := false
		for _, p := range Platforms() {
			known = known || p == t.Platform()
		}
		if !known || t.VSCE == "" || t.Binary != t.Platform().Binary() {
			return nil, fmt.Errorf("VS Code targets: %s: entry %d (%q) needs a platform of the release and its binary name (%s)", path, i+1, t.VSCE, t.Platform().Binary())
		}
	}
	return targets, nil
}

// versionPattern is a release version: semantic versioning without the "v".
var versionPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// CheckVersion reports a version a release cannot carry.
func CheckVersion(v string) error {
	if !versionPattern.MatchString(v) {
		return fmt.Errorf("version %q is not a semantic version without a leading v (e.g. 1.2.3, 0.2.0-snapshot+61c8dcea227d)", v)
	}
	return nil
}
