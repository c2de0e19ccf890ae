package lsp

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestDiskCacheRemembersUntilForgotten(t *testing.T) {
	root := filepath.FromSlash("/repo")
	a := filepath.Join(root, "a.txt")
	b := filepath.Join(root, "b.txt")
	mem := vfs.NewMem()
	mem.WriteFile(a, []byte("one"))
	c := newDiskCache(mem)

	read := func(p string) string {
		t.Helper()
		data, err := c.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return "<missing>"
		}
		if err != nil {
			t.Fatalf("ReadFile(%s): %v", p, err)
		}
		return string(data)
	}
	names := func() int {
		t.Helper()
		entries, err := c.ReadDir(root)
		if err != nil {
			t.Fatalf("ReadDir: %v", err)
		}
		return len(entries)
	}

	// Disabled, it reads through.
	if got := read(a); got != "one" {
		t.Fatalf("disabled: %q, want one", got)
	}
	mem.WriteFile(a, []byte("two"))
	if got := read(a); got != "two" {
		t.Fatalf("disabled after a change: %q, want two", got)
	}

	c.enable()
	if got := read(a); got != "two" {
		t.Fatalf("enabled: %q, want two", got)
	}
	if got := read(b); got != "<missing>" {
		t.Fatalf("b before it exists: %q", got)
	}
	if n := names(); n != 1 {
		t.Fatalf("listing: %d names, want 1", n)
	}
	if info, err := c.Stat(a); err != nil || info.Size() != 3 {
		t.Fatalf("Stat(a) = %v, %v; want size 3", info, err)
	}
	mem.WriteFile(a, []byte("three!"))
	mem.WriteFile(b, []byte("bee"))
	if got := read(a); got != "two" {
		t.Fatalf("a changed, not forgotten: %q, want the remembered two", got)
	}
	if got := read(b); got != "<missing>" {
		t.Fatalf("b created, not forgotten: %q, want the remembered error", got)
	}
	if info, _ := c.Stat(a); info.Size() != 3 {
		t.Fatalf("Stat(a) not forgotten: size %d, want the remembered 3", info.Size())
	}

	c.forget(b) // also forgets the folder's listing
	if got := read(b); got != "bee" {
		t.Fatalf("b forgotten: %q, want bee", got)
	}
	if n := names(); n != 2 {
		t.Fatalf("listing after forgetting b: %d names, want 2", n)
	}
	if got := read(a); got != "two" {
		t.Fatalf("a not forgotten: %q, want two", got)
	}
	c.forgetAll()
	if got := read(a); got != "three!" {
		t.Fatalf("after forgetAll: %q, want three!", got)
	}
	if info, _ := c.Stat(a); info.Size() != 6 {
		t.Fatalf("Stat(a) after forgetAll: size %d, want 6", info.Size())
	}
}

func TestDiskCacheRereadsLargeFiles(t *testing.T) {
	p := filepath.FromSlash("/repo/big.bin")
	mem := vfs.NewMem()
	mem.WriteFile(p, bytes.Repeat([]byte{'a'}, maxCachedRead+1))
	c := newDiskCache(mem)
	c.enable()
	if _, err := c.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	mem.WriteFile(p, []byte("small"))
	if got, err := c.ReadFile(p); err != nil || string(got) != "small" {
		t.Fatalf("ReadFile = %.10q, %v; want small (large contents are not kept)", got, err)
	}
}

