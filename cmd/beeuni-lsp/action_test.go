package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// asMainEnv makes the test binary run as beeuni-lsp itself (TestMain), so
// that the action's scripts can run the real command line.
const asMainEnv = "BEEUNI_LSP_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// releaseAsset is the release engineer's asset name for one platform:
// beeuni-lsp_<version>_<os>_<arch>.tar.gz (.zip for windows), version
// without the leading v.
func releaseAsset(version, goos, arch string) string {
	ext := "tar.gz"
	if goos == "windows" {
		ext = "zip"
	}
	return fmt.Sprintf("beeuni-lsp_%s_%s_%s.%s", version, goos, arch, ext)
}

// runnerPlatforms are GitHub's RUNNER_OS and RUNNER_ARCH values and the
// release's os and arch for each.
var runnerPlatforms = []struct{ runnerOS, runnerArch, goos, arch string }{
	{"Linux", "X64", "linux", "amd64"},
	{"Linux", "ARM64", "linux", "arm64"},
	{"macOS", "X64", "darwin", "amd64"},
	{"macOS", "ARM64", "darwin", "arm64"},
	{"Windows", "X64", "windows", "amd64"},
	{"Windows", "ARM64", "windows", "arm64"},
}

// fakeRelease lays out <dir>/v<version>/ as a GitHub release of every
// platform: each archive holds the binary (exe's content), LICENSE and
// README.md at its top level; checksums.txt lists them all.
func fakeRelease(t *testing.T, version string, exe []byte) string {
	t.Helper()
	dir := t.TempDir()
	rel := filepath.Join(dir, "v"+version)
	if err := os.MkdirAll(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	for _, p := range runnerPlatforms {
		name := releaseAsset(version, p.goos, p.arch)
		bin := "beeuni-lsp"
		if p.goos == "windows" {
			bin += ".exe"
		}
		files := []struct {
			name string
			data []byte
		}{{bin, exe}, {"LICENSE", []byte("license\n")}, {"README.md", []byte("# beeuni-lsp\n")}}
		var b bytes.Buffer
		if p.goos == "windows" {
			zw := zip.NewWriter(&b)
			for _, f := range files {
				w, err := zw.Create(f.name)
				if err == nil {
					_, err = w.Write(f.data)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
		} else {
			gz := gzip.NewWriter(&b)
			tw := tar.NewWriter(gz)
			for _, f := range files {
				if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.data))}); err != nil {
					t.Fatal(err)
				}
				if _, err := tw.Write(f.data); err != nil {
					t.Fatal(err)
				}
			}
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := gz.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(rel, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b.Bytes())
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	if err := os.WriteFile(filepath.Join(rel, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runScript runs one of the action's scripts with bash and the runner's
// environment; it returns the output, the exit code and the step outputs.
func runScript(t *testing.T, script string, env map[string]string) (out string, code int, outputs map[string]string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is needed to run scripts/%s, as the GitHub runner does: install it (apt-get install bash): %v", script, err)
	}
	outFile := filepath.Join(t.TempDir(), "output")
	path, err := filepath.Abs(filepath.Join("..", "..", "scripts", script))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, path)
	// A job summary of the test's own, never the runner's of a CI run.
	cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+outFile, "GITHUB_STEP_SUMMARY="+filepath.Join(t.TempDir(), "summary"))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if dir, ok := env["PWD"]; ok {
		cmd.Dir = dir
	}
	data, err := cmd.CombinedOutput()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	outputs = map[string]string{}
	if o, err := os.ReadFile(outFile); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(o)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				outputs[k] = v
			}
		}
	}
	return string(data), code, outputs
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed by the action's install step and is not on PATH: install it (scripts/test.sh installs it)", tool)
		}
	}
}

