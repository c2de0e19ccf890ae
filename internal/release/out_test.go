package release

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bash finds bash, which scripts/release.sh and these tests need.
func bash(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is needed to test scripts/release.sh: install it (apt-get install bash): %v", err)
	}
	return path
}

// runOutGuard runs a function of scripts/release-out.sh alone on out, with
// repo as the repository, and returns its exit status and stderr.
func runOutGuard(t *testing.T, function, out, repo string) (int, string) {
	t.Helper()
	lib, err := filepath.Abs("../../scripts/release-out.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash(t), "-euo", "pipefail", "-c", `. "$1"; "$2" "$3" "$4"`, "guard", lib, function, out, repo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// outCases lays out, under root, each kind of folder --out may name and
// says whether release.sh may empty it (the empty want) or the refusal's
// words.
func outCases(t *testing.T, root string) []struct{ name, out, want string } {
	t.Helper()
	write := func(path, data string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	mkdir := func(path string) string {
		t.Helper()
		if err := os.MkdirAll(path, 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(filepath.Join(root, "earlier", MarkerName), "written by scripts/release.sh\n")
	write(filepath.Join(root, "earlier", ChecksumsName), "")
	return []struct{ name, out, want string }{
		{"a new folder", filepath.Join(root, "new"), ""},
		{"an empty folder", mkdir(filepath.Join(root, "empty")), ""},
		{"an earlier output", filepath.Join(root, "earlier"), ""},
		{"a folder inside the repository", filepath.Join(root, "repo", "dist"), ""},
		{"a regular file", write(filepath.Join(root, "notes.txt"), "keep me"), "exists and is no folder"},
		{"a folder of files with a checksums.txt", filepath.Dir(write(filepath.Join(root, "downloads", ChecksumsName), "keep me")), "holds files and no " + MarkerName},
		{"a folder of files", filepath.Dir(write(filepath.Join(root, "photos", "cat.jpg"), "keep me")), "holds files and no " + MarkerName},
		{"the repository", mkdir(filepath.Join(root, "repo")), "would empty the repository"},
		{"a folder above the repository", root, "would empty the repository"},
		{"the root", "/", "would empty the repository"},
	}
}

func TestReleaseOutGuard(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, tt := range outCases(t, root) {
		t.Run(tt.name, func(t *testing.T) {
			status, stderr := runOutGuard(t, "release_out_check", tt.out, repo)
			switch {
			case tt.want == "" && status != 0:
				t.Errorf("refused %s (status %d): %s", tt.out, status, stderr)
			case tt.want != "" && (status != 2 || !strings.Contains(stderr, tt.want)):
				t.Errorf("status %d, stderr %q; want status 2 saying %q", status, stderr, tt.want)
			}
		})
	}
}

func TestReleaseOutReset(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, tt := range outCases(t, root) {
		if tt.out == "/" || tt.out == root || tt.out == repo {
			continue // refused as by release_out_check; never try to empty these
		}
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tt.out)
			status, stderr := runOutGuard(t, "release_out_reset", tt.out, repo)
			if tt.want != "" {
				if status != 2 || !strings.Contains(stderr, tt.want) {
					t.Errorf("status %d, stderr %q; want status 2 saying %q", status, stderr, tt.want)
				}
				if after := snapshot(t, tt.out); after != before {
					t.Errorf("refused, yet %s changed: before %q, after %q", tt.out, before, after)
				}
				return
			}
			if status != 0 {
				t.Fatalf("status %d: %s", status, stderr)
			}
			if got, want := snapshot(t, tt.out), MarkerName+"\n"; got != want {
				t.Errorf("%s holds %q after the reset, want only the marker %q", tt.out, got, want)
			}
		})
	}
}

// TestReleaseScriptRefusesOut runs scripts/release.sh itself on the outs it
// must refuse: it stops before building anything, and the out is intact.
func TestReleaseScriptRefusesOut(t *testing.T) {
	root := t.TempDir()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range outCases(t, root) {
		if tt.want == "" || tt.out == "/" || tt.out == root || strings.HasPrefix(tt.out, filepath.Join(root, "repo")) {
			continue // the folders refused for being the repository are the fake repo's
		}
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tt.out)
			cmd := exec.Command(bash(t), filepath.Join(repo, "scripts", "release.sh"), "--snapshot", "--out", tt.out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("release.sh --out %s: %v, stderr %q; want status 2 saying %q", tt.out, err, stderr.String(), tt.want)
			}
			if after := snapshot(t, tt.out); after != before {
				t.Errorf("%s changed: before %q, after %q", tt.out, before, after)
			}
		})
	}
}

// snapshot describes path: a file's content, or a folder's entries and
// their contents, one a line.
func snapshot(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Stat(path)
	if os.IsNotExist(err) {
		return "(none)"
	}
	if err != nil {
		t.Fatal(err)
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return "file " + string(data)
	}
	des, err := os.ReadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, de := range des {
		b.WriteString(de.Name() + "\n")
	}
	return b.String()
}
