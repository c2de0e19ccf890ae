package loadtime

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// loadwalk.go follows, on a file's syntax tree, what surely runs when the
// file loads, in the order it runs: the statements of module scope, the
// expressions they evaluate, the bodies of the functions called then (an
// immediately called function, a hoisted declaration called at load, a
// class's static parts and, at `new`, its fields and constructor). What
// runs only if something holds (a branch, a loop's body, `&&`, `?:`,
// `?.`, a `try` block, code after a possible `return`) is not followed:
// an error there is not sure.
//
// It records the reads of names (to find a name declared nowhere and a
// binding read before its declaration ran), the calls (require(),
// import(), readFileSync()) and the `throw`s reached.

// loadStop is the error that surely stops a file's loading, found by the
// walk: the read of a name declared nowhere, or of a binding before its
// declaration ran.
type loadStop struct {
	at     *js.Var       // the read (its Data slices the JavaScript), or nil
	thrown *js.ThrowStmt // or the `throw` that runs
	msg    string        // in Bun's words
}

// loadThrow is a `throw` reached at load.
type loadThrow struct {
	stmt *js.ThrowStmt
	sure bool // it runs whenever the file loads
}

type loadWalker struct {
	t *jsfront.Tree
	// lexical holds the let and const bindings of module scope;
	// ready those whose declaration ran
	lexical, ready map[*js.Var]bool
	// inlined are the consts Bun's transpiler writes as their value where
	// the text reads them after their declaration
	inlined map[*js.Var]bool
	funcs   map[*js.Var]*js.FuncDecl // function declarations of module scope
	classes map[*js.Var]*js.ClassDecl
	depth   int
	calls   []*js.CallExpr // the calls that surely run
	awaited map[*js.CallExpr]bool
	inits   map[*js.Var]js.IExpr // the initializers of module-scope names
	throws  []loadThrow
	stop    *loadStop
	// globals are the names the file may define as globals
	// (`globalThis.x = ...`): reading one is not an error
	globals map[string]bool
	// imported are the names the file's imports bind (the parser leaves
	// them undeclared)
	imported map[string]bool
	// commonJS is set for a file without import or export statements:
	// Bun runs it in a function, whose `arguments` it may read
	commonJS bool
	// sideEffects is set by an import of a file for its effects only
	// (`import './setup'`), which may define any global
	sideEffects bool
	// followed are the function bodies already followed: a body runs the
	// same reads at every call, and the first call runs first
	followed map[any]bool
	follows  int // the bodies walked, each once (what keeps the walk linear)
}

// maxFollowDepth bounds the function bodies followed into one another.
const maxFollowDepth = 16

// Walk runs the walk over t.
func Walk(t *jsfront.Tree) *loadWalker {
	w := &loadWalker{
		t:       t,
		lexical: map[*js.Var]bool{}, ready: map[*js.Var]bool{}, inlined: map[*js.Var]bool{},
		funcs: map[*js.Var]*js.FuncDecl{}, classes: map[*js.Var]*js.ClassDecl{},
		globals: assignedGlobals(t),
		awaited: map[*js.CallExpr]bool{}, inits: map[*js.Var]js.IExpr{},
		imported: map[string]bool{}, followed: map[any]bool{},
	}
	w.commonJS = true
	for _, s := range t.AST.List {
		w.declare(s)
		switch s.(type) {
		case *js.ImportStmt, *js.ExportStmt:
			w.commonJS = false
		}
	}
	w.stmts(t.AST.List, true)
	return w
}

