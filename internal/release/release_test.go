package release

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBinaryPlatform(t *testing.T) {
	for _, p := range Platforms() {
		t.Run(p.String(), func(t *testing.T) {
			got, err := BinaryPlatform(fakeBinary(t, p, fakeVersion))
			if err != nil || got != p {
				t.Errorf("BinaryPlatform = %v, %v; want %v", got, err, p)
			}
		})
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := BinaryPlatform(data); err != nil || got.GOOS != "linux" && got.GOOS != "darwin" && got.GOOS != "windows" {
		t.Errorf("the test binary itself: %v, %v", got, err)
	}
	for name, data := range map[string][]byte{
		"text":                   []byte("#!/bin/sh\necho hi\n"),
		"empty":                  nil,
		"a truncated ELF header": []byte("\x7fELF\x02\x01"),
	} {
		if got, err := BinaryPlatform(data); err == nil {
			t.Errorf("%s: BinaryPlatform = %v, want an error", name, got)
		}
	}
}

func TestArchivesAreReproducible(t *testing.T) {
	entries := []Entry{
		{Name: "beeuni-lsp", Mode: 0o755, Data: []byte("binary")},
		{Name: "LICENSE", Mode: 0o644, Data: fakeLicense},
	}
	for _, name := range []string{"a.tar.gz", "a.zip"} {
		t.Run(name, func(t *testing.T) {
			var one, two bytes.Buffer
			if err := WriteArchive(&one, name, entries, fakeTime); err != nil {
				t.Fatal(err)
			}
			if err := WriteArchive(&two, name, entries, fakeTime.In(time.FixedZone("x", 3600))); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(one.Bytes(), two.Bytes()) {
				t.Error("two archives of the same entries differ")
			}
			back, err := ReadArchive(name, one.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if len(back) != len(entries) {
				t.Fatalf("read %d entries, want %d", len(back), len(entries))
			}
			for i, e := range back {
				if e.Name != entries[i].Name || e.Mode != entries[i].Mode || !bytes.Equal(e.Data, entries[i].Data) || !e.ModTime.Equal(fakeTime) {
					t.Errorf("entry %d read back as %s %v %s %q, want %s %v %s", i, e.Name, e.Mode, e.ModTime, e.Data, entries[i].Name, entries[i].Mode, fakeTime)
				}
			}
		})
	}
	if err := WriteArchive(&bytes.Buffer{}, "a.rar", entries, fakeTime); err == nil {
		t.Error("WriteArchive a.rar: want an error")
	}
}

func TestCheckDistAcceptsARelease(t *testing.T) {
	if problems := CheckDist(fakeDist(t, nil), fakeOptions()); len(problems) > 0 {
		t.Errorf("problems in a right dist:\n%s", strings.Join(problems, "\n"))
	}
}

func TestCheckDistFindsEachProblem(t *testing.T) {
	linuxArchive := ArchiveName(fakeVersion, Platform{"linux", "amd64"})
	winArchive := ArchiveName(fakeVersion, Platform{"windows", "arm64"})
	alpine := fakeTargets[1]
	rewrite := func(t *testing.T, files map[string][]byte, name string, entries []Entry, mtime time.Time) {
		var b bytes.Buffer
		if err := WriteArchive(&b, name, entries, mtime); err != nil {
			t.Fatal(err)
		}
		files[name] = b.Bytes()
	}
	linux := func(t *testing.T) []Entry {
		return []Entry{
			{Name: "beeuni-lsp", Mode: 0o755, Data: fakeBinary(t, Platform{"linux", "amd64"}, fakeVersion)},
			{Name: "LICENSE", Mode: 0o644, Data: fakeLicense},
			{Name: "README.md", Mode: 0o644, Data: fakeReadme},
			{Name: NoticesName, Mode: 0o644, Data: fakeNotices},
		}
	}
	tests := []struct {
		name string
		edit func(t *testing.T, dir string, files map[string][]byte)
		want string
	}{
		{"an archive missing", func(t *testing.T, dir string, files map[string][]byte) { delete(files, winArchive) }, winArchive + ": missing"},
		{"the schema missing", func(t *testing.T, dir string, files map[string][]byte) { delete(files, SchemaName) }, SchemaName + ": missing"},
		{"another schema", func(t *testing.T, dir string, files map[string][]byte) {
			files[SchemaName] = []byte(`{"title":"an older one"}`)
		}, SchemaName + ": differs from the repository's schema/beeuni.schema.json"},
		{"a stray file", func(t *testing.T, dir string, files map[string][]byte) {
			files["beeuni-lsp_0.1.0_linux_amd64.tar.gz"] = []byte("old")
		}, "beeuni-lsp_0.1.0_linux_amd64.tar.gz: not an asset"},
		{"an archive that does not open", func(t *testing.T, dir string, files map[string][]byte) { files[linuxArchive] = []byte("not gzip") }, linuxArchive + ": does not open"},
		{"the binary of another architecture", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[0].Data = fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion)
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "beeuni-lsp is built for linux_arm64, want linux_amd64"},
		{"the binary of another OS", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[0].Data = fakeBinary(t, Platform{"darwin", "amd64"}, fakeVersion)
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "beeuni-lsp is built for darwin_amd64, want linux_amd64"},
		{"a binary without the version", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[0].Data = fakeBinary(t, Platform{"linux", "amd64"}, "0.1.0")
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "does not carry version " + fakeVersion},
		{"files in a folder", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			for i := range e {
				e[i].Name = "beeuni-lsp/" + e[i].Name
			}
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "want exactly"},
		{"no README", func(t *testing.T, dir string, files map[string][]byte) {
			rewrite(t, files, linuxArchive, linux(t)[:2], fakeTime)
		}, "want exactly"},
		{"a binary not executable", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[0].Mode = 0o644
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "beeuni-lsp has mode -rw-r--r--, want -rwxr-xr-x"},
		{"the build time", func(t *testing.T, dir string, files map[string][]byte) {
			rewrite(t, files, linuxArchive, linux(t), time.Now())
		}, "want the commit's 2026-11-29T19:26:15Z"},
		{"another license", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[1].Data = []byte("MIT License")
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "LICENSE is not the repository's"},
		{"a .vsix with the binary of another architecture", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, alpine, fakeBinary(t, Platform{"linux", "amd64"}, fakeVersion), 0o755)
		}, "extension/bin/beeuni-lsp is built for linux_amd64, want linux_arm64"},
		{"a .vsix binary not the archive's", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, alpine, append(fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 1), 0o755)
		}, "is not the binary of " + ArchiveName(fakeVersion, Platform{"linux", "arm64"})},
		{"a .vsix binary not executable", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, alpine, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o644)
		}, "not executable"},
		{"a .vsix of another target", func(t *testing.T, dir string, files map[string][]byte) {
			other := alpine
			other.VSCE = "linux-arm64"
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, other, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o755)
		}, "does not name version " + fakeVersion + " and target alpine-arm64"},
		{"a .vsix with sources", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, alpine, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o755, "extension/src/extension.ts", "extension/dist/extension.js.map")
		}, "holds sources, tests or node_modules"},
		{"a .vsix without a file its package.json names", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIXWith(t, alpine, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o755, fakePackageJSON, fakeVSIXNotices, "extension/syntaxes/beeuni.tmLanguage.json")
		}, "extension/package.json names images/icon.png, which is not packed"},
		{"a .vsix with two binaries", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIX(t, alpine, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o755, "extension/bin/beeuni-lsp.exe")
		}, "want exactly extension/bin/beeuni-lsp"},
		{"no SBOM", func(t *testing.T, dir string, files map[string][]byte) { delete(files, SBOMName(fakeVersion)) }, SBOMName(fakeVersion) + ": missing"},
		{"an SBOM of something else", func(t *testing.T, dir string, files map[string][]byte) {
			files[SBOMName(fakeVersion)] = []byte(`{"bomFormat":"SPDX"}`)
		}, "not a CycloneDX SBOM"},
		{"an archive without the license texts of what it bundles", func(t *testing.T, dir string, files map[string][]byte) {
			rewrite(t, files, linuxArchive, linux(t)[:3], fakeTime)
		}, `want exactly ["LICENSE" "README.md" "THIRD_PARTY_LICENSES.txt" "beeuni-lsp"]`},
		{"an archive's license texts naming JavaScript", func(t *testing.T, dir string, files map[string][]byte) {
			e := linux(t)
			e[3].Data = fakeVSIXNotices
			rewrite(t, files, linuxArchive, e, fakeTime)
		}, "names JavaScript the archive does not hold"},
		{"a .vsix without the JavaScript's license texts", func(t *testing.T, dir string, files map[string][]byte) {
			files[VSIXName(fakeVersion, alpine)] = fakeVSIXWith(t, alpine, fakeBinary(t, Platform{"linux", "arm64"}, fakeVersion), 0o755,
				fakePackageJSON, fakeNotices, "extension/images/icon.png", "extension/syntaxes/beeuni.tmLanguage.json")
		}, "lacks the JavaScript bundled into the extension"},
		{"an SBOM without the JavaScript", func(t *testing.T, dir string, files map[string][]byte) {
			files[SBOMName(fakeVersion)] = []byte(`{"bomFormat":"CycloneDX","metadata":{"component":{"name":"github.com/beeuni/beeuni-lsp"}},"components":[{"name":"go.yaml.in/yaml/v3"}]}`)
		}, "does not cover the JavaScript bundled into the extension"},
		{"no marker", func(t *testing.T, dir string, files map[string][]byte) { delete(files, MarkerName) }, MarkerName + ": missing"},
		{"no checksums", func(t *testing.T, dir string, files map[string][]byte) { files["no "+ChecksumsName] = nil }, ChecksumsName + ": missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fakeDist(t, func(dir string, files map[string][]byte) { tt.edit(t, dir, files) })
			problems := CheckDist(dir, fakeOptions())
			found := false
			for _, p := range problems {
				found = found || strings.Contains(p, tt.want)
			}
			if !found {
				t.Errorf("no problem saying %q; got:\n%s", tt.want, strings.Join(problems, "\n"))
			}
		})
	}
}

