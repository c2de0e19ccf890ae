package tsinspect

import (
	"regexp"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// contextenv.go finds the names execute reads from `context.env` (SPEC
// section 8: the box's environment plus the secrets the calling agent gets
// now), on the same token walk as hints.go's checks. The manifest engine
// holds them against each agent's `secrets:` (A4).

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
// `context.env?.X`, `context.env['X']`, `const { X } = context.env`, and
// the same inside a template literal's substitutions. A second parameter
// destructured as `{ env }` or `{ env: e }` is read the same way through
// `env` (or `e`), and so is a `const` the body binds to it
// (`const env = context.env`, `const { env } = context`). A name the body
// binds again (a nested function's parameter, a declaration) says nothing:
// which binding a read means is not known without scopes, and a guess
// would name a secret the tool never reads.
func (c *checker) readContextEnv(x executeCode) {
	m := x.m
	ctx, env := contextNames(x)
	if ctx != "" && rebinds(x, ctx, -1) {
		ctx = ""
	}
	if env != "" && rebinds(x, env, -1) {
		env = ""
	}
	if ctx != "" && env == "" {
		if name, at := envAlias(x, ctx); name != "" && !rebinds(x, name, at) {
			env = name
		}
	}
	if ctx == "" && env == "" {
		return
	}
	add := func(name string, start, end int) {
		c.r.EnvReads = append(c.r.EnvReads, EnvRead{Name: name, File: m.path, Range: c.linesOf(m.path).Range(start, end)})
	}
	var inTemplate *regexp.Regexp
	for k := x.bodyStart; k < x.bodyEnd; k++ {
		t := m.tok(k)
		if t.kind == tokTemplate && t.subst {
			if inTemplate == nil {
				inTemplate = envPattern(ctx, env)
			}
			raw := m.src[t.start:t.end]
			for _, span := range substitutions(raw) {
				sub := raw[span[0]:span[1]]
				for _, loc := range inTemplate.FindAllSubmatchIndex(sub, -1) {
					for g := 2; g <= 4; g++ {
						if loc[2*g] >= 0 {
							at := t.start + span[0]
							add(string(sub[loc[2*g]:loc[2*g+1]]), at+loc[2], at+loc[1])
						}
					}
				}
			}
			continue
		}
		after, ok := envExpr(m, k, ctx, env)
		if !ok {
			continue
		}
		open := after
		if m.isPunct(open, "?.") && m.isPunct(open+1, "[") {
			open++
		}
		switch {
		case (m.isPunct(after, ".") || m.isPunct(after, "?.")) && m.tok(after+1).kind == tokIdent:
			add(m.tok(after+1).text, t.start, m.tok(after+1).end)
		case m.isPunct(open, "[") && m.tok(open+1).kind == tokString && m.isPunct(open+2, "]"):
			add(m.tok(open+1).text, t.start, m.tok(open+2).end)
		case m.isPunct(k-1, "=") && m.isPunct(k-2, "}") && !m.isPunct(after, ".") && !m.isPunct(after, "?.") && !m.isPunct(after, "[") && !m.isPunct(after, "("):
			// const { X, Y: y, Z = 'z' } = context.env
			open := m.opening(k - 2)
			if open < 0 {
				break
			}
			depth := 0
			for j := open + 1; j < k-2; j++ {
				tj := m.tok(j)
				if tj.kind == tokPunct {
					depth += nesting(tj.text)
					continue
				}
				if depth == 0 && (tj.kind == tokIdent || tj.kind == tokString) && (m.isPunct(j-1, "{") || m.isPunct(j-1, ",")) {
					add(tj.text, tj.start, tj.end)
				}
			}
		}
		k = after - 1
	}
}

// contextNames returns the name of execute's second parameter (ctx), or,
// when that parameter is destructured, the name `env` is bound to.
func contextNames(x executeCode) (ctx, env string) {
	m := x.m
	second := -1
	depth, angle := 0, 0
	for k := x.open + 1; k < x.close; k++ {
		t := m.tok(k)
		if t.kind != tokPunct {
			continue
		}
		depth += nesting(t.text)
		switch t.text {
		case "<":
			angle++
		case ">":
			angle--
		case ">>":
			angle -= 2
		case ",":
			if depth == 0 && angle <= 0 {
				second = k + 1
			}
		}
		if second >= 0 {
			break
		}
	}
	if second < 0 || second >= x.close {
		return "", ""
	}
	t := m.tok(second)
	if t.kind == tokIdent && endsBinding(m, second+1) {
		return t.text, ""
	}
	if !m.isPunct(second, "{") {
		return "", ""
	}
	// (args, { env, signal }) or (args, { env: e })
	close := matching(m.toks, second)
	depth = 0
	for j := second + 1; j < close; j++ {
		tj := m.tok(j)
		if tj.kind == tokPunct {
			depth += nesting(tj.text)
			continue
		}
		if depth != 0 || !tj.kind.isName() || tj.text != "env" || !m.isPunct(j-1, "{") && !m.isPunct(j-1, ",") {
			continue
		}
		if endsBinding(m, j+1) && !m.isPunct(j+1, ":") {
			return "", "env"
		}
		if m.isPunct(j+1, ":") && m.tok(j+2).kind == tokIdent && endsBinding(m, j+3) && !m.isPunct(j+3, ":") {
			return "", m.tok(j + 2).text
		}
	}
	return "", ""
}

func (k tokKind) isName() bool { return k == tokIdent || k == tokString }

// endsBinding reports whether the token at i ends a binding's name in a
// parameter list or a pattern.
func endsBinding(m *modFile, i int) bool {
	for _, p := range []string{",", ")", "}", ":", "=", "?"} {
		if m.isPunct(i, p) {
			return true
		}
	}
	return false
}

// envAlias finds the first `const` of execute's body bound to ctx's env:
// `const e = ctx.env` or `const { env } = ctx` (`{ env: e }`). It returns
// the name and the index of its token.
func envAlias(x executeCode, ctx string) (name string, at int) {
	m := x.m
	for k := x.bodyStart; k < x.bodyEnd; k++ {
		if !m.isIdent(k, ctx) || m.isPunct(k-1, ".") || m.isPunct(k-1, "?.") || !m.isPunct(k-1, "=") {
			continue
		}
		after := k + 1
		whole := (m.isPunct(after, ".") || m.isPunct(after, "?.")) && m.isIdent(after+1, "env")
		if whole {
			after += 2
		}
		if m.isPunct(after, ".") || m.isPunct(after, "?.") || m.isPunct(after, "[") || m.isPunct(after, "(") {
			continue // a property of it, or a call
		}
		if whole {
			if m.tok(k-2).kind == tokIdent && m.isIdent(k-3, "const") {
				return m.tok(k - 2).text, k - 2
			}
			continue
		}
		if !m.isPunct(k-2, "}") {
			continue
		}
		open := m.opening(k - 2)
		if open < 1 || !m.isIdent(open-1, "const") {
			continue
		}
		depth := 0
		for j := open + 1; j < k-2; j++ {
			tj := m.tok(j)
			if tj.kind == tokPunct {
				depth += nesting(tj.text)
				continue
			}
			if depth != 0 || !m.isIdent(j, "env") || !m.isPunct(j-1, "{") && !m.isPunct(j-1, ",") {
				continue
			}
			if m.isPunct(j+1, ",") || m.isPunct(j+1, "}") {
				return "env", j
			}
			if m.isPunct(j+1, ":") && m.tok(j+2).kind == tokIdent && (m.isPunct(j+3, ",") || m.isPunct(j+3, "}")) {
				return m.tok(j + 2).text, j + 2
			}
		}
	}
	return "", -1
}

// envExpr reports whether `ctx.env` (or `ctx?.env`) or the name env
// starts at token k, not as a property of something else, and returns the
// index of the token after it.
func envExpr(m *modFile, k int, ctx, env string) (after int, ok bool) {
	if m.isPunct(k-1, ".") || m.isPunct(k-1, "?.") {
		return 0, false
	}
	if ctx != "" && m.isIdent(k, ctx) && (m.isPunct(k+1, ".") || m.isPunct(k+1, "?.")) && m.isIdent(k+2, "env") {
		return k + 3, true
	}
	if env != "" && m.isIdent(k, env) {
		return k + 1, true
	}
	return 0, false
}

// envPattern matches the reads readContextEnv knows in a template
// literal's substitution: group 1 is the read's start (`context` or the
// env name), the name is group 2 (`.X`), 3 (`['X']`) or 4 (`["X"]`).
func envPattern(ctx, env string) *regexp.Regexp {
	var heads []string
	if ctx != "" {
		heads = append(heads, regexp.QuoteMeta(ctx)+`\s*\??\.\s*env`)
	}
	if env != "" {
		heads = append(heads, regexp.QuoteMeta(env))
	}
	head := heads[0]
	if len(heads) == 2 {
		head = heads[0] + "|" + heads[1]
	}
	return regexp.MustCompile(`(?:^|[^\w$.])((?:` + head + `)\b)\s*(?:\??\.\s*([A-Za-z_$][\w$]*)|(?:\?\.)?\[\s*'([^'\\]*)'\s*\]|(?:\?\.)?\[\s*"([^"\\]*)"\s*\])`)
}

// substitutions returns the byte spans of a template literal's `${...}`
// substitutions (the text between the braces), nested braces counted.
func substitutions(raw []byte) [][2]int {
	var out [][2]int
	for i := 0; i+1 < len(raw); i++ {
		switch {
		case raw[i] == '\\':
			i++
		case raw[i] == '$' && raw[i+1] == '{':
			depth, j := 1, i+2
			for ; j < len(raw) && depth > 0; j++ {
				switch raw[j] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			out = append(out, [2]int{i + 2, j - 1})
			i = j - 1
		}
	}
	return out
}

// rebinds reports whether execute's body binds name again, but at the
// token except: declares it (`const`, `let`, `var`, `function`, `class`),
// or takes it as a parameter of a nested function, arrow or catch clause.
func rebinds(x executeCode, name string, except int) bool {
	m := x.m
	for k := x.bodyStart; k < x.bodyEnd; k++ {
		if k == except || !m.isIdent(k, name) || m.isPunct(k-1, ".") || m.isPunct(k-1, "?.") {
			continue
		}
		if p := m.tok(k - 1); p.kind == tokIdent {
			switch p.text {
			case "const", "let", "var", "function", "class":
				return true
			}
		}
		if m.isPunct(k+1, "=>") {
			return true
		}
		if !m.isPunct(k-1, "(") && !m.isPunct(k-1, ",") && !m.isPunct(k-1, "...") || !endsBinding(m, k+1) {
			continue
		}
		open := enclosing(m, k)
		if !m.isPunct(open, "(") {
			continue
		}
		if p := m.tok(open - 1); p.kind == tokIdent {
			switch p.text {
			case "if", "while", "for", "switch", "with", "return", "typeof", "await":
				continue
			}
		}
		close := matching(m.toks, open)
		if m.isPunct(close+1, "=>") || m.isPunct(close+1, "{") || m.isPunct(close+1, ":") {
			return true
		}
	}
	return false
}

// enclosing returns the index of the bracket that is open at token k, or
// -1.
func enclosing(m *modFile, k int) int {
	depth := 0
	for j := k - 1; j >= 0; j-- {
		t := m.toks[j]
		if t.kind != tokPunct {
			continue
		}
		switch nesting(t.text) {
		case -1:
			depth++
		case 1:
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}
