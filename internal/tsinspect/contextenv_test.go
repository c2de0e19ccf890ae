package tsinspect

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestEnvReads holds the names execute reads from `context.env` (each as
// NAME=the text of its range) to the reads the code shows, and to nothing
// where it does not show one.
func TestEnvReads(t *testing.T) {
	const head = "export default {\n  description: 'd',\n  parameters: { type: 'object', properties: {} },\n"
	tests := []struct {
		name, execute string
		want          string // NAME=text of the first read of each name, space-separated, by name
	}{
		{"member", "async execute(args, context) { return context.env.WEATHER_API_KEY }", "WEATHER_API_KEY=context.env.WEATHER_API_KEY"},
		{"optional chain", "execute(args, context) { return context?.env?.A ?? context.env?.['B'] }", "A=context?.env?.A B=context.env?.['B']"},
		{"index", `execute(args, context) { return context.env['X-Key'] + context.env["Y"] }`, `X-Key=context.env['X-Key'] Y=context.env["Y"]`},
		{"any name", "execute(a, ctx) { return ctx.env.TOKEN }", "TOKEN=ctx.env.TOKEN"},
		{"typed parameters", "async execute(args: Record<string, unknown>, context: { env: Record<string, string> }) { return context.env.K }", "K=context.env.K"},
		{"arrow", "execute: async (args, context) => context.env.K", "K=context.env.K"},
		{"destructuring", "execute(args, context) {\n    const { A, B: b, C = 'c', ...rest } = context.env\n    return A + b + C + rest\n  }", "A=A B=B C=C"},
		{"destructured parameter", "execute(args, { env, signal }) { return fetch(env.URL, { signal }) }", "URL=env.URL"},
		{"destructured parameter renamed", "execute(args, { env: e }) { const { K } = e; return e.L + K }", "K=K L=e.L"},
		{"template literal", "execute(args, context) { return `Bearer ${context.env.TOKEN} ${context.env['REGION']} context.env.NOT_READ ${`${context.env.INNER}`}` }", "INNER=context.env.INNER REGION=context.env['REGION'] TOKEN=context.env.TOKEN"},
		{"first read of each name, by name", "execute(args, context) { return context.env.B + context.env?.A + context.env['B'] }", "A=context.env?.A B=context.env.B"},
		{"alias", "execute(args, context) {\n    const env = context.env\n    return env.A + env['B']\n  }", "A=env.A B=env['B']"},
		{"alias destructured", "async execute(args, context) {\n    const { env, signal } = context\n    const { C } = env\n    return fetch(env.URL, { signal }) + C\n  }", "C=C URL=env.URL"},
		{"alias renamed", "execute(args, ctx) { const { signal, env: e } = ctx; return e.K + ctx.env.L }", "K=e.K L=ctx.env.L"},
		{"function value", "execute: async function (args, context) { return context.env.K },", "K=context.env.K"},

		// not reads
		{"envx", "execute(args, context) { return context.envx.A + context.environment.B }", ""},
		{"another object", "execute(args, context) { const other = { env: {} }; return other.env.X + args.env.Y }", ""},
		{"a property named context", "execute(args, context) { return args.context.env.X }", ""},
		{"first parameter", "execute(context) { return context.env.X }", ""},
		{"no second parameter", "execute(args) { return context.env.X }", ""},
		{"shadowed by a nested arrow", "execute(args, context) { return [args].map((context) => context.env.X) }", ""},
		{"shadowed by a one-parameter arrow", "execute(args, context) { return [args].map(context => context.env.X) }", ""},
		{"shadowed by a declaration", "execute(args, context) { { const context = { env: {} }; return context.env.X } }", ""},
		{"shadowed by a nested function", "execute(args, context) { function f(a, context) { return context.env.X } return f(args, {}) }", ""},
		{"alias shadowed", "execute(args, context) { const env = context.env; return [args].map((env) => env.X) }", ""},
		{"alias of a let", "execute(args, context) { let env = context.env; env = {}; return env.X }", ""},
		{"alias of a property", "execute(args, context) { const env = context.env.inner; const { env: e } = context.other; return env.X + e.Y }", "inner=context.env.inner"},
		{"env passed on whole", "execute(args, context) { return helper(context.env) }", ""},
		{"not shadowed by a condition", "execute(args, context) { if (context) { return context.env.X } }", "X=context.env.X"},
		// scopes: a read of execute's own binding counts beside a shadowing one
		{"kept beside a shadowing arrow", "execute(args, context) { return context.env.A + [args].map((context) => context.env.X) }", "A=context.env.A"},
		{"kept beside a shadowing declaration", "execute(args, context) { { const context = { env: {} }; context.env.X } return context.env.B }", "B=context.env.B"},
		{"in a nested function", "execute(args, context) { const f = () => context.env.C; return f() }", "C=context.env.C"},
		{"alias in a block", "execute(args, context) { if (args) { const env = context.env; return env.D } }", "D=env.D"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := head + "  " + tc.execute + "\n}\n"
			if strings.HasPrefix(tc.execute, "execute:") && !strings.HasSuffix(tc.execute, ",") {
				src = head + "  " + tc.execute + ",\n}\n"
			}
			mem := vfs.NewMem()
			module := filepath.FromSlash("/r/tools/m.ts")
			mem.WriteFile(module, []byte(src))
			r := New(mem, Options{}).Inspect(context.Background(), filepath.FromSlash("/r"), module)
			if !r.Loads {
				t.Fatalf("the module does not load: %s\n%s", r.Reason, src)
			}
			var got []string
			for _, e := range r.EnvReads {
				if e.File != module {
					t.Errorf("read of %s in %s, want %s", e.Name, e.File, module)
				}
				got = append(got, e.Name+"="+src[e.Range.Start.Offset:e.Range.End.Offset])
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("reads %q, want %q\n%s", g, tc.want, src)
			}
		})
	}
}

