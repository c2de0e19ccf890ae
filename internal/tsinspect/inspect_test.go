package tsinspect

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const typicalModule = `// tools/lookup_order.ts
type Args = { id: string; include_items?: boolean }
import { readFile } from 'node:fs/promises'
import { format } from './lib/format'

export default {
  description: 'Look up an order by id. Returns its status and carrier.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The order id, e.g. "A-1042"' },
      include_items: { type: 'boolean', description: 'Also list the items' },
    },
    required: ['id'],
  },
  async execute(args: Args, context: { env: Record<string, string>; signal: AbortSignal }) {
    const response = await fetch(` + "`https://orders.example.com/v1/orders/${args.id}`" + `, {
      headers: { authorization: ` + "`Bearer ${context.env.ORDERS_API_KEY}`" + ` },
      signal: context.signal,
    })
    if (!response.ok) throw new Error(` + "`orders API answered ${response.status}`" + `)
    return format(await response.json(), await readFile('/dev/null', 'utf8'))
  },
}
`

func findCode(r *Result, code string) (diag.Finding, bool) {
	for _, f := range r.Findings {
		if f.Code == code {
			return f, true
		}
	}
	return diag.Finding{}, false
}

func TestBounds(t *testing.T) {
	var arrows strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&arrows, "const f%d = (a: number) => a + %d\n", i, i)
	}
	manyArrows := arrows.String()
	var requires strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&requires, "  require('node:mod%d'); f(() => %d)\n", i, i)
	}
	lazyRequires := requires.String()
	deep := "export default " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	var names, props strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&names, "a%d, ", i)
		fmt.Fprintf(&props, "a%d, ", i)
	}
	// every destructured name read at load is a candidate of "declared
	// nowhere": settled in one pass, not one pass per name
	manyDestructured := "const { " + names.String() + "} = globalThis\nexport default { description: 'x', parameters: { type: 'object', properties: { " + props.String() + "} }, execute() {} }\n"
	var later strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&later, "const l%d = () => gone%d\n", i, i)
	}
	manyLater := later.String()
	manyProps := "export default { description: 'x', parameters: { type: 'object', properties: {" +
		strings.Repeat("a: { type: 'string', description: 'd' }, ", 20000) + "} }, execute() {} }\n"
	tests := []struct {
		name, content string
		opts          Options
		code          string
		sev           diag.Severity
		loads         bool
		says          string
	}{
		{"huge", typicalModule + strings.Repeat("// padding\n", 200), Options{MaxBytes: 1000}, CodeNotInspected, diag.Warning, true, "over the 1000-byte limit"},
		{"nul", "export default {}\x00\n", Options{}, CodeNotInspected, diag.Error, false, "a NUL byte at line 1"},
		{"invalid utf8", "// ok\nexport default { description: '\xc3\x28' }\n", Options{}, CodeNotInspected, diag.Error, false, "bytes that are not UTF-8 at line 2"},
		{"deep nesting", deep, Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"nested arrows", "export default " + strings.Repeat("a => ", 5000) + "1\n", Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"nested async arrows over lines", "export default " + strings.Repeat("async (a) =>\n", 5000) + "1\n", Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"prefix operators", "export default " + strings.Repeat("!", 1<<20) + "x\n", Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"new chain", "export default " + strings.Repeat("new ", 100000) + "X\n", Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"power chain", "export default " + strings.Repeat("a\n** ", 100000) + "1\n", Options{}, CodeNotInspected, diag.Warning, true, "deeper than 256 levels"},
		{"many sequential arrows", manyArrows + "function g(...fs: unknown[]) { return fs.length }\n" + strings.Repeat("g(x => x, y => -y);\n", 20000) + "export default { description: 'x', parameters: { type: 'object' }, execute: () => 1 }\n", Options{}, "", 0, true, ""},
		{"long binary chain", "export default { description: 'x' " + strings.Repeat("+ 'y' ", 100000) + ", parameters: { type: 'object' }, execute() {} }\n", Options{}, CodeNotInspected, diag.Warning, true, "more than 8192 terms"},
		{"binary chain within bounds", "export default { description: 'x' " + strings.Repeat("+\n 'y' ", 5000) + ", parameters: { type: 'object' }, execute() {} }\n", Options{}, "", 0, true, ""},
		{"binary chain of long strings", "export default { description: 'x' " + strings.Repeat("+ '"+strings.Repeat("y", 10)+"' ", 8000) + ", parameters: { type: 'object' }, execute() {} }\n", Options{}, "", 0, true, ""},
		{"binary chain with a computed term", "export default { description: 'x' " + strings.Repeat("+\n 'y' ", 50) + "+ Math.random(), parameters: { type: 'object' }, execute() {} }\n", Options{}, CodeNotStatic, diag.Information, true, "computed by an expression"},
		{"many destructured names read at load", manyDestructured, Options{}, CodeNotStatic, diag.Information, true, "cannot be known statically"},
		{"many redeclarations", strings.Repeat("const f = 1\n", 20000) + "export default {}\n", Options{}, CodeNotInspected, diag.Warning, true, "more than 64 names declared twice"},
		{"many lazy requires", "export default { description: 'x', parameters: { type: 'object' }, execute() {\n" + lazyRequires + "} }\n", Options{}, "", 0, true, ""},
		{"too many imports", strings.Repeat("import 'node:fs'\n", 5000), Options{}, CodeNotInspected, diag.Warning, true, "more than 4096 imports"},
		{"many properties", manyProps, Options{}, "", 0, true, ""},
		// the syntax tree's walks: a function called at load 20,000 times is
		// followed once; 20,000 reads of names declared nowhere inside
		// functions never called are placed by one pass and say nothing
		{"one function called at load many times", "function g(n: number) { return helperGone + n }\n" + strings.Repeat("g(1);\n", 20000) + "export default {}\n", Options{}, CodeThrowsAtLoad, diag.Error, false, "helperGone is not defined"},
		{"a function called at load many times, each call fine", "function g(n: number) { return n + 1 }\n" + strings.Repeat("g(1);\n", 20000) + "export default { description: 'x', parameters: { type: 'object' }, execute() {} }\n", Options{}, "", 0, true, ""},
		{"many reads in functions not called", manyLater + "export default { description: 'x', parameters: { type: 'object' }, execute() {} }\n", Options{}, "", 0, true, ""},
		// calls are followed 16 deep (maxFollowDepth): deeper, nothing is said
		{"nested immediately called functions", "const v = " + strings.Repeat("(() => ", 12) + "notDeclared" + strings.Repeat(")()", 12) + "\nexport default {}\n", Options{}, CodeThrowsAtLoad, diag.Error, false, "notDeclared is not defined"},
		{"calls nested deeper than followed", "const v = " + strings.Repeat("(() => ", 40) + "notDeclared" + strings.Repeat(")()", 40) + "\nexport default { description: 'x', parameters: { type: 'object' }, execute() {} }\n", Options{}, "", 0, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			mem.WriteFile("/r/tools/m.ts", []byte(tc.content))
			// The bounds here are on work (the limits the findings
			// name), not on time: under -race on a busy machine an
			// inspection may pass the product's 10 s, which would
			// report M12 instead of what the case checks.
			opts := tc.opts
			if opts.Timeout == 0 {
				opts.Timeout = time.Hour
			}
			r := New(mem, opts).Inspect(context.Background(), "/r", "/r/tools/m.ts")
			if r.Loads != tc.loads {
				t.Errorf("Loads = %v, want %v (%v)", r.Loads, tc.loads, r.Findings)
			}
			if tc.code == "" {
				if len(r.Findings) != 0 {
					t.Errorf("findings %v", r.Findings)
				}
				return
			}
			f, ok := findCode(r, tc.code)
			if !ok || f.Severity != tc.sev || !strings.Contains(f.Message, tc.says) {
				t.Errorf("want %s %s saying %q, got %v", tc.sev, tc.code, tc.says, r.Findings)
			}
		})
	}
}