// declare notes the bindings a statement of module scope declares.
func (w *loadWalker) declare(s js.IStmt) {
	switch n := s.(type) {
	case *js.ImportStmt:
		if n.Default == nil && n.List == nil {
			w.sideEffects = true
		}
		if n.Default != nil {
			w.imported[string(n.Default)] = true
		}
		for _, al := range n.List {
			w.imported[string(al.Binding)] = true
		}
	case *js.ExportStmt:
		if n.Decl != nil {
			if st, ok := n.Decl.(js.IStmt); ok {
				w.declare(st)
			}
		}
	case *js.VarDecl:
		for _, e := range n.List {
			if v, ok := e.Binding.(*js.Var); ok && e.Default != nil {
				w.inits[v] = e.Default
			}
			if n.TokenType == js.LetToken || n.TokenType == js.ConstToken {
				for _, v := range jsfront.BoundVars(e.Binding, nil) {
					w.lexical[v] = true
					w.inlined[v] = n.TokenType == js.ConstToken && inlinedConst(e)
				}
			}
		}
	case *js.ClassDecl:
		// Bun's transpiler hoists a class of module scope: reading it
		// before its declaration does not throw (held to Bun)
		if n.Name != nil {
			w.classes[n.Name] = n
		}
	case *js.FuncDecl:
		if n.Name != nil {
			w.funcs[n.Name] = n
		}
	}
}

func (w *loadWalker) stopped() bool { return w.stop != nil }

// stmts walks a statement list; sure tells whether it surely runs. After
// a statement that may return, what follows may not run.
func (w *loadWalker) stmts(list []js.IStmt, sure bool) {
	for _, s := range list {
		if w.stopped() {
			return
		}
		w.stmt(s, sure)
		if sure && mayLeave(s) {
			sure = false
		}
	}
}

func (w *loadWalker) stmt(s js.IStmt, sure bool) {
	switch n := s.(type) {
	case *js.ExprStmt:
		w.expr(n.Value, sure)
	case *js.VarDecl:
		w.varDecl(n, sure)
	case *js.ClassDecl:
		w.class(n, sure)
	case *js.ExportStmt:
		switch d := n.Decl.(type) {
		case nil, *js.FuncDecl:
		case js.IStmt:
			w.stmt(d, sure)
		default:
			w.expr(n.Decl, sure) // export default <expression>
		}
	case *js.BlockStmt:
		if n != nil {
			w.stmts(n.List, sure)
		}
	case *js.IfStmt:
		w.expr(n.Cond, sure)
		w.stmt(n.Body, false)
		w.stmt(n.Else, false)
	case *js.ForStmt:
		w.expr(n.Init, sure)
		w.expr(n.Cond, sure)
		w.stmt(n.Body, false)
		w.expr(n.Post, false)
	case *js.ForInStmt:
		w.expr(n.Value, sure)
		w.stmt(n.Body, false)
	case *js.ForOfStmt:
		w.expr(n.Value, sure)
		w.stmt(n.Body, false)
	case *js.WhileStmt:
		w.expr(n.Cond, sure)
		w.stmt(n.Body, false)
	case *js.DoWhileStmt:
		w.stmt(n.Body, false)
		w.expr(n.Cond, false)
	case *js.SwitchStmt:
		w.expr(n.Init, sure)
		for i := range n.List {
			w.expr(n.List[i].Cond, false)
			w.stmts(n.List[i].List, false)
		}
	case *js.TryStmt:
		// an error in the block is caught
		w.stmt(n.Body, false)
		w.stmt(n.Catch, false)
		w.stmt(n.Finally, sure)
	case *js.LabelledStmt:
		w.stmt(n.Value, false)
	case *js.WithStmt:
		w.expr(n.Cond, sure)
		w.stmt(n.Body, false)
	case *js.ThrowStmt:
		w.expr(n.Value, sure)
		if w.stopped() {
			return
		}
		w.throws = append(w.throws, loadThrow{stmt: n, sure: sure})
		if sure {
			w.stop = &loadStop{thrown: n, msg: thrownMessage(n)}
		}
	case *js.ReturnStmt:
		w.expr(n.Value, sure)
	}
}

func (w *loadWalker) varDecl(n *js.VarDecl, sure bool) {
	for i := range n.List {
		e := &n.List[i]
		w.expr(e.Default, sure)
		w.pattern(e.Binding, sure)
		if sure {
			for _, v := range jsfront.BoundVars(e.Binding, nil) {
				w.ready[v] = true
			}
		}
	}
}

