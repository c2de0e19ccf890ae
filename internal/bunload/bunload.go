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
	"time"
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
// its own where the system allows one (as root). Bun runs in a process group
// of its own (unix), which is killed when ctx ends and once Bun has exited,
// so that a child the module spawned neither outlives the load nor keeps
// Load waiting. Paths in the message are made relative to workspace, and the
// message is cut to its first line.
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
	run := func(isolated bool) ([]byte, []byte, error) {
		return runBun(ctx, bun, workspace, []string{"--no-install", script, module}, []string{
			"PATH=/usr/bin:/bin", "HOME=" + tmp, "TMPDIR=" + tmp, "NO_COLOR=1",
			"BUN_INSTALL_CACHE_DIR=" + filepath.Join(tmp, "cache"), "BUN_RUNTIME_TRANSPILER_CACHE_PATH=0",
		}, isolated)
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

// waitDelay bounds how long Load waits for Bun to exit once ctx has ended
// and its process group was killed (os/exec then kills Bun itself).
const waitDelay = 2 * time.Second

// runBun runs bun with args in dir and env, in a process group of its own
// (and a network namespace of its own when isolated), and returns what it
// wrote. Its output goes to files, not pipes: a child that inherited them
// and outlives Bun cannot keep Wait from returning. When ctx ends, or once
// Bun has exited, the whole group is killed.
func runBun(ctx context.Context, bun, dir string, args, env []string, isolated bool) ([]byte, []byte, error) {
	outputs, err := os.MkdirTemp("", "beeuni-bunload-out-")
	if err != nil {
		return nil, nil, fmt.Errorf("bunload: %w", err)
	}
	defer os.RemoveAll(outputs)
	stdout, err := os.Create(filepath.Join(outputs, "stdout"))
	if err != nil {
		return nil, nil, fmt.Errorf("bunload: %w", err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(outputs, "stderr"))
	if err != nil {
		return nil, nil, fmt.Errorf("bunload: %w", err)
	}
	defer stderr.Close()

	cmd := exec.CommandContext(ctx, bun, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	ownGroup(cmd.SysProcAttr)
	if isolated {
		isolate(cmd.SysProcAttr)
	}
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = waitDelay
	runErr := cmd.Run()
	if runErr != nil && ctx.Err() != nil {
		// Killed because ctx ended: say so rather than "signal: killed".
		runErr = fmt.Errorf("stopped before it finished: %w", ctx.Err())
	}
	if cmd.Process != nil {
		// The children the module left behind, still in Bun's group.
		if err := killGroup(cmd.Process); err != nil && runErr == nil {
			runErr = fmt.Errorf("killing the processes bun left: %w", err)
		}
	}
	out, err := os.ReadFile(stdout.Name())
	if err != nil {
		return nil, nil, fmt.Errorf("bunload: %w", err)
	}
	errOut, err := os.ReadFile(stderr.Name())
	if err != nil {
		return nil, nil, fmt.Errorf("bunload: %w", err)
	}
	return out, errOut, runErr
}
