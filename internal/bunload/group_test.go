//go:build unix

package bunload

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadEndsWhatTheModuleSpawned: a module whose load spawns a long-lived
// child holding Bun's stdout and stderr neither keeps Load waiting past its
// timeout nor outlives it, whether Bun exits (the child unref'd) or waits
// for the child until the timeout.
func TestLoadEndsWhatTheModuleSpawned(t *testing.T) {
	bun := bunBinary(t)
	spawn := func(name, rest string) string {
		return "import { writeFileSync } from 'node:fs'\n" +
			"const child = Bun.spawn(['sleep', '600'], { stdout: 'inherit', stderr: 'inherit' })\n" +
			"writeFileSync('" + name + ".pid', String(child.pid))\n" + rest +
			"export default { description: 'x', parameters: { type: 'object', properties: {} }, execute() {} }\n"
	}
	ws := t.TempDir()
	write(t, ws, map[string]string{
		"tools/lingers.ts": spawn("lingers", "child.unref()\n"),
		"tools/hangs.ts":   spawn("hangs", "await new Promise((resolve) => setTimeout(resolve, 600_000))\n"),
	})
	const timeout = 3 * time.Second
	tests := []struct{ module, want string }{
		{"lingers", "loads"},
		{"hangs", context.DeadlineExceeded.Error()},
	}
	for _, tc := range tests {
		t.Run(tc.module, func(t *testing.T) {
			pidFile := filepath.Join(ws, tc.module+".pid")
			t.Cleanup(func() { // when the test failed, the sleep it left behind, and only it
				data, err := os.ReadFile(pidFile)
				pid, _ := strconv.Atoi(string(data))
				cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
				if t.Failed() && err == nil && pid > 0 && string(cmdline) == "sleep\x00600\x00" {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			type result struct {
				v   Verdict
				err error
			}
			done := make(chan result, 1)
			go func() {
				v, err := Load(ctx, bun, ws, filepath.Join(ws, "tools", tc.module+".ts"))
				done <- result{v, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(timeout + waitDelay + 5*time.Second):
				t.Fatalf("Load still runs %s after its timeout of %s: the child holding bun's output keeps it waiting", waitDelay+5*time.Second, timeout)
			}
			got := r.v.String()
			if r.err != nil {
				got = r.err.Error()
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("Load: %s, want %s", got, tc.want)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the module did not spawn its child: %v", err)
			}
			pid, err := strconv.Atoi(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if !gone(pid, time.Second) {
				t.Errorf("the child %d the module spawned outlives Load", pid)
			}
		})
	}
}

// gone waits up to wait for process pid to end (a zombie has ended).
func gone(pid int, wait time.Duration) bool {
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}
