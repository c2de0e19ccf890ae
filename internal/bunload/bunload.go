// Package bunload loads a tool module in Bun the way the sandbox daemon
// does: a fresh `bun --no-install` process imports the module, reads its
// default export and checks that it is a plain object whose `parameters` is
// an object schema; `execute` is never called (load.mjs). It is the oracle
// module inspection is held to (internal/tsinspect's Bun tests) and what
// `beeuni-lsp validate --runtime bun` runs. The language server never uses
// it: it runs module code.
package bunload

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

//go:embed load.mjs
var loader []byte

// Verdict is what loading a module in Bun told.
type Verdict struct {
	Loads bool `json:"loads"`
	// Class sorts a failure: syntax, resolve, export, runtime, default or
	// parameters (load.mjs says which is which).
	Class       string  `json:"class,omitempty"`
	Message     string  `json:"message,omitempty"`
	Description *string `json:"description,omitempty"` // when a string
	Parameters  *string `json:"parameters,omitempty"`  // JSON.stringify(parameters)
}

// String is "loads" or "fails CLASS: MESSAGE".
func (v Verdict) String() string {
	if v.Loads {
		return "loads"
	}
	return fmt.Sprintf("fails %s: %s", v.Class, v.Message)
}

// Load loads module (absolute, inside workspace) with the bun binary, in
// workspace as the working folder, with an empty environment but PATH and
// HOME (a temporary folder), no package installs, and a network namespace of
// its own where the system allows one (as root). Paths in the message are
// made relative to workspace, and the message is cut to its first line.
func Load(ctx context.Context, bun, workspace, module string) (Verdict, error) {
	tmp, err := os.MkdirTemp("", "beeuni-bunload-")
	if err != nil {
		return Verdict{}, fmt.Errorf("bunload: %w", err)
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "load.mjs")
	if err := os.WriteFile(script, loader, 0o644); err != nil {
		return Verdict{}, fmt.Errorf("bunload: %w", err)
	}
	run := func(isolate bool) ([]byte, []byte, error) {
		cmd := exec.CommandContext(ctx, bun, "--no-install", script, module)
		cmd.Dir = workspace
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMPDIR=" + tmp, "NO_COLOR=1",
			"BUN_INSTALL_CACHE_DIR=" + filepath.Join(tmp, "cache"), "BUN_RUNTIME_TRANSPILER_CACHE_PATH=0"}
		if isolate {
			cmd.SysProcAttr = isolated()
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.Bytes(), stderr.Bytes(), err
	}
	stdout, stderr, err := run(true)
	if errors.Is(err, syscall.EPERM) {
		stdout, stderr, err = run(false)
	}
	if err != nil {
		return Verdict{}, fmt.Errorf("bunload: bun on %s: %w: %s", module, err, strings.TrimSpace(string(stderr)))
	}
	line := bytes.TrimSpace(stdout)
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:] // the module may print at load
	}
	var v Verdict
	if err := json.Unmarshal(line, &v); err != nil {
		return Verdict{}, fmt.Errorf("bunload: bun on %s printed %q: %w", module, stdout, err)
	}
	v.Message = strings.ReplaceAll(v.Message, filepath.Clean(workspace)+string(filepath.Separator), "")
	if i := strings.IndexByte(v.Message, '\n'); i >= 0 {
		v.Message = v.Message[:i]
	}
	v.Message = strings.TrimSuffix(v.Message, ".")
	return v, nil
}
