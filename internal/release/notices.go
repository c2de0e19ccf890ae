package release

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// NoticesName is the file of license texts every archive and .vsix
// carries beside LICENSE: the texts of the Go modules linked into the
// binary (and of Go itself), and in a .vsix those of the JavaScript the
// extension bundles.
const NoticesName = "THIRD_PARTY_LICENSES.txt"

// Module is a Go module linked into a binary.
type Module struct {
	Path, Version string
}

// JSPackage is an npm package bundled into the extension, as
// editors/vscode/scripts/build.mjs lists it in dist/licenses.json.
type JSPackage struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	License string `json:"license"`
	Files   []struct {
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"files"`
}

// ReadJSPackages reads build.mjs's dist/licenses.json.
func ReadJSPackages(path string) ([]JSPackage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pkgs []JSPackage
	if err := json.Unmarshal(data, &pkgs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pkgs, nil
}

// GoModules returns the Go version and the modules (replacements where
// replaced) a Go binary was built with, from its build information, sorted
// by path.
func GoModules(bin []byte) (goVersion string, mods []Module, err error) {
	info, err := buildinfo.Read(bytes.NewReader(bin))
	if err != nil {
		return "", nil, fmt.Errorf("read the build information: %w", err)
	}
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		mods = append(mods, Module{Path: d.Path, Version: d.Version})
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return info.GoVersion, mods, nil
}

// licenseFile matches the names of license files at a module's or
// package's root.
var licenseFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice)`)

// ModuleLicenses returns the license files of a module in the module
// cache, by name, sorted; an error when it has none.
func ModuleLicenses(modCache string, m Module) ([][2]string, error) {
	dir := filepath.Join(modCache, escapeModulePath(m.Path)+"@"+escapeModulePath(m.Version))
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("module %s %s: %w (go mod download fetches it)", m.Path, m.Version, err)
	}
	var files [][2]string
	for _, de := range des {
		if de.Type().IsRegular() && licenseFile.MatchString(de.Name()) {
			text, err := os.ReadFile(filepath.Join(dir, de.Name()))
			if err != nil {
				return nil, err
			}
			files = append(files, [2]string{de.Name(), string(text)})
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("module %s %s has no license file in %s: its license text cannot ship", m.Path, m.Version, dir)
	}
	return files, nil
}

// escapeModulePath is the module cache's spelling of a path or version:
// each upper-case letter as '!' and its lower case.
func escapeModulePath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// jsSection opens the index of the JavaScript packages.
const jsSection = "JavaScript packages bundled into the extension (dist/extension.js):\n"

// goEntry is how the notices name Go itself (its standard library and
// runtime are linked into every binary).
func goEntry(goVersion string) string { return "Go standard library and runtime " + goVersion }

// moduleEntry and jsEntry are how the notices' index names a module and a
// package, one line each.
func moduleEntry(m Module) string   { return m.Path + " " + m.Version }
func jsEntry(p JSPackage) string    { return p.Name + " " + p.Version + " (" + p.License + ")" }
func indexLine(entry string) string { return "  " + entry + "\n" }
func heading(entry, file string) string {
	bar := strings.Repeat("=", 78)
	return fmt.Sprintf("\n%s\n%s: %s\n%s\n\n", bar, entry, file, bar)
}

// ThirdPartyLicenses is NoticesName's content for a binary: an index, then
// each license text under its heading: Go's (goroot's LICENSE), each
// module's from the module cache, then the JavaScript packages' (none for
// an archive).
func ThirdPartyLicenses(bin []byte, modCache, goroot string, js []JSPackage) ([]byte, error) {
	goVersion, mods, err := GoModules(bin)
	if err != nil {
		return nil, err
	}
	goLicense, err := os.ReadFile(filepath.Join(goroot, "LICENSE"))
	if err != nil {
		return nil, fmt.Errorf("Go's license: %w", err)
	}
	var index, texts strings.Builder
	index.WriteString("beeuni-lsp is licensed under the Apache License 2.0 (LICENSE). It includes the software below,\n" +
		"each under its own license, whose text follows its heading.\n\nGo modules linked into the beeuni-lsp binary:\n")
	index.WriteString(indexLine(goEntry(goVersion)))
	texts.WriteString(heading(goEntry(goVersion), "LICENSE") + string(goLicense))
	for _, m := range mods {
		files, err := ModuleLicenses(modCache, m)
		if err != nil {
			return nil, err
		}
		index.WriteString(indexLine(moduleEntry(m)))
		for _, f := range files {
			texts.WriteString(heading(moduleEntry(m), f[0]) + f[1])
		}
	}
	if len(js) > 0 {
		index.WriteString("\n" + jsSection)
		for _, p := range js {
			if len(p.Files) == 0 {
				return nil, fmt.Errorf("npm package %s %s has no license text", p.Name, p.Version)
			}
			index.WriteString(indexLine(jsEntry(p)))
			for _, f := range p.Files {
				texts.WriteString(heading(p.Name+" "+p.Version, f.Name) + f.Text)
			}
		}
	}
	return []byte(index.String() + texts.String()), nil
}

// checkNotices checks a NoticesName against the binary beside it: it
// names Go and every module of the binary's build information (a binary
// without build information, as the tests' fakes, is checked for the
// file alone), and, when js is set, a JavaScript section naming
// vscode-languageclient, the extension's one dependency.
func checkNotices(notices, bin []byte, js bool) []string {
	var problems []string
	text := string(notices)
	if !strings.HasPrefix(text, "beeuni-lsp is licensed under the Apache License 2.0") {
		problems = append(problems, NoticesName+" does not open with its index")
	}
	if goVersion, mods, err := GoModules(bin); err == nil {
		want := append([]string{goEntry(goVersion)}, func() []string {
			var out []string
			for _, m := range mods {
				out = append(out, moduleEntry(m))
			}
			return out
		}()...)
		for _, w := range want {
			if !strings.Contains(text, indexLine(w)) || !strings.Contains(text, "\n"+w+": ") {
				problems = append(problems, fmt.Sprintf("%s lacks the license of %s, which the binary links", NoticesName, w))
			}
		}
	}
	_, jsPart, hasJS := strings.Cut(text, "\n"+jsSection)
	if js && (!hasJS || !strings.Contains("\n"+jsPart, "\n  vscode-languageclient ")) {
		problems = append(problems, NoticesName+" lacks the JavaScript bundled into the extension (vscode-languageclient)")
	}
	if !js && hasJS {
		problems = append(problems, NoticesName+" of an archive names JavaScript the archive does not hold")
	}
	return problems
}
