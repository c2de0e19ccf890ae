// Package buntest finds the Bun binary that the differential tests hold the
// module inspector to.
package buntest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Instruction says how to get Bun for the tests.
const Instruction = "run `export BEEUNI_BUN=$(bash scripts/install-bun.sh)` first (it installs Bun from the npm registry into a cache and prints the binary's path); scripts/test.sh does it"

// Binary returns the bun binary named by BEEUNI_BUN, checked by running
// `bun --version`. A test that needs Bun fails without it: it never passes
// by skipping.
func Binary(t testing.TB) string {
	t.Helper()
	bun := os.Getenv("BEEUNI_BUN")
	if bun == "" {
		t.Fatalf("BEEUNI_BUN is not set: %s", Instruction)
	}
	out, err := exec.Command(bun, "--version").Output()
	if err != nil {
		t.Fatalf("BEEUNI_BUN=%s does not run (%v): %s", bun, err, Instruction)
	}
	t.Logf("bun %s", strings.TrimSpace(string(out)))
	return bun
}
