package tsinspect

import (
	"fmt"
	"regexp"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// hints.go reads the module's code for what the model and the daemon will
// do with it (SPEC section 8's contract and advice):
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
// computed key, an options object held in a variable say nothing.

const (
	CodeProcessEnv     = "M15" // a read of process.env.X
	CodeFetchNoSignal  = "M16" // fetch() in execute without a signal
	CodeArgNotInSchema = "M17" // execute reads args.x, x not in properties
	CodeRequiredUnread = "M18" // a required property execute never reads
)

// checkProcessEnv reports every `process.env.X` of the module.
func (c *checker) checkProcessEnv(m *modFile) {
	for i := 0; i+3 < len(m.toks); i++ {
		if !m.isIdent(i, "process") || m.isPunct(i-1, ".") || !m.isPunct(i+1, ".") || !m.isIdent(i+2, "env") {
			continue
		}
		var name token
		end := 0
		switch {
		case (m.isPunct(i+3, ".") || m.isPunct(i+3, "?.")) && m.tok(i+4).kind == tokIdent:
			name, end = m.tok(i+4), m.tok(i+4).end
		case m.isPunct(i+3, "[") && m.tok(i+4).kind == tokString && m.isPunct(i+5, "]"):
			name, end = m.tok(i+4), m.tok(i+5).end
		default:
			continue
		}
		c.add(m.path, m.tok(i).start, end, diag.Hint, CodeProcessEnv, fmt.Sprintf(
			"`process.env.%s` is the box's environment when it started: a secret changed after the box started is in `context.env`, not in `process.env`; read `context.env.%s` in `execute(args, context)`",
			name.text, name.text))
	}
}

// executeCode is the parameter list and body of execute, as token indices
// of its file.
type executeCode struct {
	m                  *modFile
	open, close        int // the parameter list's ( and )
	bodyStart, bodyEnd int // the body's tokens
}

// findExecute locates the function value of execute in its file.
func (e *evaluator) findExecute(v *value) (executeCode, bool) {
	m := e.files[v.file]
	if m == nil || v.kind != vFunction {
		return executeCode{}, false
	}
	i := 0
	for i < len(m.toks) && m.toks[i].start < v.start {
		i++
	}
	for i < len(m.toks) && m.toks[i].start < v.end && !m.isPunct(i, "(") {
		if m.isPunct(i, "=>") {
			return executeCode{}, false // `args => ...`: one parameter without parentheses
		}
		i++
	}
	if !m.isPunct(i, "(") {
		return executeCode{}, false
	}
	close := matching(m.toks, i)
	end := close + 1
	for end < len(m.toks) && m.toks[end].end <= v.end {
		end++
	}
	return executeCode{m: m, open: i, close: close, bodyStart: close + 1, bodyEnd: end}, true
}

// checkFetchSignal reports fetch() calls of execute without a signal.
func (c *checker) checkFetchSignal(x executeCode) {
	m := x.m
	for i := x.bodyStart; i < x.bodyEnd; i++ {
		if !m.isIdent(i, "fetch") || !m.isPunct(i+1, "(") || m.isPunct(i-1, ".") && !m.isIdent(i-2, "globalThis") {
			continue
		}
		close := matching(m.toks, i+1)
		// the arguments: the URL, then maybe an options object literal
		comma := -1
		depth := 0
		for k := i + 2; k < close; k++ {
			t := m.tok(k)
			if t.kind == tokPunct {
				depth += nesting(t.text)
				if t.text == "," && depth == 0 && comma < 0 {
					comma = k
				}
			}
		}
		if comma >= 0 && !m.isPunct(comma+1, ")") {
			opts := comma + 1
			if !m.isPunct(opts, "{") {
				continue // options held elsewhere: not known
			}
			if hasKeyAtTop(m, opts, "signal") || hasSpreadAtTop(m, opts) {
				continue
			}
		}
		t := m.tok(i)
		c.add(m.path, t.start, t.end, diag.Hint, CodeFetchNoSignal,
			"`fetch` without the turn's signal: pass `signal: context.signal` (`fetch(url, { signal: context.signal })`), so that stopping the turn stops the call")
	}
}

// hasKeyAtTop reports whether the object literal at open has key at its
// top level (`key:` or the shorthand `key`).
func hasKeyAtTop(m *modFile, open int, key string) bool {
	close := matching(m.toks, open)
	depth := 0
	for k := open + 1; k < close; k++ {
		t := m.tok(k)
		if t.kind == tokPunct {
			depth += nesting(t.text)
			continue
		}
		if depth == 0 && (t.kind == tokIdent || t.kind == tokString) && t.text == key && !m.isPunct(k-1, ".") {
			return true
		}
	}
	return false
}

func hasSpreadAtTop(m *modFile, open int) bool {
	close := matching(m.toks, open)
	depth := 0
	for k := open + 1; k < close; k++ {
		t := m.tok(k)
		if t.kind != tokPunct {
			continue
		}
		if depth += nesting(t.text); t.text == "..." && depth == 0 {
			return true
		}
	}
	return false
}

// argReads finds what execute reads of its first parameter: the names read
// (`args.x`, `args['x']`, `{ x } = args`, a destructured parameter) with
// their token, and whether it is used in any other way (passed on whole, a
// computed key), in which case unread names say nothing.
func argReads(x executeCode) (reads []token, whole bool) {
	m := x.m
	first := m.tok(x.open + 1)
	if first.kind == tokPunct && first.text == "{" {
		// execute({ a, b: alias, ...rest })
		close := matching(m.toks, x.open+1)
		for _, k := range patternKeys(m, x.open+1, close) {
			reads = append(reads, m.tok(k))
		}
		for k := x.open + 2; k < close && !whole; k++ {
			whole = m.isPunct(k, "...") // a rest element, at any depth
		}
		return reads, whole
	}
	if first.kind != tokIdent {
		return nil, true
	}
	name := first.text
	word := regexp.MustCompile(`(^|[^\w$.])` + regexp.QuoteMeta(name) + `\b(\s*(?:\?\.|\.)\s*([A-Za-z_$][\w$]*))?`)
	for k := x.bodyStart; k < x.bodyEnd; k++ {
		t := m.tok(k)
		if t.kind == tokTemplate && t.subst {
			// the lexer keeps a template whole: read its substitutions' text
			raw := m.src[t.start:t.end]
			for _, loc := range word.FindAllSubmatchIndex(raw, -1) {
				if loc[6] < 0 {
					whole = true
					continue
				}
				reads = append(reads, token{kind: tokIdent, text: string(raw[loc[6]:loc[7]]), start: t.start + loc[6], end: t.start + loc[7]})
			}
			continue
		}
		if t.kind != tokIdent || t.text != name || m.isPunct(k-1, ".") || m.isPunct(k-1, "?.") {
			continue
		}
		switch n := m.tok(k + 1); {
		case n.kind == tokPunct && (n.text == "." || n.text == "?.") && m.tok(k+2).kind == tokIdent && m.isPunct(k+3, "("):
			whole = true // a method of the arguments object (`args.hasOwnProperty(...)`)
		case n.kind == tokPunct && (n.text == "." || n.text == "?.") && m.tok(k+2).kind == tokIdent:
			reads = append(reads, m.tok(k+2))
		case n.kind == tokPunct && n.text == "[" && m.tok(k+2).kind == tokString && m.isPunct(k+3, "]"):
			reads = append(reads, m.tok(k+2))
		case m.isPunct(k-1, "=") && m.isPunct(k-2, "}"):
			// const { a, b } = args
			open := m.opening(k - 2)
			if open < 0 {
				return reads, true
			}
			for j := open + 1; j < k-2; j++ {
				if tj := m.tok(j); (tj.kind == tokIdent || tj.kind == tokString) && (m.isPunct(j-1, "{") || m.isPunct(j-1, ",")) {
					reads = append(reads, tj)
				}
				if m.isPunct(j, "...") {
					whole = true
				}
			}
		default:
			whole = true // passed on, spread, indexed by a computed key
		}
	}
	return reads, whole
}

// checkArgs compares what execute reads of its arguments with the schema.
func (c *checker) checkArgs(x executeCode, params *value) {
	if params == nil || params.kind != vObject {
		return
	}
	props := params.get("properties")
	if props == nil || props.val.kind != vObject || !props.val.complete {
		return
	}
	reads, whole := argReads(x)
	read := map[string]bool{}
	for _, t := range reads {
		read[t.text] = true
		if props.val.get(t.text) == nil {
			c.add(x.m.path, t.start, t.end, diag.Warning, CodeArgNotInSchema, fmt.Sprintf(
				"`execute` reads `%s`, which `parameters.properties` does not define: the model never sends it; add it to the schema, or stop reading it", t.text))
		}
	}
	if whole {
		return
	}
	req := params.get("required")
	if req == nil || req.val.kind != vArray || !req.val.complete {
		return
	}
	for _, it := range req.val.items {
		if it.kind == vString && !read[it.str] && props.val.get(it.str) != nil {
			c.add(it.file, it.start, it.end, diag.Hint, CodeRequiredUnread, fmt.Sprintf(
				"`%s` is required, but `execute` never reads it: the model must send it for nothing; read it, or drop it from `required`", it.str))
		}
	}
}