// TestPositionsAfterTypes checks that positions are in the source as written:
// types, multi-byte characters and a byte order mark before the fault.
func TestPositionsAfterTypes(t *testing.T) {
	tests := []struct {
		name, content, code, text string
		line                      int
	}{
		{"bom and import", "\uFEFFimport { z } from 'zod'\nexport default { description: 'x', parameters: { type: 'object' }, execute() { return z } }\n", CodeImport, "'zod'", 0},
		{"multibyte before import", "const é: string = 'ü'; import { z } from 'zod'; console.log(z, é)\nexport default { description: 'x', parameters: { type: 'object' }, execute() {} }\n", CodeImport, "'zod'", 0},
		{"generic types before a bad type", "type A<T extends Record<string, Array<number>>> = { [K in keyof T]: T[K] }\nconst f = <T,>(x: T): T => x\nexport default { description: 'x', parameters: { type: 'array' }, execute: f }\n", CodeParameters, "'array'", 2},
		{"crlf line ends", "type A = { x: number }\r\nimport { z } from 'zod'\r\nexport default { description: 'x', parameters: { type: 'object' }, execute() { return z } }\r\n", CodeImport, "'zod'", 1},
		{"crlf syntax error", "const a: number = 1\r\n\r\nexport default { description: 'x' parameters: {} }\r\n", CodeSyntax, "parameters", 2},
		// A lone CR ends a line, as editors and the LSP count lines; U+2028 does not.
		{"lone cr and u+2028 line ends", "type A = { x: number }\rconst s = 1\u2028import { z } from 'zod'\nexport default { description: 'x', parameters: { type: 'object' }, execute() { return z } }\n", CodeImport, "'zod'", 1},
		{"syntax error after enum", "enum Color { Red, Green }\nabstract class Base { abstract run(): void }\nexport default { description: 'x' parameters: {} }\n", CodeSyntax, "parameters", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			mem.WriteFile("/r/tools/m.ts", []byte(tc.content))
			r := New(mem, Options{}).Inspect(context.Background(), "/r", "/r/tools/m.ts")
			f, ok := findCode(r, tc.code)
			if !ok {
				t.Fatalf("no %s in %v", tc.code, r.Findings)
			}
			got := tc.content[f.Range.Start.Offset:f.Range.End.Offset]
			if got != tc.text || f.Range.Start.Line != tc.line {
				t.Errorf("finding covers %q on line %d, want %q on line %d", got, f.Range.Start.Line, tc.text, tc.line)
			}
		})
	}
}

