package vfs

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzWithin compares Within with a plain definition on arbitrary absolute
// paths: path is root itself or starts with root and a separator, after both
// are cleaned.
func FuzzWithin(f *testing.F) {
	for _, s := range [][2]string{
		{"/repo", "/repo/a"}, {"/repo", "/repo/../etc"}, {"/repo", "/repox"},
		{"/", "/a"}, {"/repo/", "/repo"}, {"/repo", "/repo/..a/b"}, {"/a/b", "/a/b/./../b/c"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, root, path string) {
		got := Within(root, path)
		if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
			if got && filepath.IsAbs(root) != filepath.IsAbs(path) {
				t.Fatalf("Within(%q, %q) = true across absolute and relative", root, path)
			}
			return
		}
		r, p := filepath.Clean(root), filepath.Clean(path)
		want := p == r || strings.HasPrefix(p, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator))
		if got != want {
			t.Fatalf("Within(%q, %q) = %v, want %v", root, path, got, want)
		}
	})
}

// FuzzMem builds an in-memory tree, links included, from an arbitrary txtar
// archive and runs every operation on every name in it: no panic, no endless
// link resolution, and whatever resolves reads back what was written.
func FuzzMem(f *testing.F) {
	f.Add([]byte("-- beeuni.yaml --\ntools: {}\n-- tools/a.ts --\nexport default {}\n"), "tools/a.ts")
	f.Add([]byte("-- a -> b --\n-- b -> a --\n-- c -> . --\n-- d/e -> ../d --\n"), "a/x")
	f.Add([]byte("-- node_modules/x -> .. --\n-- out -> /etc --\n-- up -> ../../.. --\n"), "node_modules/x/node_modules/x/out")
	f.Add([]byte("-- a/b --\nx\n-- a --\ny\n-- /abs --\n-- ../esc --\n"), "../esc")
	f.Fuzz(func(t *testing.T, archive []byte, probe string) {
		const root = "/repo"
		m := MemFromTxtar(root, archive)
		names := []string{probe, filepath.Join(root, probe), root, "/"}
		for _, file := range txtar.Parse(archive).Files {
			name, _, _ := strings.Cut(file.Name, " -> ")
			names = append(names, filepath.Join(root, filepath.FromSlash(name)))
		}
		for _, n := range names {
			data, rerr := m.ReadFile(n)
			_, serr := m.Stat(n)
			_, _ = m.ReadDir(n)
			r, eerr := m.EvalSymlinks(n)
			if rerr == nil && serr != nil {
				t.Fatalf("%q reads but does not stat: %v", n, serr)
			}
			if rerr == nil && eerr == nil {
				again, err := m.ReadFile(r)
				if err != nil || string(again) != string(data) {
					t.Fatalf("%q resolves to %q, which reads %q, %v; want %q", n, r, again, err, data)
				}
			}
		}
		o := NewOverlay(m)
		o.Set(filepath.Join(root, probe), []byte("over"))
		if data, err := o.ReadFile(filepath.Join(root, probe)); err != nil || string(data) != "over" {
			t.Fatalf("overlay read = %q, %v", data, err)
		}
		_, _ = o.ReadDir(root)
		_, _ = o.EvalSymlinks(filepath.Join(root, probe))
	})
}