// pattern walks what a destructuring evaluates: computed keys surely,
// default values only when a value is missing.
func (w *loadWalker) pattern(b js.IBinding, sure bool) {
	switch n := b.(type) {
	case *js.BindingArray:
		for _, e := range n.List {
			w.expr(e.Default, false)
			w.pattern(e.Binding, sure)
		}
	case *js.BindingObject:
		for _, it := range n.List {
			if it.Key != nil && it.Key.Computed != nil {
				w.expr(it.Key.Computed, sure)
			}
			w.expr(it.Value.Default, false)
			w.pattern(it.Value.Binding, sure)
		}
	}
}

// class walks what evaluating a class runs: `extends`, computed keys,
// static fields and static blocks.
func (w *loadWalker) class(c *js.ClassDecl, sure bool) {
	w.expr(c.Extends, sure)
	for i := range c.List {
		el := &c.List[i]
		switch {
		case el.StaticBlock != nil:
			w.stmts(el.StaticBlock.List, sure)
		case el.Method != nil:
			if k := el.Method.Name.Computed; k != nil {
				w.expr(k, sure)
			}
		default:
			if k := el.Field.Name.Computed; k != nil {
				w.expr(k, sure)
			}
			if el.Field.Static {
				w.expr(el.Field.Init, sure)
			}
		}
	}
}

// instance walks what `new` of a class of the file runs: its fields'
// initializers and its constructor.
func (w *loadWalker) instance(c *js.ClassDecl, sure bool) {
	if !sure || w.followed[c] || w.depth >= maxFollowDepth {
		return
	}
	w.followed[c] = true
	w.follows++
	w.depth++
	defer func() { w.depth-- }()
	for i := range c.List {
		el := &c.List[i]
		if el.StaticBlock == nil && el.Method == nil && !el.Field.Static {
			w.expr(el.Field.Init, sure)
		}
	}
	for i := range c.List {
		if m := c.List[i].Method; m != nil && !m.Static && string(m.Name.Literal.Data) == "constructor" {
			w.stmts(m.Body.List, sure)
		}
	}
}

// follow walks the body of a function called when it surely runs (not an
// async function past its first statement, nor a generator, whose body
// does not run at the call).
func (w *loadWalker) follow(key any, async, generator bool, body []js.IStmt, sure bool) {
	if !sure || generator || async || w.followed[key] || w.depth >= maxFollowDepth {
		return
	}
	w.followed[key] = true
	w.follows++
	w.depth++
	defer func() { w.depth-- }()
	w.stmts(body, true)
}

func (w *loadWalker) read(v *js.Var, sure, typeOf bool) {
	if !sure || w.stopped() {
		return
	}
	r := jsfront.Root(v)
	switch {
	case w.lexical[r] && !w.ready[r] && !(w.inlined[r] && w.readsAfter(v, r)):
		w.stop = &loadStop{at: v, msg: "Cannot access '" + string(r.Data) + "' before initialization"}
	case r.Decl == js.NoDecl && !typeOf:
		name := string(r.Data)
		if !IsBunGlobal(name) && !w.globals[name] && !w.imported[name] && !w.sideEffects && !(w.commonJS && name == "arguments") {
			w.stop = &loadStop{at: v, msg: name + " is not defined"}
		}
	}
}

