//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
)

// serverProcess starts this test binary as `beeuni-lsp serve` (TestMain)
// with stdin as given, stdout a pipe returned for reading, and stderr
// captured. The process is killed at cleanup if it still runs.
func serverProcess(t *testing.T, stdin *os.File) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	cmd.Dir = t.TempDir()
	cmd.Stdin = stdin
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, bufio.NewReader(stdout), &stderr
}

// waitExit waits for cmd, failing the test when it has not exited within a
// minute (a bound for a hung process, not a measure of speed).
func waitExit(t *testing.T, cmd *exec.Cmd) *os.ProcessState {
	t.Helper()
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
		return cmd.ProcessState
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("the server did not exit")
		return nil
	}
}

// readFrame reads one Content-Length frame's body.
func readFrame(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	body, err := jsonrpcframe.Read(r)
	if err != nil {
		t.Fatalf("reading a frame: %v", err)
	}
	return string(body)
}

func frame(body string) string { return string(jsonrpcframe.Append(nil, []byte(body))) }

// fileNonBlocking reads f's O_NONBLOCK flag without changing it (File.Fd
// would make the descriptor blocking).
func fileNonBlocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil || errno != 0 {
		t.Fatalf("fcntl: %v %v", err, errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// An editor (Node's and Neovim's libuv) hands the server one end of a
// socket pair as stdin, and stops it with SIGTERM. The server leaves the
// socket's open file description, which it shares with the editor, in the
// blocking mode it got, and ends on the signal as it does on Ctrl-C:
// returning, not killed by it.
func TestServeLeavesAnInheritedSocketBlockingOnSIGTERM(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	editor, server := os.NewFile(uintptr(fds[0]), "editor-end"), os.NewFile(uintptr(fds[1]), "server-end")
	t.Cleanup(func() { editor.Close(); server.Close() })
	if fileNonBlocking(t, server) {
		t.Fatal("the socket pair starts non-blocking")
	}
	cmd, out, _ := serverProcess(t, server)
	if _, err := io.WriteString(editor, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)); err != nil {
		t.Fatal(err)
	}
	if got := readFrame(t, out); !strings.Contains(got, `"id":1`) || !strings.Contains(got, `"capabilities"`) {
		t.Fatalf("initialize answered %s", got)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	st := waitExit(t, cmd)
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("the server was killed by %v; want it to end on SIGTERM as on Ctrl-C", ws.Signal())
	}
	if fileNonBlocking(t, server) {
		t.Error("the server left its inherited stdin socket non-blocking: the editor's reads and writes on it would fail with EAGAIN")
	}
}

// The notice for a person who started the server from a terminal is not
// printed when stdin is /dev/null (a character device, not a terminal): a
// script or a service manager started it.
func TestServeFromDevNullPrintsNoTerminalNotice(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	cmd, out, stderr := serverProcess(t, devNull)
	go io.Copy(io.Discard, out)
	st := waitExit(t, cmd)
	if code := st.ExitCode(); code != 1 {
		t.Errorf("exit code %d when stdin ends before shutdown, want 1", code)
	}
	if strings.Contains(stderr.String(), terminalNotice) {
		t.Errorf("the terminal notice was printed with stdin /dev/null:\n%s", stderr)
	}
}

// From a working folder reached through a symbolic link, `validate` finds
// the project above the link's target, as git finds .git from there (git
// climbs the physical path, not the shell's $PWD), and names its files
// relative to the physical working folder.
func TestValidateFromASymlinkedWorkingFolderFindsTheProject(t *testing.T) {
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "agents", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "beeuni.yaml"), []byte("tools:\n  web_search: beeuni:web_serch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(filepath.Join(repo, "agents", "sub"), link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "validate")
	cmd.Dir = link
	cmd.Env = append(os.Environ(), asMainEnv+"=1", "PWD="+link)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.HasPrefix(stdout.String(), "../../beeuni.yaml:2:") {
		t.Fatalf("exit %d, want 1 with the finding in ../../beeuni.yaml\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