// action.yml is a composite action with the inputs the README documents,
// whose steps run the two scripts and pass the inputs through the
// environment (never spliced into the shell text).
func TestActionDefinition(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Required bool    `yaml:"required"`
			Default  *string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID    string            `yaml:"id"`
				If    string            `yaml:"if"`
				Shell string            `yaml:"shell"`
				Run   string            `yaml:"run"`
				Uses  string            `yaml:"uses"`
				With  map[string]string `yaml:"with"`
				Env   map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" || len(action.Runs.Steps) != 3 {
		t.Fatalf("runs: %+v", action.Runs)
	}
	if in := action.Inputs["version"]; !in.Required || in.Default != nil {
		t.Errorf("input version must be required, with no default: %+v", in)
	}
	for name, def := range map[string]string{"path": "", "format": "github", "args": "", "upload-sarif": "false", "base-url": "https://github.com/beeuni/beeuni-lsp/releases/download"} {
		if in, ok := action.Inputs[name]; !ok || in.Required || in.Default == nil || *in.Default != def {
			t.Errorf("input %s: %+v, want optional with default %q", name, in, def)
		}
	}
	for i, script := range []string{"action-install.sh", "action-validate.sh"} {
		step := action.Runs.Steps[i]
		if step.Shell != "bash" || step.Run != `bash "$GITHUB_ACTION_PATH/scripts/`+script+`"` {
			t.Errorf("step %d runs %q in %q", i, step.Run, step.Shell)
		}
		if _, err := os.Stat(filepath.Join("..", "..", "scripts", script)); err != nil {
			t.Error(err)
		}
	}
	want := map[string]string{
		"BEEUNI_LSP_VERSION": "${{ inputs.version }}", "BEEUNI_LSP_BASE_URL": "${{ inputs.base-url }}",
		"BEEUNI_LSP_BIN": "${{ steps.install.outputs.bin }}", "BEEUNI_LSP_FORMAT": "${{ inputs.format }}",
		"BEEUNI_LSP_PATH": "${{ inputs.path }}", "BEEUNI_LSP_ARGS": "${{ inputs.args }}",
		"BEEUNI_LSP_UPLOAD_SARIF": "${{ inputs.upload-sarif }}",
	}
	for _, step := range action.Runs.Steps {
		for k, v := range step.Env {
			if want[k] != v {
				t.Errorf("step %s: env %s=%s", step.ID, k, v)
			}
			delete(want, k)
		}
	}
	if len(want) != 0 {
		t.Errorf("env not passed to the steps: %v", want)
	}
	// The third step uploads the SARIF file the validate step named, when
	// asked, even after validate failed the step (not after a cancel).
	upload := action.Runs.Steps[2]
	if upload.Uses != "github/codeql-action/upload-sarif@v3" ||
		upload.If != "${{ !cancelled() && inputs.upload-sarif == 'true' && steps.validate.outputs.sarif-file != '' }}" ||
		upload.With["sarif_file"] != "${{ steps.validate.outputs.sarif-file }}" {
		t.Errorf("upload step: %+v", upload)
	}
}

// The install step, run against a local release folder, picks the asset
// of the release's naming for each runner, checks its SHA-256 against
// checksums.txt, and installs the binary on the PATH; a tampered archive
// or a version that is not a release is refused and installs nothing.
func TestActionInstall(t *testing.T) {
	needTools(t, "curl", "tar", "awk")
	release := fakeRelease(t, "1.2.3", []byte("#!/bin/sh\necho fake\n"))
	for _, p := range runnerPlatforms {
		t.Run(p.runnerOS+"-"+p.runnerArch, func(t *testing.T) {
			if p.goos == "windows" {
				needTools(t, "unzip")
			}
			temp := t.TempDir()
			pathFile := filepath.Join(temp, "path")
			out, code, outputs := runScript(t, "action-install.sh", map[string]string{
				"BEEUNI_LSP_VERSION": "v1.2.3", "BEEUNI_LSP_BASE_URL": "file://" + release + "/",
				"RUNNER_OS": p.runnerOS, "RUNNER_ARCH": p.runnerArch, "RUNNER_TEMP": temp, "GITHUB_PATH": pathFile,
			})
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, out)
			}
			exe := "beeuni-lsp"
			if p.goos == "windows" {
				exe += ".exe"
			}
			dest := filepath.Join(temp, "beeuni-lsp-1.2.3-"+p.goos+"-"+p.arch)
			if outputs["bin"] != filepath.Join(dest, exe) {
				t.Errorf("output bin=%q, want %s", outputs["bin"], filepath.Join(dest, exe))
			}
			if got, _ := os.ReadFile(pathFile); string(got) != dest+"\n" {
				t.Errorf("GITHUB_PATH = %q, want %s", got, dest)
			}
			if got, err := os.ReadFile(filepath.Join(dest, exe)); err != nil || string(got) != "#!/bin/sh\necho fake\n" {
				t.Errorf("installed %s: %q, %v", exe, got, err)
			}
		})
	}
	t.Run("tampered archive", func(t *testing.T) {
		tampered := fakeRelease(t, "1.2.3", []byte("x"))
		asset := filepath.Join(tampered, "v1.2.3", releaseAsset("1.2.3", "linux", "amd64"))
		if err := os.WriteFile(asset, []byte("not the release"), 0o644); err != nil {
			t.Fatal(err)
		}
		temp := t.TempDir()
		out, code, outputs := runScript(t, "action-install.sh", map[string]string{
			"BEEUNI_LSP_VERSION": "1.2.3", "BEEUNI_LSP_BASE_URL": "file://" + tampered,
			"RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_TEMP": temp,
		})
		if code == 0 || !strings.Contains(out, "but checksums.txt says") || outputs["bin"] != "" {
			t.Fatalf("exit %d, outputs %v:\n%s", code, outputs, out)
		}
		if entries, _ := os.ReadDir(temp); len(entries) != 0 {
			t.Errorf("installed something: %v", entries)
		}
	})
	for _, bad := range []string{"", "latest", "main", "1.2"} {
		t.Run("version "+bad, func(t *testing.T) {
			out, code, _ := runScript(t, "action-install.sh", map[string]string{
				"BEEUNI_LSP_VERSION": bad, "BEEUNI_LSP_BASE_URL": "file://" + release, "RUNNER_TEMP": t.TempDir(),
			})
			if code == 0 || !strings.Contains(out, "input version must be a release version") {
				t.Fatalf("exit %d:\n%s", code, out)
			}
		})
	}
}

