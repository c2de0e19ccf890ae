package release

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeBinary is the smallest executable header of p that Go's debug/elf,
// debug/macho and debug/pe read, followed by the version a release links in.
func fakeBinary(t *testing.T, p Platform, version string) []byte {
	t.Helper()
	var b bytes.Buffer
	le := binary.LittleEndian
	switch p.GOOS {
	case "linux":
		machine := map[string]uint16{"amd64": 62, "arm64": 183}[p.GOARCH]
		h := make([]byte, 64)
		copy(h, "\x7fELF\x02\x01\x01")
		le.PutUint16(h[16:], 2) // executable
		le.PutUint16(h[18:], machine)
		le.PutUint32(h[20:], 1)
		le.PutUint16(h[52:], 64)
		le.PutUint16(h[54:], 56)
		le.PutUint16(h[58:], 64)
		b.Write(h)
	case "darwin":
		cpu := map[string]uint32{"amd64": 0x01000007, "arm64": 0x0100000c}[p.GOARCH]
		h := make([]byte, 32)
		le.PutUint32(h[0:], 0xfeedfacf)
		le.PutUint32(h[4:], cpu)
		le.PutUint32(h[12:], 2) // executable
		b.Write(h)
	case "windows":
		machine := map[string]uint16{"amd64": 0x8664, "arm64": 0xaa64}[p.GOARCH]
		h := make([]byte, 0x40+4+20)
		copy(h, "MZ")
		le.PutUint32(h[0x3c:], 0x40)
		copy(h[0x40:], "PE\x00\x00")
		le.PutUint16(h[0x44:], machine)
		le.PutUint16(h[0x44+18:], 0x22) // executable, large addresses
		b.Write(h)
	default:
		t.Fatalf("no fake binary for %s", p)
	}
	b.WriteString("\x00" + version + "\x00")
	return b.Bytes()
}

var (
	fakeLicense = []byte("Apache License\nVersion 2.0, January 2004\n")
	fakeReadme  = []byte("# beeuni-lsp\n")
	// fakeNotices is an archive's THIRD_PARTY_LICENSES.txt (a fake binary
	// has no build information to hold it to); fakeVSIXNotices a .vsix's.
	fakeNotices     = []byte("beeuni-lsp is licensed under the Apache License 2.0 (LICENSE). It includes the software below,\n")
	fakeVSIXNotices = append(append([]byte(nil), fakeNotices...), "\n"+jsSection+"  vscode-languageclient 11.0.0 (MIT)\n"...)
	fakeSchema      = []byte(`{"$schema":"http://json-schema.org/draft-07/schema#"}` + "\n")
	fakeTime        = time.Date(2026, 11, 29, 19, 26, 15, 0, time.UTC)
	fakeTargets     = []VSCodeTarget{
		{"linux-x64", "linux", "amd64", "beeuni-lsp"},
		{"alpine-arm64", "linux", "arm64", "beeuni-lsp"},
		{"darwin-arm64", "darwin", "arm64", "beeuni-lsp"},
		{"win32-arm64", "windows", "arm64", "beeuni-lsp.exe"},
	}
)

const fakeVersion = "0.2.0-snapshot+61c8dcea227d"

func fakeOptions() CheckOptions {
	return CheckOptions{Version: fakeVersion, License: fakeLicense, Readme: fakeReadme, ModTime: fakeTime, VSCodeTargets: fakeTargets, SBOM: true, Schema: fakeSchema}
}

// fakeDist writes a dist folder as scripts/release.sh would (with fake
// binaries), lets edit change it, then writes checksums.txt unless edit
// removed it.
func fakeDist(t *testing.T, edit func(dir string, files map[string][]byte)) string {
	t.Helper()
	files := map[string][]byte{}
	for _, p := range Platforms() {
		name := ArchiveName(fakeVersion, p)
		var b bytes.Buffer
		entries := []Entry{
			{Name: p.Binary(), Mode: 0o755, Data: fakeBinary(t, p, fakeVersion)},
			{Name: "LICENSE", Mode: 0o644, Data: fakeLicense},
			{Name: "README.md", Mode: 0o644, Data: fakeReadme},
			{Name: NoticesName, Mode: 0o644, Data: fakeNotices},
		}
		if err := WriteArchive(&b, name, entries, fakeTime); err != nil {
			t.Fatal(err)
		}
		files[name] = b.Bytes()
	}
	for _, target := range fakeTargets {
		files[VSIXName(fakeVersion, target)] = fakeVSIX(t, target, fakeBinary(t, target.Platform(), fakeVersion), 0o755)
	}
	files[MarkerName] = []byte("written by scripts/release.sh\n")
	files[SchemaName] = fakeSchema
	files[SBOMName(fakeVersion)] = []byte(`{"bomFormat":"CycloneDX","metadata":{"component":{"name":"github.com/beeuni/beeuni-lsp"}},"components":[{"name":"go.yaml.in/yaml/v3"},{"name":"vscode-languageclient","purl":"pkg:npm/vscode-languageclient@11.0.0"}]}`)
	dir := t.TempDir()
	if edit != nil {
		edit(dir, files)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := files["no "+ChecksumsName]; !ok {
		if err := WriteChecksums(dir); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "no "+ChecksumsName))
	return dir
}

// fakePackageJSON is the packed package.json of fakeVSIX: it names an icon
// and a grammar, both packed.
var fakePackageJSON = fmt.Sprintf(`{"name":"beeuni-lsp","version":%q,"main":"./dist/extension.js","icon":"images/icon.png","contributes":{"grammars":[{"path":"./syntaxes/beeuni.tmLanguage.json"}]}}`, fakeVersion)

// fakeVSIX is a .vsix as vsce writes it, for target with bin.
func fakeVSIX(t *testing.T, target VSCodeTarget, bin []byte, mode os.FileMode, extra ...string) []byte {
	t.Helper()
	return fakeVSIXWith(t, target, bin, mode, fakePackageJSON, fakeVSIXNotices, append([]string{"extension/images/icon.png", "extension/syntaxes/beeuni.tmLanguage.json"}, extra...)...)
}

// fakeVSIXWith is fakeVSIX with the given package.json, license texts
// and extra files.
func fakeVSIXWith(t *testing.T, target VSCodeTarget, bin []byte, mode os.FileMode, packageJSON string, notices []byte, extra ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	add := func(name string, mode os.FileMode, data []byte) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: fakeTime}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	add("extension.vsixmanifest", 0o644, []byte(fmt.Sprintf(`<PackageManifest><Metadata><Identity Language="en-US" Id="beeuni-lsp" Version="%s" Publisher="beeuni" TargetPlatform="%s"/></Metadata></PackageManifest>`, fakeVersion, target.VSCE)))
	add("extension/package.json", 0o644, []byte(packageJSON))
	add("extension/dist/extension.js", 0o644, []byte("module.exports = {};"))
	add("extension/bin/"+target.Binary, mode, bin)
	add("extension/"+NoticesName, 0o644, notices)
	for _, name := range extra {
		add(name, 0o644, []byte("x"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