// TestCacheInvalidation: a warm hit returns the cached result; a change to
// the module, to a file it imports, to a package.json it resolved through,
// or a node_modules appearing or going, makes a new inspection.
func TestCacheInvalidation(t *testing.T) {
	const module = "/r/tools/m.ts"
	mem := vfs.NewMem()
	mem.WriteFile(module, []byte("import { z } from 'zod'\nimport { d } from './d'\nexport default { description: d, parameters: { type: 'object' }, execute() { return z } }\n"))
	mem.WriteFile("/r/tools/d.ts", []byte("export const d = 'first'\n"))
	in := New(mem, Options{})
	ctx := context.Background()
	inspect := func() *Result { return in.Inspect(ctx, "/r", module) }

	r1 := inspect()
	if r1.Loads || r1.Reason != "Cannot find package 'zod'" {
		t.Fatalf("want zod missing, got %v %q", r1.Loads, r1.Reason)
	}
	if inspect() != r1 {
		t.Fatal("warm inspection did not hit the cache")
	}
	steps := []struct {
		name   string
		change func()
		check  func(*Result) error
	}{
		{"node_modules appears with zod", func() {
			mem.WriteFile("/r/node_modules/zod/package.json", []byte(`{"exports": "./index.js"}`))
			mem.WriteFile("/r/node_modules/zod/index.js", []byte("export const z = 1\n"))
		}, func(r *Result) error {
			if !r.Loads {
				return fmt.Errorf("zod present but %q", r.Reason)
			}
			return nil
		}},
		{"package.json changes", func() {
			mem.WriteFile("/r/node_modules/zod/package.json", []byte(`{"exports": "./missing.js"}`))
		}, func(r *Result) error {
			if r.Loads || !strings.Contains(r.Reason, "Cannot find module 'zod'") {
				return fmt.Errorf("entry missing but %v %q", r.Loads, r.Reason)
			}
			return nil
		}},
		{"imported file changes", func() {
			mem.WriteFile("/r/node_modules/zod/package.json", []byte(`{"exports": "./index.js"}`))
			mem.WriteFile("/r/tools/d.ts", []byte("export const d = 'second'\n"))
		}, func(r *Result) error {
			if r.Description != "second" {
				return fmt.Errorf("description %q", r.Description)
			}
			return nil
		}},
		{"closer node_modules appears without zod", func() {
			mem.WriteFile("/r/tools/node_modules/other/index.js", []byte(""))
		}, func(r *Result) error {
			if !r.Loads {
				return fmt.Errorf("zod still resolves from above, got %q", r.Reason)
			}
			return nil
		}},
		{"node_modules goes", func() {
			mem.Remove("/r/node_modules/zod/package.json")
			mem.Remove("/r/node_modules/zod/index.js")
		}, func(r *Result) error {
			if r.Loads {
				return fmt.Errorf("zod gone but the module loads")
			}
			return nil
		}},
		{"module changes", func() {
			mem.WriteFile(module, []byte("export default 1\n"))
		}, func(r *Result) error {
			if _, ok := findCode(r, CodeDefaultExport); !ok {
				return fmt.Errorf("findings %v", r.Findings)
			}
			return nil
		}},
	}
	prev := r1
	for _, s := range steps {
		s.change()
		r := inspect()
		if r == prev {
			t.Fatalf("%s: the cached result was returned", s.name)
		}
		if err := s.check(r); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if inspect() != r {
			t.Fatalf("%s: no cache hit after the change", s.name)
		}
		prev = r
	}
}