// The validate step runs the installed command line: annotations with
// format github, a SARIF file named in the step output with format sarif,
// validate's exit code, extra flags from args.
func TestActionValidate(t *testing.T) {
	needTools(t, "curl", "tar", "awk")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\n%s=1 exec %q \"$@\"\n", asMainEnv, self)
	release := fakeRelease(t, "1.2.3", []byte(wrapper))
	temp := t.TempDir()
	out, code, outputs := runScript(t, "action-install.sh", map[string]string{
		"BEEUNI_LSP_VERSION": "1.2.3", "BEEUNI_LSP_BASE_URL": "file://" + release,
		"RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_TEMP": temp,
	})
	if code != 0 {
		t.Fatalf("install: exit %d:\n%s", code, out)
	}
	bin := outputs["bin"]
	ws := cliWorkspace(t, "nested")

	out, code, _ = runScript(t, "action-validate.sh", map[string]string{
		"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_FORMAT": "github", "BEEUNI_LSP_PATH": "shop", "PWD": ws,
	})
	if code != 1 || !strings.Contains(out, "::error file=shop/beeuni.yaml,line=3,col=3,endLine=3,endColumn=9,title=T1::") {
		t.Fatalf("github: exit %d:\n%s", code, out)
	}
	out, code, _ = runScript(t, "action-validate.sh", map[string]string{
		"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_FORMAT": "github", "BEEUNI_LSP_ARGS": "--no-inspect  --max-warnings 0", "PWD": filepath.Join(ws, "shop", "tools"),
	})
	if code != 1 || !strings.Contains(out, "::error file=../beeuni.yaml,") || !strings.Contains(out, "more warnings (1) than --max-warnings 0") {
		t.Fatalf("github with args, from a subfolder: exit %d:\n%s", code, out)
	}
	sarifTemp := t.TempDir()
	out, code, outputs = runScript(t, "action-validate.sh", map[string]string{
		"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_FORMAT": "sarif", "BEEUNI_LSP_PATH": "shop/beeuni.yaml", "RUNNER_TEMP": sarifTemp, "PWD": ws,
	})
	file := filepath.Join(sarifTemp, "beeuni-lsp.sarif")
	if code != 1 || outputs["sarif-file"] != file {
		t.Fatalf("sarif: exit %d, outputs %v:\n%s", code, outputs, out)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `"uri": "shop/beeuni.yaml"`) {
		t.Fatalf("the SARIF file: %v\n%s", err, data)
	}
	// upload-sarif with format github: the annotations, and the SARIF
	// file for the upload step.
	uploadTemp := t.TempDir()
	out, code, outputs = runScript(t, "action-validate.sh", map[string]string{
		"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_FORMAT": "github", "BEEUNI_LSP_UPLOAD_SARIF": "true", "BEEUNI_LSP_PATH": "shop",
		"RUNNER_TEMP": uploadTemp, "PWD": ws,
	})
	file = filepath.Join(uploadTemp, "beeuni-lsp.sarif")
	if code != 1 || outputs["sarif-file"] != file || !strings.Contains(out, "::error file=shop/beeuni.yaml,line=3,col=3,") {
		t.Fatalf("github with upload-sarif: exit %d, outputs %v:\n%s", code, outputs, out)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `"uri": "shop/beeuni.yaml"`) {
		t.Fatalf("the SARIF file: %v\n%s", err, data)
	}
	out, code, _ = runScript(t, "action-validate.sh", map[string]string{"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_UPLOAD_SARIF": "yes", "PWD": ws})
	if code != 2 || !strings.Contains(out, "input upload-sarif must be true or false") {
		t.Fatalf("upload-sarif yes: exit %d:\n%s", code, out)
	}
	out, code, _ = runScript(t, "action-validate.sh", map[string]string{"BEEUNI_LSP_BIN": bin, "BEEUNI_LSP_FORMAT": "text", "PWD": ws})
	if code != 2 || !strings.Contains(out, "input format must be github or sarif") {
		t.Fatalf("format text: exit %d:\n%s", code, out)
	}
}
