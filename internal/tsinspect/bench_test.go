package tsinspect

import (
	"context"
	"fmt"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func typicalRepo(n int) (*vfs.Mem, []string) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/tools/lib/format.ts", []byte("export function format(x: unknown, y: string) { return JSON.stringify(x) + y }\n"))
	var modules []string
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("/r/tools/t%03d.ts", i)
		mem.WriteFile(p, []byte(fmt.Sprintf("// module %d\n%s", i, typicalModule)))
		modules = append(modules, p)
	}
	return mem, modules
}

// BenchmarkInspectCold inspects one typical module with an empty cache.
func BenchmarkInspectCold(b *testing.B) {
	mem, modules := typicalRepo(1)
	in := New(mem, Options{CacheEntries: -1})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := in.Inspect(ctx, "/r", modules[0]); !r.Loads {
			b.Fatal(r.Reason)
		}
	}
}

// BenchmarkInspectWarm inspects one typical module whose result is cached.
func BenchmarkInspectWarm(b *testing.B) {
	mem, modules := typicalRepo(1)
	in := New(mem, Options{})
	ctx := context.Background()
	in.Inspect(ctx, "/r", modules[0])
	b.ReportAllocs()
	for b.Loop() {
		in.Inspect(ctx, "/r", modules[0])
	}
}

// BenchmarkInspectAll500Cold inspects a workspace of 500 modules with a new
// inspector each time (run with -cpu 2 for the two-core figure).
func BenchmarkInspectAll500Cold(b *testing.B) {
	mem, modules := typicalRepo(500)
	ctx := context.Background()
	for b.Loop() {
		rs := New(mem, Options{}).InspectAll(ctx, "/r", modules)
		if !rs[499].Loads {
			b.Fatal(rs[499].Reason)
		}
	}
}

// BenchmarkInspectAll10000Cold inspects a workspace of 10,000 modules with
// a new inspector each time (run with -cpu 2 -benchtime 1x).
func BenchmarkInspectAll10000Cold(b *testing.B) {
	mem, modules := typicalRepo(10000)
	ctx := context.Background()
	for b.Loop() {
		rs := New(mem, Options{CacheEntries: 20000}).InspectAll(ctx, "/r", modules)
		if !rs[9999].Loads {
			b.Fatal(rs[9999].Reason)
		}
	}
}

// BenchmarkInspectColdFollowed inspects, with an empty cache, a module
// whose parameters are a const of a relative file, which the value reader
// follows into (and parses) besides checking its load.
func BenchmarkInspectColdFollowed(b *testing.B) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/tools/lib/schema.ts", []byte("const id = { type: 'string', description: 'Order id' } as const\n"+
		"export const schema = { type: 'object', properties: { id, n: { type: 'number', description: 'How many' } }, required: ['id'] }\n"))
	mem.WriteFile("/r/tools/t.ts", []byte("import { schema } from './lib/schema'\n"+
		"export default { description: 'Look up an order.', parameters: schema, async execute(args: { id: string }) { return args.id } }\n"))
	in := New(mem, Options{CacheEntries: -1})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := in.Inspect(ctx, "/r", "/r/tools/t.ts"); !r.Loads || r.Parameters == nil {
			b.Fatal(r.Reason, r.Findings)
		}
	}
}
