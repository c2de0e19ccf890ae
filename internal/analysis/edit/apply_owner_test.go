//go:build unix

package edit_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

const ownerManifest = "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n"

// ejectOnDisk plans and applies an eject of memory in root.
func ejectOnDisk(t *testing.T, root string) error {
	t.Helper()
	fsys := vfs.NewDisk()
	p, err := analysis.Load(context.Background(), fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	c, err := edit.Eject(p, fsys, "memory", false)
	if err != nil {
		t.Fatalf("Eject: %v", err)
	}
	return edit.Apply(context.Background(), root, c)
}

// A manifest that is read-only, or that other names share through hard
// links, is refused before anything is written (it used to be replaced
// through a rename: a 0444 file rewritten, the hard links broken).
func TestApplyRefusesReadOnlyAndHardLinkedManifests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string)
		says  string
	}{
		{"read-only", func(t *testing.T, root string) {
			must(t, os.Chmod(filepath.Join(root, "beeuni.yaml"), 0o444))
		}, "beeuni.yaml is read-only (mode 0444): make it writable (chmod u+w beeuni.yaml), then run it again"},
		{"hard-linked", func(t *testing.T, root string) {
			must(t, os.Link(filepath.Join(root, "beeuni.yaml"), filepath.Join(root, "other.yaml")))
		}, "beeuni.yaml has 2 hard links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			mustWrite(t, filepath.Join(root, "beeuni.yaml"), ownerManifest)
			tc.setup(t, root)
			before := vfstest.Snapshot(t, root)
			var st0 syscall.Stat_t
			must(t, syscall.Stat(filepath.Join(root, "beeuni.yaml"), &st0))
			err := ejectOnDisk(t, root)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("Apply: %v; want an error saying %q", err, tc.says)
			}
			if got := vfstest.Snapshot(t, root); !maps.Equal(got, before) {
				t.Fatalf("the project changed:\n%q\nwas:\n%q", got, before)
			}
			var st1 syscall.Stat_t
			must(t, syscall.Stat(filepath.Join(root, "beeuni.yaml"), &st1))
			if st1.Ino != st0.Ino || st1.Nlink != st0.Nlink {
				t.Fatalf("beeuni.yaml was replaced (inode %d -> %d, links %d -> %d)", st0.Ino, st1.Ino, st0.Nlink, st1.Nlink)
			}
		})
	}
}

// An edited manifest keeps its mode, owner and group (as root, a manifest
// owned by another user used to end up owned by root).
func TestApplyKeepsOwnerAndMode(t *testing.T) {
	root := t.TempDir()
	manifest := filepath.Join(root, "beeuni.yaml")
	mustWrite(t, manifest, ownerManifest)
	must(t, os.Chmod(manifest, 0o640))
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		uid, gid = 65534, 65534 // nobody: only root can give a file away
		must(t, os.Chown(manifest, uid, gid))
	}
	if err := ejectOnDisk(t, root); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	info, err := os.Stat(manifest)
	must(t, err)
	st := info.Sys().(*syscall.Stat_t)
	if info.Mode().Perm() != 0o640 || int(st.Uid) != uid || int(st.Gid) != gid {
		t.Fatalf("beeuni.yaml after the eject: mode %04o owner %d:%d; want 0640 %d:%d", info.Mode().Perm(), st.Uid, st.Gid, uid, gid)
	}
	data, err := os.ReadFile(manifest)
	must(t, err)
	if !strings.Contains(string(data), "memory: tools/memory.ts  # ejected from beeuni:memory") {
		t.Fatalf("beeuni.yaml was not edited:\n%s", data)
	}
}

// helperRootEnv makes TestApplyRefusesAManifestTheUserCannotWrite's helper
// run: the test binary, started as another user, ejects in that folder.
const helperRootEnv = "BEEUNI_EDIT_TEST_EJECT_IN"

// A manifest the user cannot write is refused, even in a folder the user
// can write (a rename there would have replaced it, and made it theirs).
// The eject runs as nobody, so the test needs root.
func TestApplyRefusesAManifestTheUserCannotWrite(t *testing.T) {
	if root := os.Getenv(helperRootEnv); root != "" {
		fmt.Printf("APPLY: %v\n", ejectOnDisk(t, root))
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the eject as another user")
	}
	base := t.TempDir()
	must(t, vfstest.OpenTempDir(base)) // t.TempDir's folders are 0700
	self, err := os.Executable()
	must(t, err)
	data, err := os.ReadFile(self)
	must(t, err)
	exe := filepath.Join(base, "edit.test")
	must(t, os.WriteFile(exe, data, 0o755))
	root := filepath.Join(base, "repo")
	mustWrite(t, filepath.Join(root, "beeuni.yaml"), ownerManifest)
	must(t, os.Chown(root, 65534, 65534)) // the folder is nobody's; the manifest stays root's, 0644
	cmd := exec.Command(exe, "-test.run=^TestApplyRefusesAManifestTheUserCannotWrite$")
	cmd.Env = append(os.Environ(), helperRootEnv+"="+root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if want := "APPLY: beeuni.yaml is not writable by you: permission denied\n"; !strings.Contains(string(out), want) {
		t.Fatalf("helper said:\n%s\nwant %q", out, want)
	}
	info, err := os.Stat(filepath.Join(root, "beeuni.yaml"))
	must(t, err)
	if st := info.Sys().(*syscall.Stat_t); st.Uid != 0 || info.Mode().Perm() != 0o644 {
		t.Errorf("beeuni.yaml is now %04o, owned by %d", info.Mode().Perm(), st.Uid)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "beeuni.yaml")); string(got) != ownerManifest {
		t.Errorf("beeuni.yaml changed:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(root, "tools")); err == nil {
		t.Error("tools/ was created")
	}
}
