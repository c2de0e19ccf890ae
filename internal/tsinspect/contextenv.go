package tsinspect

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// contextenv.go finds the names execute reads from `context.env` (SPEC
// section 8: the box's environment plus the secrets the calling agent gets
// now), on the syntax tree. The manifest engine holds them against each
// agent's `secrets:` (A4).

// EnvRead is one read of a name of execute's `context.env`.
type EnvRead struct {
	Name string
	// File is where the read is: the module, or the file execute is
	// imported from.
	File  string
	Range diag.Range // `context.env.NAME`, or NAME in a destructuring
}

// readContextEnv records execute's reads of `context.env`, where context
// is its second parameter whatever its name: `context.env.X`,
// `context.env?.X`, `context.env['X']`, `const { X } = context.env`,
// anywhere in the body (template literals, nested functions) where the
// name means that parameter. A second parameter destructured as `{ env }`
// or `{ env: e }` is read the same way through `env` (or `e`), and so is a
// `const` the body binds to it (`const env = context.env`,
// `const { env } = context`, `const { env: e } = context`).
func (c *checker) readContextEnv(x executeFn) {
	if len(x.params.List) < 2 {
		return
	}
	var ctx *js.Var
	envs := map[*js.Var]bool{}
	switch b := x.params.List[1].Binding.(type) {
	case *js.Var:
		ctx = b
	case *js.BindingObject:
		if v := envBinding(b); v != nil {
			envs[v] = true
		}
	}
	isCtx := func(e js.IExpr) bool {
		v, ok := e.(*js.Var)
		return ok && ctx != nil && jsfront.Root(v) == ctx
	}
	isEnv := func(e js.IExpr) bool {
		if v, ok := e.(*js.Var); ok {
			return envs[jsfront.Root(v)]
		}
		return isMember(e, isCtx, "env")
	}
	// the consts the body binds to the env
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		d, ok := n.(*js.VarDecl)
		if !ok || d.TokenType != js.ConstToken {
			return
		}
		for _, e := range d.List {
			switch b := e.Binding.(type) {
			case *js.Var:
				if e.Default != nil && isMember(e.Default, isCtx, "env") {
					envs[b] = true
				}
			case *js.BindingObject:
				if e.Default != nil && isCtx(e.Default) {
					if v := envBinding(b); v != nil {
						envs[v] = true
					}
				}
			}
		}
	}), x.body())
	if ctx == nil && len(envs) == 0 {
		return
	}
	var reads []memberRead
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		if d, ok := n.(*js.VarDecl); ok {
			for _, e := range d.List {
				if o, ok := e.Binding.(*js.BindingObject); ok && e.Default != nil && isEnv(e.Default) {
					rs, _ := patternReads(x.t, o)
					reads = append(reads, rs...)
				}
			}
			return
		}
		if r, ok := memberOf(x.t, n, isEnv); ok {
			reads = append(reads, r)
		}
	}), x.body())
	// the first read of each name, by name: what the manifest's A4 and the
	// hover use, kept once in the (shared, cached) result
	sortReads(reads)
	first := map[string]bool{}
	lines := c.linesOf(x.t.File)
	for _, r := range reads {
		if !first[r.name] {
			first[r.name] = true
			c.r.EnvReads = append(c.r.EnvReads, EnvRead{Name: r.name, File: x.t.File, Range: lines.Range(r.start, r.end)})
		}
	}
	slices.SortStableFunc(c.r.EnvReads, func(a, b EnvRead) int { return strings.Compare(a.Name, b.Name) })
}

// envBinding is the name `{ env }` or `{ env: e }` binds in an object
// pattern; nil when it binds none.
func envBinding(b *js.BindingObject) *js.Var {
	for _, it := range b.List {
		v, ok := it.Value.Binding.(*js.Var)
		if !ok {
			continue
		}
		if it.Key == nil && string(v.Data) == "env" || it.Key != nil && it.Key.Computed == nil && string(it.Key.Literal.Data) == "env" {
			return v
		}
	}
	return nil
}
