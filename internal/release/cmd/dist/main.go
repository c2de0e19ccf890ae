// Command dist is scripts/release.sh's helper: it lists the platforms of a
// release, writes the archives and checksums.txt reproducibly, and checks a
// built dist/ folder (the packaging test).
//
//	dist platforms
//	dist archives -version V -bins DIR -root REPO -out DIST
//	dist notices -bin BINARY [-js LICENSES_JSON] -out FILE
//	dist sbom-js -js LICENSES_JSON SBOM
//	dist changelog [-version V] -root REPO -tags "v0.1.0 v0.2.0 ..."
//	dist checksums DIST
//	dist check -version V -root REPO [-sbom] [-same OTHER_DIST] DIST
//
// Times come from SOURCE_DATE_EPOCH (the commit's time, in seconds), which
// archives and check need. Binaries are read from DIR/<os>_<arch>/<binary>.
// The license texts of THIRD_PARTY_LICENSES.txt (archives, notices) come
// from the module cache and GOROOT of the go command on PATH, which built
// the binaries; LICENSES_JSON is editors/vscode/dist/licenses.json, the
// JavaScript the extension bundles (editors/vscode/scripts/build.mjs).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/release"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "dist: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("need a command: platforms, archives, checksums or check")
	}
	fl := flag.NewFlagSet("dist "+args[0], flag.ContinueOnError)
	version := fl.String("version", "", "the release version, without the leading v")
	bins := fl.String("bins", "", "the folder of binaries, <os>_<arch>/<binary>")
	root := fl.String("root", ".", "the repository (LICENSE, README.md, editors/vscode/targets.json)")
	out := fl.String("out", "dist", "the folder to write archives into")
	sbom := fl.Bool("sbom", false, "expect the SBOM")
	same := fl.String("same", "", "a second build's dist folder, which must be byte for byte the same")
	bin := fl.String("bin", "", "the binary whose linked modules notices lists")
	js := fl.String("js", "", "editors/vscode/dist/licenses.json: the JavaScript the extension bundles")
	tags := fl.String("tags", "", "the repository's release tags, blank-separated (git tag -l 'v[0-9]*')")
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "platforms":
		for _, p := range release.Platforms() {
			fmt.Fprintf(stdout, "%s %s %s\n", p.GOOS, p.GOARCH, p.Binary())
		}
		return nil
	case "archives":
		mtime, err := sourceDateEpoch()
		if err != nil {
			return err
		}
		return writeArchives(*version, *bins, *root, *out, mtime)
	case "notices":
		return writeNotices(*bin, *js, *out)
	case "sbom-js":
		if fl.NArg() != 1 || *js == "" {
			return errors.New("sbom-js needs -js LICENSES_JSON and the SBOM")
		}
		return addJSToSBOM(fl.Arg(0), *js)
	case "changelog":
		md, err := os.ReadFile(filepath.Join(*root, filepath.FromSlash(release.ChangelogPath)))
		if err != nil {
			return err
		}
		if problems := release.CheckChangelog(md, *version, strings.Fields(*tags)); len(problems) > 0 {
			return errors.New(strings.Join(problems, "\n"))
		}
		return nil
	case "checksums":
		if fl.NArg() != 1 {
			return errors.New("checksums needs the dist folder")
		}
		return release.WriteChecksums(fl.Arg(0))
	case "check":
		if fl.NArg() != 1 {
			return errors.New("check needs the dist folder")
		}
		return check(fl.Arg(0), *version, *root, *sbom, *same, stdout)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func sourceDateEpoch() (time.Time, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	secs, err := strconv.ParseInt(s, 10, 64)
	if err != nil || secs <= 0 {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: set it to the commit's time in seconds (git log -1 --format=%%ct)", s)
	}
	return time.Unix(secs, 0).UTC(), nil
}

// repoFiles reads what every archive holds beside the binary.
func repoFiles(root string) (license, readme []byte, err error) {
	if license, err = os.ReadFile(filepath.Join(root, "LICENSE")); err != nil {
		return nil, nil, err
	}
	if readme, err = os.ReadFile(filepath.Join(root, "README.md")); err != nil {
		return nil, nil, err
	}
	return license, readme, nil
}