// A read in an execute imported from another file is placed in that file.
func TestEnvReadsInImportedExecute(t *testing.T) {
	mem := vfs.NewMem()
	module := filepath.FromSlash("/r/tools/m.ts")
	lib := filepath.FromSlash("/r/tools/lib.ts")
	mem.WriteFile(lib, []byte("export const execute = async (args, context) => {\n  return context.env.API_KEY\n}\n"))
	mem.WriteFile(module, []byte("import { execute } from './lib'\nexport default { description: 'd', parameters: { type: 'object', properties: {} }, execute }\n"))
	r := New(mem, Options{}).Inspect(context.Background(), filepath.FromSlash("/r"), module)
	if len(r.EnvReads) != 1 {
		t.Fatalf("reads %+v, want one", r.EnvReads)
	}
	e := r.EnvReads[0]
	if e.Name != "API_KEY" || e.File != lib || e.Range.Start.Line != 1 || e.Range.Start.Col != 9 {
		t.Errorf("read %+v, want API_KEY in %s at 2:10", e, lib)
	}
}

// An execute written as a function declaration (or a const bound to an
// arrow) and named in the default export is read where it is written.
func TestEnvReadsOfNamedFunction(t *testing.T) {
	tests := []struct{ name, src string }{
		{"declaration below", "export default { description: 'd', parameters: { type: 'object', properties: {} }, execute }\nasync function execute(args, context) { return context.env.API_KEY }\n"},
		{"declaration above", "function execute(args, context) { return context.env.API_KEY }\nexport default { description: 'd', parameters: { type: 'object', properties: {} }, execute }\n"},
		{"const arrow", "const run = async (args, context) => context.env.API_KEY\nexport default { description: 'd', parameters: { type: 'object', properties: {} }, execute: run }\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			module := filepath.FromSlash("/r/tools/m.ts")
			mem.WriteFile(module, []byte(tc.src))
			r := New(mem, Options{}).Inspect(context.Background(), filepath.FromSlash("/r"), module)
			if len(r.EnvReads) != 1 || r.EnvReads[0].Name != "API_KEY" {
				t.Fatalf("reads %+v, want API_KEY\n%s", r.EnvReads, tc.src)
			}
		})
	}
}
