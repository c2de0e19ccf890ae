package tsinspect

import (
	"fmt"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsvalue"
)

// hints.go reads the module's code, on its syntax tree, for what the model
// and the daemon will do with it (SPEC section 8's contract and advice):
//
//   - `process.env.X` (M15, hint): a secret changed after the box started is
//     in `context.env`, not in `process.env`;
//   - `fetch(...)` in `execute` without a `signal` (M16, hint): pass
//     `context.signal`, so that stopping the turn stops the call;
//   - `args.x` read in `execute` where `x` is not among
//     `parameters.properties` (M17, warning): the model never sends it;
//   - a property `required` lists that `execute` never reads (M18, hint).
//
// Each is said only when the code shows it: an `args` passed on whole, a
// computed key, an options object held in a variable say nothing. Which
// binding a name means is the tree's: a nested function's own `args` or
// `fetch` is not execute's.

const (
	CodeProcessEnv     = "M15" // a read of process.env.X
	CodeFetchNoSignal  = "M16" // fetch() in execute without a signal
	CodeArgNotInSchema = "M17" // execute reads args.x, x not in properties
	CodeRequiredUnread = "M18" // a required property execute never reads
)

// checkProcessEnv reports every `process.env.X` of the module (`process`
// the global, not a binding of the module's own).
func (c *checker) checkProcessEnv() {
	t := c.tree
	if t == nil {
		return
	}
	var reads []memberRead
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		if r, ok := memberOf(t, n, func(x js.IExpr) bool { return isMember(x, isFree("process"), "env") }); ok {
			reads = append(reads, r)
		}
	}), t.AST)
	sortReads(reads)
	for _, r := range reads {
		c.add(t.File, r.start, r.end, diag.Hint, CodeProcessEnv, fmt.Sprintf(
			"`process.env.%s` is the box's environment when it started: a secret changed after the box started is in `context.env`, not in `process.env`; read `context.env.%s` in `execute(args, context)`",
			r.name, r.name))
	}
}

// checkFetchSignal reports execute's fetch() calls without a signal: one
// argument, or an options object literal without `signal` (nor a spread).
// Options held elsewhere are not known: nothing is said.
func (c *checker) checkFetchSignal(x executeFn) {
	var at []int
	var ends []int
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		call, ok := n.(*js.CallExpr)
		if !ok {
			return
		}
		var name []byte
		switch f := call.X.(type) {
		case *js.Var:
			if !isFree("fetch")(f) {
				return
			}
			name = f.Data
		case *js.DotExpr:
			lit, ok := f.Y.(js.LiteralExpr)
			if !ok || string(lit.Data) != "fetch" || !isFree("globalThis")(f.X) {
				return
			}
			name = lit.Data
		default:
			return
		}
		if len(call.Args.List) >= 2 {
			opts, ok := call.Args.List[1].Value.(*js.ObjectExpr)
			if !ok || hasProperty(opts, "signal") {
				return
			}
		}
		if start, end, ok := x.t.Span(name); ok {
			at, ends = append(at, start), append(ends, end)
		}
	}), x.body())
	for i := range at {
		c.add(x.t.File, at[i], ends[i], diag.Hint, CodeFetchNoSignal,
			"`fetch` without the turn's signal: pass `signal: context.signal` (`fetch(url, { signal: context.signal })`), so that stopping the turn stops the call")
	}
}

// hasProperty reports whether an object literal has key (`key:`, the shorthand
// `key`) or a spread, which may bring it.
func hasProperty(o *js.ObjectExpr, key string) bool {
	for _, p := range o.List {
		switch {
		case p.Spread:
			return true
		case p.Name != nil && p.Name.Computed == nil && string(p.Name.Literal.Data) == key:
			return true
		case p.Name == nil:
			if v, ok := p.Value.(*js.Var); ok && string(jsfront.Root(v).Data) == key {
				return true
			}
		}
	}
	return false
}

// checkArgs compares what execute reads of its arguments with the schema.
func (c *checker) checkArgs(x executeFn, params *jsvalue.Value) {
	if params == nil || params.Kind != jsvalue.VObject {
		return
	}
	props := params.Get("properties")
	if props == nil || props.Val.Kind != jsvalue.VObject || !props.Val.Complete {
		return
	}
	reads, whole := x.argReads()
	read := map[string]bool{}
	for _, r := range reads {
		read[r.name] = true
		if props.Val.Get(r.name) == nil {
			c.add(x.t.File, r.nameStart, r.nameEnd, diag.Warning, CodeArgNotInSchema, fmt.Sprintf(
				"`execute` reads `%s`, which `parameters.properties` does not define: the model never sends it; add it to the schema, or stop reading it", r.name))
		}
	}
	if whole {
		return
	}
	req := params.Get("required")
	if req == nil || req.Val.Kind != jsvalue.VArray || !req.Val.Complete {
		return
	}
	for _, it := range req.Val.Items {
		if it.Kind == jsvalue.VString && !read[it.Str] && props.Val.Get(it.Str) != nil {
			c.add(it.File, it.Start, it.End, diag.Hint, CodeRequiredUnread, fmt.Sprintf(
				"`%s` is required, but `execute` never reads it: the model must send it for nothing; read it, or drop it from `required`", it.Str))
		}
	}
}
