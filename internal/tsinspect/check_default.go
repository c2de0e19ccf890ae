package tsinspect

import (
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// check_default.go checks the default export against the module contract
// of SPEC section 8: a plain object, its description, parameters and
// execute.

// checkDefault checks the default export's value against the module
// contract of SPEC section 8.
func (in *Inspector) checkDefault(c *checker, mod *modFile, v *value) {
	module := c.module
	switch v.kind {
	case vObject:
	case vCall:
		if isOldTool(v, c.ev.files[v.file], in.harness) {
			msg := "the default export is the standard harness's `tool({ description, args, execute })`, which the daemon does not load: " + migrationSteps
			c.add(v.file, v.start, v.end, diag.Error, CodeOldShape, msg)
			c.fail(v.file, v.start, v.end, "the default export is the standard harness's tool({ ... }), not a plain object")
			return
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic,
			fmt.Sprintf("the default export is computed by a call to %s(...) when the module runs: its description, parameters and execute cannot be known statically", v.callee))
		return
	case vUnknown, vNamespace:
		why := v.why
		if why == "" {
			why = "computed when the module runs"
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic, "the default export cannot be known statically: "+why)
		return
	default:
		start, end := v.start, v.end
		if v.file == module && end <= start {
			start, end = mod.tok(mod.defaultTok).Start, mod.tok(mod.defaultTok).End
		}
		c.add(v.file, start, end, diag.Error, CodeDefaultExport, fmt.Sprintf(
			"the default export is %s, not a plain object `{ description, parameters, execute }`: the daemon skips the module", v.kind.name()))
		c.fail(v.file, start, end, fmt.Sprintf("the default export is %s, not a plain object", v.kind.name()))
		return
	}
	obj := v
	brace := [2]int{obj.start, obj.start + 1}
	incompleteNoted := false
	missing := func(field string) bool {
		if obj.complete {
			return true
		}
		if !incompleteNoted {
			incompleteNoted = true
			c.add(obj.file, brace[0], brace[1], diag.Information, CodeNotStatic,
				"the default export has keys that cannot be known statically (a spread, a computed key or a `__proto__`): fields it lacks are not reported")
		}
		return false
	}

	// description
	if p := obj.get("description"); p == nil {
		if missing("description") {
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeDescription,
				"the default export has no `description`: a non-empty string the model reads to decide when to call the tool")
		}
	} else {
		d := p.val
		switch d.kind {
		case vString:
			if strings.TrimSpace(d.str) == "" {
				c.add(d.file, d.start, d.end, diag.Error, CodeDescription,
					"`description` is empty: the model reads it to decide when to call the tool")
			} else {
				c.r.Description, c.r.DescriptionKnown = d.str, true
			}
		case vUnknown, vCall, vNamespace:
			c.add(d.file, d.start, d.end, diag.Information, CodeNotStatic,
				"`description` cannot be known statically: "+whyOf(d))
		default:
			c.add(d.file, d.start, d.end, diag.Error, CodeDescription,
				fmt.Sprintf("`description` is %s, not a string: it must be a non-empty string the model reads to decide when to call the tool", d.kind.name()))
		}
	}

	// parameters
	if p := obj.get("parameters"); p == nil {
		if !obj.complete {
			c.r.Undecided = true // a spread may bring it
		}
		if missing("parameters") {
			msg := "the default export has no `parameters`: the daemon skips a module whose `parameters` is not an object schema; add `parameters: { type: 'object', properties: { ... } }`"
			if a := obj.get("args"); a != nil {
				msg += "; `args` is the standard harness's field: " + migrationSteps
			}
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeParameters, msg)
			c.fail(obj.file, brace[0], brace[1], "no `parameters` (the daemon needs an object schema)")
		}
	} else {
		in.checkParameters(c, p)
	}

	// execute
	if p := obj.get("execute"); p == nil {
		if missing("execute") {
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeExecute,
				"the default export has no `execute(args, context)`: the function the daemon calls to run the tool")
		}
	} else {
		e := p.val
		switch e.kind {
		case vFunction:
			if x, ok := c.executeOf(in, c.res, e); ok {
				c.checkFetchSignal(x)
				c.readContextEnv(x)
				if pp := obj.get("parameters"); pp != nil {
					c.checkArgs(x, pp.val)
				}
			}
		case vUnknown, vCall, vNamespace:
			if e.accessor {
				c.add(p.file, p.start, p.end, diag.Information, CodeNotStatic, "`execute` is a getter: its value cannot be known statically")
			}
		default:
			c.add(e.file, e.start, e.end, diag.Error, CodeExecute,
				fmt.Sprintf("`execute` is %s, not a function: write `async execute(args, context) { ... }`", e.kind.name()))
		}
	}
}

