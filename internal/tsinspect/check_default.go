package tsinspect

import (
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsvalue"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// check_default.go checks the default export against the module contract
// of SPEC section 8: a plain object, its description, parameters and
// execute.

// checkDefault checks the default export's value against the module
// contract of SPEC section 8.
func (in *Inspector) checkDefault(c *checker, mod *jsvalue.File, v *jsvalue.Value) {
	module := c.module
	switch v.Kind {
	case jsvalue.VObject:
	case jsvalue.VCall:
		if isOldTool(v, c.ev.Files[v.File], in.harness) {
			msg := "the default export is the standard harness's `tool({ description, args, execute })`, which the daemon does not load: " + migrationSteps
			c.add(v.File, v.Start, v.End, diag.Error, CodeOldShape, msg)
			c.fail(v.File, v.Start, v.End, "the default export is the standard harness's tool({ ... }), not a plain object")
			return
		}
		c.r.Undecided = true
		c.add(v.File, v.Start, v.End, diag.Information, CodeNotStatic,
			fmt.Sprintf("the default export is computed by a call to %s(...) when the module runs: its description, parameters and execute cannot be known statically", v.Callee))
		return
	case jsvalue.VUnknown, jsvalue.VNamespace:
		why := v.Why
		if why == "" {
			why = "computed when the module runs"
		}
		c.r.Undecided = true
		c.add(v.File, v.Start, v.End, diag.Information, CodeNotStatic, "the default export cannot be known statically: "+why)
		return
	default:
		start, end := v.Start, v.End
		if v.File == module && end <= start {
			start, end = mod.Tok(mod.DefaultTok).Start, mod.Tok(mod.DefaultTok).End
		}
		c.add(v.File, start, end, diag.Error, CodeDefaultExport, fmt.Sprintf(
			"the default export is %s, not a plain object `{ description, parameters, execute }`: the daemon skips the module", v.Kind.Name()))
		c.fail(v.File, start, end, fmt.Sprintf("the default export is %s, not a plain object", v.Kind.Name()))
		return
	}
	obj := v
	brace := [2]int{obj.Start, obj.Start + 1}
	incompleteNoted := false
	missing := func(field string) bool {
		if obj.Complete {
			return true
		}
		if !incompleteNoted {
			incompleteNoted = true
			c.add(obj.File, brace[0], brace[1], diag.Information, CodeNotStatic,
				"the default export has keys that cannot be known statically (a spread, a computed key or a `__proto__`): fields it lacks are not reported")
		}
		return false
	}

	// description
	if p := obj.Get("description"); p == nil {
		if missing("description") {
			c.add(obj.File, brace[0], brace[1], diag.Error, CodeDescription,
				"the default export has no `description`: a non-empty string the model reads to decide when to call the tool")
		}
	} else {
		d := p.Val
		switch d.Kind {
		case jsvalue.VString:
			if strings.TrimSpace(d.Str) == "" {
				c.add(d.File, d.Start, d.End, diag.Error, CodeDescription,
					"`description` is empty: the model reads it to decide when to call the tool")
			} else {
				c.r.Description, c.r.DescriptionKnown = d.Str, true
			}
		case jsvalue.VUnknown, jsvalue.VCall, jsvalue.VNamespace:
			c.add(d.File, d.Start, d.End, diag.Information, CodeNotStatic,
				"`description` cannot be known statically: "+jsvalue.WhyOf(d))
		default:
			c.add(d.File, d.Start, d.End, diag.Error, CodeDescription,
				fmt.Sprintf("`description` is %s, not a string: it must be a non-empty string the model reads to decide when to call the tool", d.Kind.Name()))
		}
	}

	// parameters
	if p := obj.Get("parameters"); p == nil {
		if !obj.Complete {
			c.r.Undecided = true // a spread may bring it
		}
		if missing("parameters") {
			msg := "the default export has no `parameters`: the daemon skips a module whose `parameters` is not an object schema; add `parameters: { type: 'object', properties: { ... } }`"
			if a := obj.Get("args"); a != nil {
				msg += "; `args` is the standard harness's field: " + migrationSteps
			}
			c.add(obj.File, brace[0], brace[1], diag.Error, CodeParameters, msg)
			c.fail(obj.File, brace[0], brace[1], "no `parameters` (the daemon needs an object schema)")
		}
	} else {
		in.checkParameters(c, p)
	}

	// execute
	if p := obj.Get("execute"); p == nil {
		if missing("execute") {
			c.add(obj.File, brace[0], brace[1], diag.Error, CodeExecute,
				"the default export has no `execute(args, context)`: the function the daemon calls to run the tool")
		}
	} else {
		e := p.Val
		switch e.Kind {
		case jsvalue.VFunction:
			if x, ok := c.executeOf(in, c.res, e); ok {
				c.checkFetchSignal(x)
				c.readContextEnv(x)
				if pp := obj.Get("parameters"); pp != nil {
					c.checkArgs(x, pp.Val)
				}
			}
		case jsvalue.VUnknown, jsvalue.VCall, jsvalue.VNamespace:
			if e.Accessor {
				c.add(p.File, p.Start, p.End, diag.Information, CodeNotStatic, "`execute` is a getter: its value cannot be known statically")
			}
		default:
			c.add(e.File, e.Start, e.End, diag.Error, CodeExecute,
				fmt.Sprintf("`execute` is %s, not a function: write `async execute(args, context) { ... }`", e.Kind.Name()))
		}
	}
}

// isOldTool recognises `tool({ ... })` of the standard harness: the callee
// is `tool` imported from a harness package, or a `tool` call whose object
// has `args`.
func isOldTool(v *jsvalue.Value, mod *jsvalue.File, harness map[string]bool) bool {
	if v.CalleeRef != nil {
		name, _ := resolve.PackageName(v.CalleeRef.Spec)
		if harness[name] && v.CalleeRef.Name == "tool" {
			return true
		}
	}
	// an undeclared `tool` (its import deleted) with the old fields; a
	// `tool` the module declares or imports from its own files may well
	// build a plain object
	if v.Callee == "tool" && mod != nil && mod.Global(v.Start, "tool") && len(v.Args) == 1 && v.Args[0].Kind == jsvalue.VObject && v.Args[0].Get("args") != nil {
		return true
	}
	return false
}

func (in *Inspector) checkParameters(c *checker, p *jsvalue.Prop) {
	v := p.Val
	switch v.Kind {
	case jsvalue.VObject:
	case jsvalue.VUnknown, jsvalue.VCall, jsvalue.VNamespace:
		msg := "`parameters` cannot be known statically: " + jsvalue.WhyOf(v)
		if v.Kind == jsvalue.VCall {
			msg = fmt.Sprintf("`parameters` is computed by %s(...) when the module runs: the schema cannot be known statically (its imports are checked)", v.Callee)
		}
		c.r.Undecided = true
		c.add(v.File, v.Start, v.End, diag.Information, CodeNotStatic, msg)
		return
	default:
		msg := fmt.Sprintf("`parameters` is %s, not an object schema: the daemon skips the module; write `{ type: 'object', properties: { ... } }`", v.Kind.Name())
		c.add(v.File, v.Start, v.End, diag.Error, CodeParameters, msg)
		c.fail(v.File, v.Start, v.End, "`parameters` is not an object schema")
		return
	}
	typ := v.Get("type")
	switch {
	case typ == nil && v.Complete:
		c.add(p.File, p.Start, p.End, diag.Error, CodeParameters,
			"`parameters` has no `type: 'object'`: the daemon skips a module whose `parameters` is not an object schema")
		c.fail(p.File, p.Start, p.End, "`parameters` is not an object schema (no `type: 'object'`)")
	case typ == nil:
		c.r.Undecided = true // a spread may bring it
	case typ.Val.Kind == jsvalue.VString && typ.Val.Str == "object":
	case typ.Val.Kind == jsvalue.VUnknown || typ.Val.Kind == jsvalue.VCall:
		c.r.Undecided = true
		c.add(typ.Val.File, typ.Val.Start, typ.Val.End, diag.Information, CodeNotStatic,
			"`parameters.type` cannot be known statically: "+jsvalue.WhyOf(typ.Val))
	default:
		what := typ.Val.Kind.Name()
		if typ.Val.Kind == jsvalue.VString {
			what = fmt.Sprintf("'%s'", typ.Val.Str)
		}
		c.add(typ.Val.File, typ.Val.Start, typ.Val.End, diag.Error, CodeParameters,
			fmt.Sprintf("`parameters.type` is %s: a tool's parameters must be an object schema, `type: 'object'`", what))
		c.fail(typ.Val.File, typ.Val.Start, typ.Val.End, "`parameters` is not an object schema (its type is not 'object')")
	}

	props := v.Get("properties")
	var propsObj *jsvalue.Value
	if props != nil && props.Val.Kind == jsvalue.VObject {
		propsObj = props.Val
		for _, pp := range propsObj.Props {
			if pp.Key == "" {
				continue
			}
			s := pp.Val
			if s.Kind == jsvalue.VObject && s.Complete && s.Get("description") == nil {
				c.add(pp.File, pp.Start, pp.End, diag.Hint, CodePropDescription,
					fmt.Sprintf("property `%s` has no `description`: the model reads it to know what to pass", pp.Key))
			}
		}
	}
	if req := v.Get("required"); req != nil && req.Val.Kind == jsvalue.VArray && propsObj != nil && propsObj.Complete {
		for _, it := range req.Val.Items {
			if it.Kind != jsvalue.VString {
				continue
			}
			if propsObj.Get(it.Str) == nil {
				c.add(it.File, it.Start, it.End, diag.Warning, CodeRequired,
					fmt.Sprintf("`required` names `%s`, which `properties` does not define", it.Str))
			}
		}
	}
	j, parts, ok := jsvalue.ToJSON(v)
	if ok {
		c.r.Parameters = j
	}
	for _, u := range parts {
		if u.Path == "" && u.Keys {
			continue // said for the default export's fields already, when it matters
		}
		c.r.ParametersUnknown = append(c.r.ParametersUnknown, UnknownValue{Path: u.Path, Why: u.Why})
		if u.Path == "type" {
			continue // reported above
		}
		what := "`parameters." + u.Path + "`"
		if u.Path == "" {
			what = "`parameters`"
		}
		c.add(u.File, u.Start, u.End, diag.Information, CodeNotStatic, what+" cannot be known statically: "+u.Why+
			"; the rest of the schema is checked and shown")
	}
}
