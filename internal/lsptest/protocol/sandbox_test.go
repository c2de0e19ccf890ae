package protocol

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNoNetworkNoProcessNoWriteOutside runs the real server under strace
// (every thread, every child) through a session that exercises every
// feature on a workspace with tool modules and a node_modules, eject
// included, then reads the trace: the server made no network call at all,
// executed nothing (the only execve is strace starting it; every clone is
// a thread of the server), and wrote, renamed, deleted or created nothing
// outside the workspace.
//
// strace must be installed (Debian: apt-get install strace).
func TestNoNetworkNoProcessNoWriteOutside(t *testing.T) {
	stracePath, err := exec.LookPath("strace")
	if err != nil {
		t.Fatalf("strace is needed for this test (apt-get install strace): %v", err)
	}
	root := writeWorkspace(t, map[string]string{
		"beeuni.yaml": `imports: [more.yaml]
tools:
  web_search: beeuni:web_search
  lookup_order: tools/lookup_order.ts
  weather: tools/weather.mjs
  missing: tools/missing.ts
agents:
  beeuni:
    tools: [bash, web_search, lookup_order, web_serch]
`,
		"more.yaml":                       "tools:\n  memory: beeuni:memory\n",
		"tools/lookup_order.ts":           "import { z } from 'zod'\nimport { readFile } from 'node:fs/promises'\nexport default { description: 'Look up an order.', parameters: z.toJSONSchema(z.object({ id: z.string() })), async execute(args) { return readFile(args.id) } }\n",
		"tools/weather.mjs":               "import 'left-pad'\nexport default { description: 'Weather.', parameters: { type: 'object', properties: {} }, execute() { return fetch('https://example.invalid') } }\n",
		"node_modules/zod/package.json":   `{"name": "zod", "main": "index.js"}`,
		"node_modules/zod/index.js":       "export const z = {}\n",
		"harnesses/opencode/tools/x.ts":   "export default {}\n",
		"harnesses/opencode/package.json": `{"scripts": {"postinstall": "touch /tmp/pwned"}}`,
	})
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(stracePath, "-f", "-qq", "-s", "256", "-o", trace,
		"-e", "trace=%network,%process,%file", serverBinary, "serve")
	s := &session{client: startCommand(t, cmd, root), root: root, manifest: filepath.Join(root, "beeuni.yaml")}
	s.initialize()
	s.openSentinelWith(mustRead(t, s.manifest))
	uri := fileURI(s.manifest)
	for _, pos := range [][2]int{{2, 4}, {3, 20}, {8, 20}, {1, 3}} {
		at := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": pos[0], "character": pos[1]}}
		for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references", "textDocument/documentHighlight"} {
			s.call(method, at)
		}
	}
	for _, method := range []string{"textDocument/documentSymbol", "textDocument/documentLink", "textDocument/foldingRange", "textDocument/inlayHint", "textDocument/codeLens"} {
		s.call(method, map[string]any{"textDocument": map[string]any{"uri": uri}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 20, "character": 0}}})
	}
	s.call("workspace/symbol", map[string]any{"query": ""})
	s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 20, "character": 0}},
		"context": map[string]any{"diagnostics": []any{}}})
	s.call("workspace/executeCommand", map[string]any{"command": "beeuni.sessionTools", "arguments": []any{map[string]any{"uri": uri}}})
	// The client says it applied the manifest edit: only then does the
	// server write the module.
	s.acceptEdits.Store(true)
	s.call("workspace/executeCommand", map[string]any{"command": "beeuni.eject", "arguments": []any{map[string]any{"uri": uri, "name": "image_search", "force": false}}})
	s.checkAlive()
	s.call("shutdown", nil)
	s.notify("exit", nil)
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	violations, writes, err := checkTrace(trace, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Error(v)
	}
	// The eject wrote the module once the client applied the manifest
	// edit: the trace must show that write, proving it sees writes.
	ejected := filepath.Join(root, "tools", "image_search.ts")
	if !slices.ContainsFunc(writes, func(w string) bool { return strings.Contains(w, ejected) }) {
		t.Errorf("the trace shows no write of %s; writes seen:\n%s", ejected, strings.Join(writes, "\n"))
	}
	if os.Getenv("BEEUNI_KEEP_TRACE") != "" {
		data, _ := os.ReadFile(trace)
		_ = os.WriteFile(os.Getenv("BEEUNI_KEEP_TRACE"), data, 0o644)
	}
}

