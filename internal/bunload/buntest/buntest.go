// Package buntest finds the Bun binary that the differential tests hold the
// module inspector to.
package buntest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Instruction says how to get Bun for the tests.
const Instruction = "run `bash scripts/install-bun.sh` first (it installs Bun from the npm registry into a cache, where the tests find it, and prints the binary's path; BEEUNI_BUN=<path> names another one); scripts/test.sh does it"

// Binary returns the bun binary the tests use, checked by running
// `bun --version`: the one BEEUNI_BUN names, else the last (by name) that
// scripts/install-bun.sh put in its cache (BEEUNI_BUN_CACHE, default
// /var/cache/beeuni-bun). A test that needs Bun fails at once without it,
// with the command to run: it never passes by skipping.
func Binary(t testing.TB) string {
	t.Helper()
	bun := os.Getenv("BEEUNI_BUN")
	if bun == "" {
		bun = cached()
		if bun == "" {
			t.Fatalf("no Bun: BEEUNI_BUN is not set and %s holds none: %s", cacheDir(), Instruction)
		}
	}
	out, err := exec.Command(bun, "--version").Output()
	if err != nil {
		t.Fatalf("Bun at %s does not run (%v): %s", bun, err, Instruction)
	}
	t.Logf("bun %s at %s", strings.TrimSpace(string(out)), bun)
	return bun
}

func cacheDir() string {
	if dir := os.Getenv("BEEUNI_BUN_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/beeuni-bun"
}

// cached returns the binary of the last version install-bun.sh unpacked
// (<cache>/bun-<platform>-<version>/package/bin/bun, names sorted), or "".
func cached() string {
	found, _ := filepath.Glob(filepath.Join(cacheDir(), "bun-*", "package", "bin", "bun"))
	slices.Sort(found)
	if len(found) == 0 {
		return ""
	}
	return found[len(found)-1]
}