func TestDiskCacheRereadsModules(t *testing.T) {
	mem := vfs.NewMem()
	c := newDiskCache(mem)
	c.enable()
	for _, name := range []string{"t.ts", "t.mjs", "t.cjs", "t.js", "t.mts", "t.cts", "t.tsx", "t.jsx"} {
		p := filepath.Join(filepath.FromSlash("/repo/tools"), name)
		mem.WriteFile(p, []byte("export default {}\n"))
		if _, err := c.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		mem.WriteFile(p, []byte("changed"))
		if got, err := c.ReadFile(p); err != nil || string(got) != "changed" {
			t.Fatalf("ReadFile(%s) = %q, %v; want changed (a module's content is not kept)", name, got, err)
		}
	}
	p := filepath.FromSlash("/repo/tools/lib/data.json")
	mem.WriteFile(p, []byte("{}"))
	if _, err := c.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	mem.WriteFile(p, []byte("[]"))
	if got, _ := c.ReadFile(p); string(got) != "{}" {
		t.Fatalf("ReadFile(data.json) = %q; want the remembered {} (only modules are read again)", got)
	}
}

func TestDiskCacheStamps(t *testing.T) {
	root := filepath.FromSlash("/repo")
	mod := filepath.Join(root, "tools", "a.ts")
	other := filepath.Join(root, "tools", "b.ts")
	c := newDiskCache(vfs.NewMem())
	if _, ok := c.stamp(mod); ok {
		t.Fatal("stamp while the cache is off: ok, want not (contents must be compared)")
	}
	c.enable()
	stamp := func(p string) uint64 {
		t.Helper()
		s, ok := c.stamp(p)
		if !ok {
			t.Fatalf("stamp(%s): not ok with the cache on", p)
		}
		return s
	}
	s0 := stamp(mod)
	c.forget(other)
	if s := stamp(mod); s != s0 {
		t.Fatalf("stamp after another file was forgotten: %d, want %d", s, s0)
	}
	c.forget(mod)
	s1 := stamp(mod)
	if s1 == s0 {
		t.Fatal("stamp unchanged after the file was forgotten")
	}
	c.forget(filepath.Join(root, "tools"))
	s2 := stamp(mod)
	if s2 == s1 {
		t.Fatal("stamp unchanged after its folder was forgotten (deleted with its files)")
	}
	c.forgetAll()
	if stamp(mod) == s2 {
		t.Fatal("stamp unchanged after forgetAll")
	}
}

func TestDiskCacheListingsAreCopies(t *testing.T) {
	root := filepath.FromSlash("/repo")
	mem := vfs.NewMem()
	mem.WriteFile(filepath.Join(root, "a.txt"), nil)
	c := newDiskCache(mem)
	c.enable()
	first, err := c.ReadDir(root)
	if err != nil || len(first) != 1 {
		t.Fatalf("ReadDir = %v, %v", first, err)
	}
	first[0] = nil
	second, err := c.ReadDir(root)
	if err != nil || len(second) != 1 || second[0] == nil || second[0].Name() != "a.txt" {
		t.Fatalf("second ReadDir = %v, %v; want a.txt, untouched by the first caller", second, err)
	}
}

func TestDiskCacheForgetsLinksBelowAFolder(t *testing.T) {
	root := filepath.FromSlash("/repo")
	link := filepath.Join(root, "dir", "tools")
	mem := vfs.NewMem()
	mem.WriteFile(filepath.Join(root, "x", "t.ts"), nil)
	mem.WriteFile(filepath.Join(root, "y", "t.ts"), nil)
	mem.Symlink(link, filepath.Join(root, "x"))
	c := newDiskCache(mem)
	c.enable()
	if got, err := c.EvalSymlinks(link); err != nil || got != filepath.Join(root, "x") {
		t.Fatalf("EvalSymlinks = %q, %v", got, err)
	}
	mem.Remove(link)
	mem.Symlink(link, filepath.Join(root, "y"))
	if got, _ := c.EvalSymlinks(link); got != filepath.Join(root, "x") {
		t.Fatalf("not forgotten: %q, want the remembered x", got)
	}
	c.forget(filepath.Join(root, "dir"))
	if got, err := c.EvalSymlinks(link); err != nil || got != filepath.Join(root, "y") {
		t.Fatalf("after forgetting the folder: %q, %v; want y", got, err)
	}
}
