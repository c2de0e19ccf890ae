package vfs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDiskReadFile reads a manifest the size of a 10,000-tool project:
// B/op should stay close to the file's size (the buffer is sized from Stat).
func BenchmarkDiskReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "beeuni.yaml")
	content := bytes.Repeat([]byte("  tool_00001: tools/tool_00001.ts\n"), 25_000) // ~850 KB
	if err := os.WriteFile(path, content, 0o644); err != nil {
		b.Fatal(err)
	}
	d := NewDisk()
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		data, err := d.ReadFile(path)
		if err != nil || len(data) != len(content) {
			b.Fatalf("read %d bytes: %v", len(data), err)
		}
	}
}
