package tsinspect_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzInspect inspects arbitrary bytes as a tool module of each extension,
// next to a relative file and a node_modules package it may import: no
// panic, an answer in bounded time, and every finding inside the file it
// names, at a position consistent with that file's lines.
func FuzzInspect(f *testing.F) {
	for _, s := range []string{
		validModule,
		"import { z } from 'zod'\nexport default { description: 'x', parameters: z.toJSONSchema(z.object({})), execute() {} }\n",
		"import { tool } from '@opencode-ai/plugin'\nexport default tool({ description: 'd', args: {}, async execute() { return '' } })\n",
		"import lib from './lib'\nconst d = lib.d as const\nexport default { ...lib, description: d, parameters: { type: 'object', required: ['q'] }, execute: 1 }\n",
		"export default class {}\n",
		"let x: Map<string, Array<number>> = new Map()\nexport default {\n  description: `a ${x}`,\n",
		"export default {description:'日本😀', parameters:{type:'object',properties:{a:{type:'string'}}}, execute(){}}",
		"\x00\xff",
		"/* unterminated",
		"export default { parameters: { type: 'object', properties: { a: { properties: { b: { properties: {} } } } } } }",
	} {
		for ext := range uint8(6) {
			f.Add([]byte(s), ext)
		}
	}
	f.Fuzz(func(t *testing.T, content []byte, ext uint8) {
		exts := []string{".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"}
		const root = "/repo"
		module := filepath.Join(root, "tools", "m"+exts[int(ext)%len(exts)])
		fsys := vfs.NewMem()
		fsys.WriteFile(module, content)
		fsys.WriteFile(filepath.Join(root, "tools/lib.ts"), []byte("export const d = 'x'\nexport default { d: 'y', description: 'z' }\n"))
		fsys.WriteFile(filepath.Join(root, "node_modules/zod/package.json"), []byte(`{"exports": {".": {"import": "./index.js"}}}`))
		fsys.WriteFile(filepath.Join(root, "node_modules/zod/index.js"), []byte("export const z = {}\n"))
		fsys.Symlink(filepath.Join(root, "tools/node_modules/loop"), "..")
		in := tsinspect.New(fsys, tsinspect.Options{CacheEntries: -1})
		done := make(chan *tsinspect.Result, 1)
		go func() { done <- in.Inspect(context.Background(), root, module) }()
		var r *tsinspect.Result
		select {
		case r = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("Inspect did not return within a minute")
		}
		if r.Module != module || r.Lines == nil {
			t.Fatalf("result for %q with lines %v", r.Module, r.Lines)
		}
		if !r.Loads && r.Reason == "" {
			t.Fatal("the module does not load, with no reason")
		}
		for _, fd := range r.Findings {
			data, err := fsys.ReadFile(fd.File)
			if err != nil {
				t.Fatalf("finding %s %q in %s, which cannot be read: %v", fd.Code, fd.Message, fd.File, err)
			}
			lines := diag.NewLines(data)
			rg := fd.Range
			if rg.Start.Offset < 0 || rg.End.Offset > len(data) || rg.Start.Offset > rg.End.Offset {
				t.Fatalf("finding %s %q: range [%d,%d) outside %s (%d bytes)", fd.Code, fd.Message, rg.Start.Offset, rg.End.Offset, fd.File, len(data))
			}
			for _, p := range []diag.Pos{rg.Start, rg.End} {
				if want := lines.Pos(p.Offset); p != want {
					t.Fatalf("finding %s %q: position %+v, but its offset is at %+v", fd.Code, fd.Message, p, want)
				}
			}
			if fd.Code == "" || fd.Message == "" {
				t.Fatalf("finding without code or message: %+v", fd)
			}
		}
	})
}