// isOldTool recognises `tool({ ... })` of the standard harness: the callee
// is `tool` imported from a harness package, or a `tool` call whose object
// has `args`.
func isOldTool(v *value, mod *modFile, harness map[string]bool) bool {
	if v.calleeRef != nil {
		name, _ := resolve.PackageName(v.calleeRef.spec)
		if harness[name] && v.calleeRef.name == "tool" {
			return true
		}
	}
	// an undeclared `tool` (its import deleted) with the old fields; a
	// `tool` the module declares or imports from its own files may well
	// build a plain object
	if v.callee == "tool" && mod != nil && mod.global(v.start, "tool") && len(v.args) == 1 && v.args[0].kind == vObject && v.args[0].get("args") != nil {
		return true
	}
	return false
}

func (in *Inspector) checkParameters(c *checker, p *prop) {
	v := p.val
	switch v.kind {
	case vObject:
	case vUnknown, vCall, vNamespace:
		msg := "`parameters` cannot be known statically: " + whyOf(v)
		if v.kind == vCall {
			msg = fmt.Sprintf("`parameters` is computed by %s(...) when the module runs: the schema cannot be known statically (its imports are checked)", v.callee)
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic, msg)
		return
	default:
		msg := fmt.Sprintf("`parameters` is %s, not an object schema: the daemon skips the module; write `{ type: 'object', properties: { ... } }`", v.kind.name())
		c.add(v.file, v.start, v.end, diag.Error, CodeParameters, msg)
		c.fail(v.file, v.start, v.end, "`parameters` is not an object schema")
		return
	}
	typ := v.get("type")
	switch {
	case typ == nil && v.complete:
		c.add(p.file, p.start, p.end, diag.Error, CodeParameters,
			"`parameters` has no `type: 'object'`: the daemon skips a module whose `parameters` is not an object schema")
		c.fail(p.file, p.start, p.end, "`parameters` is not an object schema (no `type: 'object'`)")
	case typ == nil:
		c.r.Undecided = true // a spread may bring it
	case typ.val.kind == vString && typ.val.str == "object":
	case typ.val.kind == vUnknown || typ.val.kind == vCall:
		c.r.Undecided = true
		c.add(typ.val.file, typ.val.start, typ.val.end, diag.Information, CodeNotStatic,
			"`parameters.type` cannot be known statically: "+whyOf(typ.val))
	default:
		what := typ.val.kind.name()
		if typ.val.kind == vString {
			what = fmt.Sprintf("'%s'", typ.val.str)
		}
		c.add(typ.val.file, typ.val.start, typ.val.end, diag.Error, CodeParameters,
			fmt.Sprintf("`parameters.type` is %s: a tool's parameters must be an object schema, `type: 'object'`", what))
		c.fail(typ.val.file, typ.val.start, typ.val.end, "`parameters` is not an object schema (its type is not 'object')")
	}

	props := v.get("properties")
	var propsObj *value
	if props != nil && props.val.kind == vObject {
		propsObj = props.val
		for _, pp := range propsObj.props {
			if pp.key == "" {
				continue
			}
			s := pp.val
			if s.kind == vObject && s.complete && s.get("description") == nil {
				c.add(pp.file, pp.start, pp.end, diag.Hint, CodePropDescription,
					fmt.Sprintf("property `%s` has no `description`: the model reads it to know what to pass", pp.key))
			}
		}
	}
	if req := v.get("required"); req != nil && req.val.kind == vArray && propsObj != nil && propsObj.complete {
		for _, it := range req.val.items {
			if it.kind != vString {
				continue
			}
			if propsObj.get(it.str) == nil {
				c.add(it.file, it.start, it.end, diag.Warning, CodeRequired,
					fmt.Sprintf("`required` names `%s`, which `properties` does not define", it.str))
			}
		}
	}
	j, parts, ok := toJSON(v)
	if ok {
		c.r.Parameters = j
	}
	for _, u := range parts {
		if u.path == "" && u.keys {
			continue // said for the default export's fields already, when it matters
		}
		c.r.ParametersUnknown = append(c.r.ParametersUnknown, UnknownValue{Path: u.path, Why: u.why})
		if u.path == "type" {
			continue // reported above
		}
		what := "`parameters." + u.path + "`"
		if u.path == "" {
			what = "`parameters`"
		}
		c.add(u.file, u.start, u.end, diag.Information, CodeNotStatic, what+" cannot be known statically: "+u.why+
			"; the rest of the schema is checked and shown")
	}
}