// expr walks an expression evaluated when sure holds.
func (w *loadWalker) expr(e js.IExpr, sure bool) {
	if e == nil || w.stopped() {
		return
	}
	switch n := e.(type) {
	case *js.Var:
		w.read(n, sure, false)
	case *js.GroupExpr:
		w.expr(n.X, sure)
	case *js.CommaExpr:
		for _, x := range n.List {
			w.expr(x, sure)
		}
	case *js.ArrayExpr:
		for _, el := range n.List {
			w.expr(el.Value, sure)
		}
	case *js.ObjectExpr:
		for _, p := range n.List {
			if p.Name != nil && p.Name.Computed != nil {
				w.expr(p.Name.Computed, sure)
			}
			if _, ok := p.Value.(*js.MethodDecl); !ok {
				w.expr(p.Value, sure)
			}
			w.expr(p.Init, false)
		}
	case *js.TemplateExpr:
		w.expr(n.Tag, sure)
		for _, p := range n.List {
			w.expr(p.Expr, sure && !n.Optional)
		}
	case *js.DotExpr:
		w.expr(n.X, sure)
	case *js.IndexExpr:
		w.expr(n.X, sure)
		w.expr(n.Y, sure && !n.Optional && !optionalChain(n.X))
	case *js.CallExpr:
		w.call(n, sure)
	case *js.NewExpr:
		w.expr(n.X, sure)
		if n.Args != nil {
			for _, a := range n.Args.List {
				w.expr(a.Value, sure)
			}
		}
		if v, ok := n.X.(*js.Var); ok {
			if c := w.classes[jsfront.Root(v)]; c != nil {
				w.instance(c, sure)
			}
		}
	case *js.UnaryExpr:
		if v, ok := n.X.(*js.Var); ok && n.Op == js.TypeofToken {
			w.read(v, sure, true)
			return
		}
		if _, ok := n.X.(*js.Var); ok && n.Op == js.DeleteToken {
			return // `delete x` reads nothing (and of a name declared nowhere, is true)
		}
		if call, ok := unparen(n.X).(*js.CallExpr); ok && n.Op == js.AwaitToken {
			w.awaited[call] = true
		}
		w.expr(n.X, sure)
	case *js.BinaryExpr:
		w.binary(n, sure)
	case *js.CondExpr:
		w.expr(n.Cond, sure)
		w.expr(n.X, false)
		w.expr(n.Y, false)
	case *js.YieldExpr:
		w.expr(n.X, sure)
	case *js.ClassDecl:
		w.class(n, sure)
	}
}

func (w *loadWalker) binary(n *js.BinaryExpr, sure bool) {
	switch n.Op {
	case js.AndToken, js.OrToken, js.NullishToken:
		w.expr(n.X, sure)
		w.expr(n.Y, false)
	case js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		w.target(n.X, sure, true)
		w.expr(n.Y, false)
	case js.EqToken:
		w.expr(n.Y, sure)
		w.target(n.X, sure, false)
	case js.AddEqToken, js.SubEqToken, js.MulEqToken, js.DivEqToken, js.ModEqToken, js.ExpEqToken,
		js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken, js.BitOrEqToken, js.BitXorEqToken:
		w.target(n.X, sure, true)
		w.expr(n.Y, sure)
	default:
		w.expr(n.X, sure)
		w.expr(n.Y, sure)
	}
}

// target walks an assignment's left side: the object of a member is read;
// a name is read only by a compound assignment (a plain one writes it).
func (w *loadWalker) target(x js.IExpr, sure, reads bool) {
	switch n := x.(type) {
	case *js.Var:
		if reads {
			w.read(n, sure, false)
		}
	case *js.DotExpr:
		w.expr(n.X, sure)
	case *js.IndexExpr:
		w.expr(n.X, sure)
		w.expr(n.Y, sure)
	}
}

func (w *loadWalker) call(n *js.CallExpr, sure bool) {
	w.expr(n.X, sure)
	argsSure := sure && !n.Optional && !optionalChain(n.X)
	for _, a := range n.Args.List {
		w.expr(a.Value, argsSure)
	}
	if w.stopped() || !argsSure {
		return
	}
	w.calls = append(w.calls, n)
	switch f := unparen(n.X).(type) {
	case *js.ArrowFunc:
		w.follow(f, f.Async, false, f.Body.List, sure)
	case *js.FuncDecl:
		w.follow(f, f.Async, f.Generator, f.Body.List, sure)
	case *js.Var:
		if d := w.funcs[jsfront.Root(f)]; d != nil {
			w.follow(d, d.Async, d.Generator, d.Body.List, sure)
		}
	}
}
