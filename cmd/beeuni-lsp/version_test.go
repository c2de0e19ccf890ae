package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/version"
)

// `beeuni-lsp version` prints what a release linked in, else what the build
// information says (a test binary has no VCS data: "devel").
func TestVersionCommand(t *testing.T) {
	for _, linked := range []string{"", "0.2.0-snapshot+61c8dcea227d"} {
		t.Run("linked="+linked, func(t *testing.T) {
			defer func(old string) { version.Linked = old }(version.Linked)
			version.Linked = linked
			var out, errOut bytes.Buffer
			code := run(context.Background(), env{stdout: &out, stderr: &errOut, dir: t.TempDir()}, []string{"version"})
			want := "beeuni-lsp " + linked + "\n"
			if linked == "" {
				want = "beeuni-lsp devel\n"
			}
			if code != 0 || out.String() != want || errOut.Len() > 0 {
				t.Errorf("version: exit %d, stdout %q, stderr %q; want 0, %q", code, out.String(), errOut.String(), want)
			}
		})
	}
}