func writeArchives(version, bins, root, out string, mtime time.Time) error {
	if err := release.CheckVersion(version); err != nil {
		return err
	}
	license, readme, err := repoFiles(root)
	if err != nil {
		return err
	}
	modCache, goroot, err := goEnv()
	if err != nil {
		return err
	}
	for _, p := range release.Platforms() {
		bin, err := os.ReadFile(filepath.Join(bins, p.String(), p.Binary()))
		if err != nil {
			return fmt.Errorf("binary for %s: %w", p, err)
		}
		notices, err := release.ThirdPartyLicenses(bin, modCache, goroot, nil)
		if err != nil {
			return fmt.Errorf("%s of %s: %w", release.NoticesName, p, err)
		}
		entries := []release.Entry{
			{Name: p.Binary(), Mode: 0o755, Data: bin},
			{Name: "LICENSE", Mode: 0o644, Data: license},
			{Name: release.NoticesName, Mode: 0o644, Data: notices},
			{Name: "README.md", Mode: 0o644, Data: readme},
		}
		name := release.ArchiveName(version, p)
		if err := writeFile(filepath.Join(out, name), name, entries, mtime); err != nil {
			return err
		}
	}
	return nil
}

// goEnv returns the module cache and GOROOT of the go command on PATH.
func goEnv() (modCache, goroot string, err error) {
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOROOT").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env GOMODCACHE GOROOT: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("go env GOMODCACHE GOROOT: %q", out)
	}
	return lines[0], lines[1], nil
}

// writeNotices writes THIRD_PARTY_LICENSES.txt for a binary and, with js,
// the JavaScript bundled beside it (a .vsix).
func writeNotices(bin, js, out string) error {
	if bin == "" || out == "" {
		return errors.New("notices needs -bin BINARY and -out FILE")
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	var pkgs []release.JSPackage
	if js != "" {
		if pkgs, err = release.ReadJSPackages(js); err != nil {
			return err
		}
	}
	modCache, goroot, err := goEnv()
	if err != nil {
		return err
	}
	notices, err := release.ThirdPartyLicenses(data, modCache, goroot, pkgs)
	if err != nil {
		return fmt.Errorf("%s: %w", bin, err)
	}
	return os.WriteFile(out, notices, 0o644)
}

// addJSToSBOM adds the JavaScript bundled into the extension to the SBOM.
func addJSToSBOM(sbom, js string) error {
	pkgs, err := release.ReadJSPackages(js)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(sbom)
	if err != nil {
		return err
	}
	if data, err = release.AddNPMComponents(data, pkgs); err != nil {
		return err
	}
	return os.WriteFile(sbom, data, 0o644)
}

func writeFile(path, name string, entries []release.Entry, mtime time.Time) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := release.WriteArchive(f, name, entries, mtime); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func check(dir, version, root string, sbom bool, same string, stdout io.Writer) error {
	mtime, err := sourceDateEpoch()
	if err != nil {
		return err
	}
	license, readme, err := repoFiles(root)
	if err != nil {
		return err
	}
	targets, err := release.LoadVSCodeTargets(filepath.Join(root, "editors", "vscode", "targets.json"))
	if err != nil {
		return err
	}
	schema, err := os.ReadFile(filepath.Join(root, "schema", release.SchemaName))
	if err != nil {
		return err
	}
	problems := release.CheckDist(dir, release.CheckOptions{
		Version: version, License: license, Readme: readme, ModTime: mtime, VSCodeTargets: targets, SBOM: sbom, Schema: schema,
	})
	if same != "" {
		problems = append(problems, release.SameDist(dir, same)...)
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, "FAIL:", p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d problems in %s", len(problems), dir)
	}
	fmt.Fprintf(stdout, "dist check: %s holds release %s for %d platforms and %d VS Code targets; checksums verify%s\n",
		dir, version, len(release.Platforms()), len(targets), map[bool]string{true: "; the two builds are identical", false: ""}[same != ""])
	return nil
}
