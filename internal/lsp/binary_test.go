package lsp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// serverBinary builds cmd/beeuni-lsp once per test run.
func serverBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "beeuni-lsp-bin")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "beeuni-lsp")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		out, err := exec.Command(goTool, "build", "-o", binPath, "github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building the server: %v", buildErr)
	}
	return binPath
}

// binarySession runs the built server with args and returns its client
// and a function that waits for the exit code.
func binarySession(t *testing.T, args ...string) (*client, func() int, func()) {
	cmd := exec.Command(serverBinary(t), args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = testLog{t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, stdout, stdin)
	var once sync.Once
	code := -1
	wait := func() int {
		once.Do(func() {
			err := cmd.Wait()
			var exit *exec.ExitError
			switch {
			case err == nil:
				code = 0
			case errors.As(err, &exit):
				code = exit.ExitCode()
			default:
				t.Errorf("waiting for the server: %v", err)
			}
		})
		return code
	}
	t.Cleanup(func() {
		stdin.Close()
		wait()
	})
	return c, wait, func() { stdin.Close() }
}

func TestBinaryProtocol(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "beeuni.yaml")
	text := "tools:\n  Bad: tools/x.ts\n"
	if err := os.WriteFile(manifest, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, wait, _ := binarySession(t)
	if e := c.callErr("textDocument/hover", map[string]any{}); e == nil || e.Code != codeServerNotInitialized {
		t.Errorf("before initialize: %+v", e)
	}
	var init initAnswer
	c.call("initialize", initParams(map[string]any{"capabilities": clientCaps(UTF8)}), &init)
	if init.Capabilities.PositionEncoding != "utf-8" || init.ServerInfo.Name != "beeuni-lsp" {
		t.Errorf("initialize answer %+v", init)
	}
	c.notify("initialized", map[string]any{})

	c.sendRaw(frame(`{"jsonrpc":"2.0","id":1,"method":`))
	c.sendRaw("Content-Length: 10\r\n\r\n" + `{"jsonrpc":"2.0","id":77,"method":"x"}`)
	c.sendRaw(frame(`[{"jsonrpc":"2.0","id":2,"method":"shutdown"}]`))
	c.sendRaw("Content-Length: nope\r\n\r\n")
	if e := c.callErr("beeuni/unknown", nil); e == nil || e.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v", e)
	}
	c.notify("beeuni/unknownNotification", nil)
	nulls := c.answer("null")
	if nulls.Error == nil {
		t.Errorf("malformed messages were not answered with errors")
	}

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(manifest)), "languageId": "yaml", "version": 1, "text": text}})
	note, _ := c.waitNote(0, func(m *wireMsg) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), `"T1"`)
	})
	if !strings.Contains(string(note.Params), `"version":1`) {
		t.Errorf("diagnostics without the document version: %s", note.Params)
	}
	var h map[string]any
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(manifest))}, "position": map[string]any{"line": 99, "character": 99}}, &h)

	if e := c.callErr("shutdown", nil); e != nil {
		t.Fatalf("shutdown: %+v", e)
	}
	if e := c.callErr("textDocument/hover", map[string]any{}); e == nil || e.Code != codeInvalidRequest {
		t.Errorf("after shutdown: %+v", e)
	}
	c.notify("exit", nil)
	if code := wait(); code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
}

func TestBinaryExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		do   func(c *client, closeStdin func())
		want int
	}{
		{"exit without shutdown", nil, func(c *client, _ func()) {
			c.call("initialize", initParams(nil), nil)
			c.notify("exit", nil)
		}, 1},
		{"serve --stdio, shutdown then exit", []string{"serve", "--stdio"}, func(c *client, _ func()) {
			c.call("initialize", initParams(nil), nil)
			c.call("shutdown", nil, nil)
			c.notify("exit", nil)
		}, 0},
		{"stdin closed without exit", nil, func(c *client, closeStdin func()) {
			c.call("initialize", initParams(nil), nil)
			closeStdin()
		}, 1},
		{"stdin closed after shutdown", nil, func(c *client, closeStdin func()) {
			c.call("initialize", initParams(nil), nil)
			c.call("shutdown", nil, nil)
			closeStdin()
		}, 0},
		{"exit before initialize", nil, func(c *client, _ func()) {
			c.notify("exit", nil)
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, wait, closeStdin := binarySession(t, tt.args...)
			tt.do(c, closeStdin)
			if code := wait(); code != tt.want {
				t.Errorf("exit code %d, want %d", code, tt.want)
			}
		})
	}
}