func (s *session) openSentinelWith(text string) {
	s.t.Helper()
	s.version = 1
	s.sent = []int{1}
	from := s.notificationCount()
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(s.manifest), "languageId": "yaml", "version": s.version, "text": text,
	}})
	s.waitDiagnostics(from, s.manifest, s.version, func(ds []diagnostic) bool { return len(ds) > 0 })
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var (
	traceLine  = regexp.MustCompile(`^(\d+)\s+([a-z0-9_]+)\((.*)$`)
	quotedPath = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// checkTrace reads an strace -f output and returns every forbidden call
// (network, a process started, a write outside root) and every writing
// call it saw.
func checkTrace(trace, root string) (violations, writes []string, err error) {
	f, err := os.Open(trace)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	execs, lines := 0, 0
	bad := func(why, line string) { violations = append(violations, why+": "+line) }
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines++
		line := sc.Text()
		m := traceLine.FindStringSubmatch(line)
		if m == nil {
			continue // "+++ exited", "--- SIGURG", resumed calls
		}
		call, args := m[2], m[3]
		switch call {
		case "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg", "sendmmsg",
			"recvfrom", "recvmsg", "recvmmsg", "getsockopt", "setsockopt", "getsockname", "getpeername", "shutdown":
			bad("a network call", line)
		case "execve", "execveat":
			execs++
			if execs > 1 || !strings.Contains(args, serverBinary) {
				bad("the server executed something", line)
			}
		case "fork", "vfork":
			bad("the server started a process", line)
		case "clone", "clone3":
			if !strings.Contains(args, "CLONE_THREAD") {
				bad("the server started a process", line)
			}
		case "open", "openat", "openat2", "creat":
			if call == "creat" || strings.Contains(args, "O_WRONLY") || strings.Contains(args, "O_RDWR") || strings.Contains(args, "O_CREAT") || strings.Contains(args, "O_TRUNC") {
				writes = append(writes, line)
				if !pathsInside(args, root, realRoot) {
					bad("a write outside the workspace", line)
				}
			}
		case "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "symlink", "symlinkat",
			"link", "linkat", "chmod", "fchmodat", "chown", "fchownat", "lchown", "truncate", "utimensat", "mknod", "mknodat":
			writes = append(writes, line)
			if !pathsInside(args, root, realRoot) {
				bad("a write outside the workspace", line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if execs != 1 || lines < 20 {
		bad("strace did not trace the server", "the trace holds "+strconv.Itoa(execs)+" execve calls in "+strconv.Itoa(lines)+" lines")
	}
	return violations, writes, nil
}

// pathsInside reports whether every quoted path in a call's arguments is
// absolute and inside the workspace.
func pathsInside(args, root, realRoot string) bool {
	for _, q := range quotedPath.FindAllStringSubmatch(args, -1) {
		p := q[1]
		if !filepath.IsAbs(p) || !strings.HasPrefix(p+"/", root+"/") && !strings.HasPrefix(p+"/", realRoot+"/") {
			return false
		}
	}
	return true
}

// TestCheckTraceCatchesViolations feeds checkTrace a trace holding each
// forbidden call, so that the test above cannot pass by missing them.
func TestCheckTraceCatchesViolations(t *testing.T) {
	root := "/work/ws"
	lines := []string{
		`100 execve("` + serverBinary + `", ["beeuni-lsp", "serve"], 0x7ffd /* 30 vars */) = 0`,
		`100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS, child_tid=0x1, parent_tid=0x1, exit_signal=0, stack=0x1, stack_size=0x8000, tls=0x1} => {parent_tid=[101]}, 88) = 101`,
		`101 openat(AT_FDCWD, "/work/ws/beeuni.yaml", O_RDONLY|O_CLOEXEC) = 3`,
		`101 openat(AT_FDCWD, "/work/ws/tools/.tmp", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 5`,
		`101 renameat(AT_FDCWD, "/work/ws/tools/.tmp", AT_FDCWD, "/work/ws/tools/x.ts") = 0`,
	}
	for range 20 {
		lines = append(lines, `101 newfstatat(AT_FDCWD, "/work/ws", {st_mode=S_IFDIR|0755, st_size=4096, ...}, 0) = 0`)
	}
	forbidden := []string{
		`101 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = 7`,
		`101 connect(7, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}, 16) = -1 EINPROGRESS`,
		`101 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 102`,
		`102 execve("/bin/sh", ["sh", "-c", "npm install"], 0x1 /* 30 vars */) = 0`,
		`101 vfork() = 103`,
		`101 openat(AT_FDCWD, "/home/user/.bashrc", O_WRONLY|O_APPEND) = 8`,
		`101 openat(AT_FDCWD, "/work/ws/../elsewhere", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 8`,
		`101 renameat(AT_FDCWD, "/work/ws/a", AT_FDCWD, "/tmp/b") = 0`,
		`101 unlinkat(AT_FDCWD, "relative.txt", 0) = 0`,
	}
	trace := filepath.Join(t.TempDir(), "trace")
	if err := os.WriteFile(trace, []byte(strings.Join(append(lines, forbidden...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	violations, writes, err := checkTrace(trace, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(violations) != len(forbidden) {
		t.Errorf("%d violations, want %d:\n%s", len(violations), len(forbidden), strings.Join(violations, "\n"))
	}
	if len(writes) != 6 {
		t.Errorf("%d writes seen, want 6:\n%s", len(writes), strings.Join(writes, "\n"))
	}
}