func TestCacheDisabled(t *testing.T) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/m.ts", []byte(typicalModule))
	in := New(mem, Options{CacheEntries: -1})
	if in.Inspect(context.Background(), "/r", "/r/m.ts") == in.Inspect(context.Background(), "/r", "/r/m.ts") {
		t.Fatal("cache disabled but the same result came back")
	}
}

func TestCacheBounded(t *testing.T) {
	mem := vfs.NewMem()
	in := New(mem, Options{CacheEntries: 3})
	for i := 0; i < 10; i++ {
		p := fmt.Sprintf("/r/m%d.ts", i)
		mem.WriteFile(p, []byte(typicalModule))
		in.Inspect(context.Background(), "/r", p)
	}
	if n := len(in.cache.entries); n > 3 {
		t.Fatalf("cache holds %d entries, bound 3", n)
	}
}

func TestCancelled(t *testing.T) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/m.ts", []byte(typicalModule))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := New(mem, Options{})
	for _, r := range in.InspectAll(ctx, "/r", []string{"/r/m.ts", "/r/m.ts"}) {
		if !r.Incomplete || !r.Loads || len(r.Findings) != 0 {
			t.Fatalf("cancelled: %+v", r)
		}
	}
	// a cancelled inspection is not cached
	if r := in.Inspect(context.Background(), "/r", "/r/m.ts"); r.Incomplete {
		t.Fatal("incomplete result after the cancellation")
	}
}

func TestInspectAllOrderAndDuplicates(t *testing.T) {
	mem := vfs.NewMem()
	var modules []string
	for i := 0; i < 20; i++ {
		p := fmt.Sprintf("/r/tools/t%02d.ts", i)
		mem.WriteFile(p, []byte(fmt.Sprintf("export default { description: 'tool %d', parameters: { type: 'object' }, execute() {} }\n", i)))
		modules = append(modules, p)
	}
	modules = append(modules, modules[3], "/r/tools/../tools/t05.ts")
	rs := New(mem, Options{Parallelism: 3}).InspectAll(context.Background(), "/r", modules)
	if len(rs) != len(modules) {
		t.Fatalf("%d results for %d modules", len(rs), len(modules))
	}
	for i, r := range rs {
		if r.Module != filepath.Clean(modules[i]) {
			t.Errorf("result %d is for %s, want %s", i, r.Module, modules[i])
		}
	}
	if rs[20] != rs[3] || rs[21] != rs[5] {
		t.Error("a module listed twice was inspected twice")
	}
}

func TestUnreadable(t *testing.T) {
	r := New(vfs.NewMem(), Options{}).Inspect(context.Background(), "/r", "/r/none.ts")
	if r.Loads || !strings.Contains(r.Reason, "cannot read") || len(r.Findings) != 1 {
		t.Fatalf("%+v", r)
	}
}

func TestIsFile(t *testing.T) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/tools/a.ts", []byte("x"))
	in := New(mem, Options{})
	if !in.IsFile("/r/tools/a.ts") || in.IsFile("/r/tools") || in.IsFile("/r/none.ts") {
		t.Fatal("IsFile")
	}
}

// TestTimeoutThenCached: a caller that times out gets a clear finding; the
// inspection goes on once in the background and its result is cached, so a
// later call does not start it again.
func TestTimeoutThenCached(t *testing.T) {
	mem := vfs.NewMem()
	mem.WriteFile("/r/m.ts", []byte(typicalModule))
	in := New(mem, Options{Timeout: time.Nanosecond})
	r := in.Inspect(context.Background(), "/r", "/r/m.ts")
	in.mu.Lock()
	var running []*flight
	for _, f := range in.flights {
		running = append(running, f)
	}
	in.mu.Unlock()
	if r.Incomplete {
		if f, ok := findCode(r, CodeNotInspected); !ok || !strings.Contains(f.Message, "took longer than") {
			t.Fatalf("timed out without saying so: %v", r.Findings)
		}
	}
	for _, f := range running {
		<-f.done
	}
	again := in.Inspect(context.Background(), "/r", "/r/m.ts")
	if again.Incomplete || again.Description == "" {
		t.Fatalf("the background inspection's result was not cached: %+v", again)
	}
}