func TestVerifyChecksums(t *testing.T) {
	tests := []struct {
		name string
		edit func(dir string) error
		want string
	}{
		{"a changed asset", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, SBOMName(fakeVersion)), []byte("{}"), 0o644)
		}, "has SHA-256"},
		{"an asset not listed", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644)
		}, "does not list extra.txt"},
		{"a listed file gone", func(dir string) error {
			return os.Remove(filepath.Join(dir, SBOMName(fakeVersion)))
		}, "no such file"},
		{"a malformed line", func(dir string) error {
			f, err := os.OpenFile(filepath.Join(dir, ChecksumsName), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("abc ../etc/passwd\n")
			return err
		}, "want \"<sha256 in hex>  <file name>\""},
	}
	if problems := VerifyChecksums(fakeDist(t, nil)); len(problems) > 0 {
		t.Errorf("a right checksums.txt: %q", problems)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fakeDist(t, nil)
			if err := tt.edit(dir); err != nil {
				t.Fatal(err)
			}
			problems := VerifyChecksums(dir)
			if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), tt.want) {
				t.Errorf("problems %q, want one saying %q", problems, tt.want)
			}
		})
	}
}

func TestSameDist(t *testing.T) {
	a, b := fakeDist(t, nil), fakeDist(t, nil)
	if problems := SameDist(a, b); len(problems) > 0 {
		t.Errorf("two builds of the same: %q", problems)
	}
	sbom := filepath.Join(b, SBOMName(fakeVersion))
	if err := os.WriteFile(sbom, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, "only-a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(SameDist(a, b), "\n")
	for _, want := range []string{SBOMName(fakeVersion) + ": the two builds differ", "only-a: only in the first build"} {
		if !strings.Contains(got, want) {
			t.Errorf("SameDist = %q, want %q", got, want)
		}
	}
}

func TestNames(t *testing.T) {
	if got := ArchiveName("1.2.3", Platform{"windows", "arm64"}); got != "beeuni-lsp_1.2.3_windows_arm64.zip" {
		t.Errorf("ArchiveName = %s", got)
	}
	if got := ArchiveName("1.2.3", Platform{"darwin", "amd64"}); got != "beeuni-lsp_1.2.3_darwin_amd64.tar.gz" {
		t.Errorf("ArchiveName = %s", got)
	}
	if got := VSIXName("1.2.3", VSCodeTarget{VSCE: "alpine-x64"}); got != "beeuni-lsp-alpine-x64-1.2.3.vsix" {
		t.Errorf("VSIXName = %s", got)
	}
	for v, ok := range map[string]bool{"1.2.3": true, "0.2.0-snapshot+61c8dcea227d.dirty": true, "v1.2.3": false, "1.2": false, "01.2.3": false, "1.2.3 ": false} {
		if err := CheckVersion(v); (err == nil) != ok {
			t.Errorf("CheckVersion(%q) = %v", v, err)
		}
	}
}

func TestTheRepositorysVSCodeTargets(t *testing.T) {
	targets, err := LoadVSCodeTargets(filepath.Join("..", "..", "editors", "vscode", "targets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, t := range targets {
		names = append(names, t.VSCE)
	}
	want := "linux-x64 linux-arm64 alpine-x64 alpine-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64"
	if strings.Join(names, " ") != want {
		t.Errorf("targets %s, want %s", strings.Join(names, " "), want)
	}
	bad := filepath.Join(t.TempDir(), "targets.json")
	os.WriteFile(bad, []byte(`[{"vsce":"win32-x64","goos":"windows","goarch":"amd64","binary":"beeuni-lsp"}]`), 0o644)
	if _, err := LoadVSCodeTargets(bad); err == nil {
		t.Error("a windows target without .exe: want an error")
	}
}
