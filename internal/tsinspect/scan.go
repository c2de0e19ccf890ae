package tsinspect

// scan.go finds the top-level declarations of a module from its tokens:
// imports, const/let/var/function/class bindings and exports. It reads the
// original source, so that every position is the user's.

// importBinding is a local name bound by an import declaration.
type importBinding struct {
	spec string
	name string // "default", "*", or the imported name
	// start, end: the imported name in the import declaration
	start, end int
}

// exportRef says where an exported name's value comes from.
type exportRef struct {
	local string // a local binding of this module, or
	spec  string // a re-export: the module it comes from
	name  string // and its name there ("*" for `export * as ns`)
}

// modFile is the lexed and scanned view of one module.
type modFile struct {
	path    string
	src     []byte
	toks    []token
	consts  map[string]int // initializer token index
	mutable map[string]bool
	funcs   map[string]bool
	classes map[string]int // the `class` keyword's token index
	// enums and namespaces: the token index of their `{`
	enums      map[string]int
	namespaces map[string]int
	// lets: the initializer token index of a `let` never reassigned
	lets    map[string]int
	imports map[string]importBinding
	exports map[string]exportRef
	stars   []string // export * from '...'
	// defaultAt is the token index of the default export's expression (or of
	// its `function`/`class` keyword); -1 when none was found.
	defaultAt int
	// defaultTok is the `export` (or `module`) token that starts it.
	defaultTok int
	// defaultLocal is set by `export { x as default }`.
	defaultLocal string
	// defaultFrom is set by `export { default } from './x'` / `{ x as default }`.
	defaultFrom *exportRef
	// cjsPartial marks `exports.x = ...` / `module.exports.x = ...` writes.
	cjsPartial int
	// typeOnlyDefault marks `export default interface ...`.
	typeOnlyDefault bool
	// sideEffectImport marks `import './setup'`, which may define globals.
	sideEffectImport bool
}

func scanModule(path string, src []byte, toks []token) *modFile {
	m := &modFile{
		path: path, src: src, toks: toks,
		consts: map[string]int{}, mutable: map[string]bool{}, funcs: map[string]bool{}, classes: map[string]int{},
		enums: map[string]int{}, namespaces: map[string]int{}, lets: map[string]int{},
		imports: map[string]importBinding{}, exports: map[string]exportRef{},
		defaultAt: -1, defaultTok: -1, cjsPartial: -1,
	}
	depth := 0
	for i := 0; i < len(toks) && toks[i].kind != tokEOF; i++ {
		t := toks[i]
		if t.kind == tokPunct {
			depth += nesting(t.text)
			continue
		}
		if depth != 0 || t.kind != tokIdent {
			continue
		}
		// a member access or an object key is not a statement keyword
		if i > 0 && toks[i-1].kind == tokPunct && (toks[i-1].text == "." || toks[i-1].text == "?.") {
			continue
		}
		switch t.text {
		case "import":
			if n := m.tok(i + 1); n.kind == tokPunct && (n.text == "(" || n.text == ".") {
				continue
			}
			i = m.scanImport(i + 1)
		case "export":
			i = m.scanExport(i)
		case "const", "let", "var":
			if i > 0 && toks[i-1].kind == tokIdent && toks[i-1].text == "as" {
				continue // `as const`
			}
			m.scanDecl(i+1, t.text != "const")
		case "function":
			if n := m.tok(i + 1); n.kind == tokIdent {
				m.funcs[n.text] = true
			} else if n.text == "*" && m.tok(i+2).kind == tokIdent {
				m.funcs[m.tok(i+2).text] = true
			}
		case "class":
			if n := m.tok(i + 1); n.kind == tokIdent && n.text != "extends" && n.text != "implements" {
				m.classes[n.text] = i
			}
		case "enum":
			// `declare enum` has no run-time value; `const enum` is inlined
			// by TypeScript but Bun emits an object for it, like `enum`
			if n := m.tok(i + 1); n.kind == tokIdent && m.isPunct(i+2, "{") && !m.isIdent(i-1, "declare") && !m.isIdent(i-2, "declare") {
				m.enums[n.text] = i + 2
			}
		case "namespace":
			if n := m.tok(i + 1); n.kind == tokIdent && m.isPunct(i+2, "{") && !m.isIdent(i-1, "declare") && !m.isPunct(i-1, ".") {
				m.namespaces[n.text] = i + 2
			}
		case "module":
			if m.isPunct(i+1, ".") && m.tok(i+2).text == "exports" && m.tok(i+2).kind == tokIdent {
				if m.isPunct(i+3, "=") {
					m.defaultAt, m.defaultTok = i+4, i
				} else if m.isPunct(i+3, ".") || m.isPunct(i+3, "[") {
					m.cjsPartial = i
				}
			}
		case "exports":
			if i == 0 || !(toks[i-1].kind == tokPunct && toks[i-1].text == ".") {
				if m.isPunct(i+1, ".") || m.isPunct(i+1, "[") {
					m.cjsPartial = i
				}
			}
		}
	}
	m.dropReassignedLets()
	for name := range m.enums {
		if m.mutable[name] {
			delete(m.enums, name)
		}
	}
	return m
}

// dropReassignedLets keeps in lets only the bindings nothing assigns to
// again: no `name =` (or a compound assignment, `++`, `--`) anywhere but in
// its declaration, and no destructuring assignment in the module (which
// could assign to any name).
func (m *modFile) dropReassignedLets() {
	if len(m.lets) == 0 {
		return
	}
	for i, t := range m.toks {
		if t.kind == tokPunct && t.text == "=" && i > 0 && m.toks[i-1].kind == tokPunct && (m.toks[i-1].text == "]" || m.toks[i-1].text == "}") {
			open := m.opening(i - 1)
			if open <= 0 || !(m.isIdent(open-1, "const") || m.isIdent(open-1, "let") || m.isIdent(open-1, "var")) {
				m.lets = map[string]int{} // a destructuring assignment
				return
			}
		}
		if t.kind != tokIdent {
			continue
		}
		at, ok := m.lets[t.text]
		if !ok || m.isIdent(i-1, "let") || m.isIdent(i-1, "var") || m.isPunct(i-1, ".") || m.isPunct(i-1, "?.") || at < 0 {
			continue
		}
		n, p := m.tok(i+1), m.tok(i-1)
		if n.kind == tokPunct && isAssignOp(n.text) || p.kind == tokPunct && (p.text == "++" || p.text == "--") {
			delete(m.lets, t.text)
		}
	}
}

func isAssignOp(p string) bool {
	switch p {
	case "=", "+=", "-=", "*=", "/=", "%=", "**=", "&&=", "||=", "??=", "&=", "|=", "^=", "<<=", ">>=", ">>>=", "++", "--":
		return true
	}
	return false
}

// opening returns the index of the bracket opening the one closing at i.
func (m *modFile) opening(i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		if t := m.toks[j]; t.kind == tokPunct {
			if d := nesting(t.text); d != 0 {
				if depth -= d; depth == 0 {
					return j
				}
			}
		}
	}
	return -1
}

func (m *modFile) tok(i int) token {
	if i < 0 || i >= len(m.toks) {
		return token{kind: tokEOF, start: len(m.src), end: len(m.src)}
	}
	return m.toks[i]
}

func (m *modFile) isPunct(i int, p string) bool {
	t := m.tok(i)
	return t.kind == tokPunct && t.text == p
}

func (m *modFile) isIdent(i int, s string) bool {
	t := m.tok(i)
	return t.kind == tokIdent && t.text == s
}

// scanImport reads an import declaration starting after `import`; it
// returns the index of its last token.
func (m *modFile) scanImport(i int) int {
	typeOnly := false
	if m.isIdent(i, "type") && !m.isPunct(i+1, ",") && !m.isIdent(i+1, "from") {
		typeOnly = true
		i++
	}
	if m.tok(i).kind == tokString {
		m.sideEffectImport = true
		return i // side-effect import
	}
	var locals []importBinding
	var names []string
	for {
		t := m.tok(i)
		switch {
		case t.kind == tokIdent && t.text == "from":
			spec := m.tok(i + 1)
			if spec.kind != tokString {
				return i
			}
			if !typeOnly {
				for k, b := range locals {
					b.spec = spec.text
					m.imports[names[k]] = b
				}
			}
			return i + 1
		case t.kind == tokPunct && t.text == "*":
			if m.isIdent(i+1, "as") && m.tok(i+2).kind == tokIdent {
				locals = append(locals, importBinding{name: "*"})
				names = append(names, m.tok(i+2).text)
				i += 3
				continue
			}
			return i
		case t.kind == tokPunct && t.text == "{":
			i++
			for !m.isPunct(i, "}") && m.tok(i).kind != tokEOF {
				itemType := false
				if m.isIdent(i, "type") && (m.tok(i+1).kind == tokIdent || m.tok(i+1).kind == tokString) && !m.isIdent(i+1, "as") {
					itemType = true
					i++
				}
				name := m.tok(i)
				local := name.text
				i++
				if m.isIdent(i, "as") {
					local = m.tok(i + 1).text
					i += 2
				}
				if !itemType && (name.kind == tokIdent || name.kind == tokString) {
					locals = append(locals, importBinding{name: name.text, start: name.start, end: name.end})
					names = append(names, local)
				}
				if m.isPunct(i, ",") {
					i++
				}
			}
			i++
		case t.kind == tokPunct && t.text == ",":
			i++
		case t.kind == tokIdent:
			locals = append(locals, importBinding{name: "default"})
			names = append(names, t.text)
			i++
		default:
			return i
		}
	}
}

// scanExport reads an export declaration at token i (`export`); it returns
// the index of the last token it consumed.
func (m *modFile) scanExport(i int) int {
	n := m.tok(i + 1)
	if n.kind == tokIdent {
		switch n.text {
		case "default":
			at := i + 2
			for m.isIdent(at, "abstract") || m.isIdent(at, "declare") {
				at++
			}
			if m.isIdent(at, "interface") || m.isIdent(at, "type") && m.tok(at+1).kind == tokIdent && m.isPunct(at+2, "=") {
				m.typeOnlyDefault = true
				return at
			}
			m.defaultAt, m.defaultTok = at, i
			return i + 1
		case "const", "let", "var":
			for _, name := range m.scanDecl(i+2, n.text != "const") {
				m.exports[name] = exportRef{local: name}
			}
			return i + 1
		case "async":
			if m.isIdent(i+2, "function") {
				if f := m.tok(i + 3); f.kind == tokIdent {
					m.funcs[f.text] = true
					m.exports[f.text] = exportRef{local: f.text}
				}
			}
			return i + 1
		case "function":
			f := m.tok(i + 2)
			if f.kind == tokPunct && f.text == "*" {
				f = m.tok(i + 3)
			}
			if f.kind == tokIdent {
				m.funcs[f.text] = true
				m.exports[f.text] = exportRef{local: f.text}
			}
			return i + 1
		case "class", "abstract":
			at := i + 2
			if n.text == "abstract" {
				at++
			}
			if c := m.tok(at); c.kind == tokIdent {
				m.classes[c.text] = at - 1
				m.exports[c.text] = exportRef{local: c.text}
			}
			return i + 1
		case "type":
			if m.isPunct(i+2, "{") {
				return i + 1 // export type { ... }: types only
			}
			return i + 1
		}
		return i + 1
	}
	if n.kind != tokPunct {
		return i
	}
	switch n.text {
	case "=": // TypeScript's `export = value`: module.exports
		m.defaultAt, m.defaultTok = i+2, i
		return i + 1
	case "*":
		j := i + 2
		asName := ""
		if m.isIdent(j, "as") {
			asName = m.tok(j + 1).text
			j += 2
		}
		if m.isIdent(j, "from") && m.tok(j+1).kind == tokString {
			spec := m.tok(j + 1).text
			if asName != "" {
				m.exports[asName] = exportRef{spec: spec, name: "*"}
			} else {
				m.stars = append(m.stars, spec)
			}
			return j + 1
		}
		return i + 1
	case "{":
		j := i + 2
		type item struct{ local, exported string }
		var items []item
		for !m.isPunct(j, "}") && m.tok(j).kind != tokEOF {
			itemType := false
			if m.isIdent(j, "type") && (m.tok(j+1).kind == tokIdent || m.tok(j+1).kind == tokString) && !m.isIdent(j+1, "as") {
				itemType = true
				j++
			}
			local := m.tok(j).text
			exported := local
			j++
			if m.isIdent(j, "as") {
				exported = m.tok(j + 1).text
				j += 2
			}
			if !itemType {
				items = append(items, item{local, exported})
			}
			if m.isPunct(j, ",") {
				j++
			} else if !m.isPunct(j, "}") {
				return j
			}
		}
		j++
		spec := ""
		if m.isIdent(j, "from") && m.tok(j+1).kind == tokString {
			spec = m.tok(j + 1).text
			j++
		} else {
			j--
		}
		for _, it := range items {
			ref := exportRef{local: it.local}
			if spec != "" {
				ref = exportRef{spec: spec, name: it.local}
			}
			if it.exported == "default" {
				if spec != "" {
					r := ref
					m.defaultFrom = &r
				} else {
					m.defaultLocal = it.local
				}
				m.defaultTok = i
				continue
			}
			m.exports[it.exported] = ref
		}
		return j
	}
	return i
}

// scanDecl records the declarators of a const/let/var declaration at token
// i (`const a = 1, b = {}`) and returns their names; a destructuring pattern
// binds nothing the reader follows.
func (m *modFile) scanDecl(i int, mutable bool) []string {
	var names []string
	for k := 0; k < 64; k++ {
		name := m.tok(i)
		if name.kind != tokIdent {
			return names
		}
		names = append(names, name.text)
		j := i + 1
		if m.isPunct(j, "!") {
			j++
		}
		if m.isPunct(j, ":") {
			j = skipType(m.toks, j+1)
		}
		if m.isPunct(j, "=") {
			if mutable {
				m.mutable[name.text] = true
				if m.isIdent(i-1, "let") || m.isIdent(i-1, "var") {
					m.lets[name.text] = j + 1 // kept only when never reassigned
				}
			} else {
				m.consts[name.text] = j + 1
			}
			j = skipInitializer(m.toks, j+1)
		} else {
			m.mutable[name.text] = true // declared without a value
		}
		if !m.isPunct(j, ",") {
			return names
		}
		i = j + 1
	}
	return names
}

// skipType skips a type expression starting at token i and returns the
// index of the first token after it: a `,`, `;`, `=`, `)`, `]` or `}` at
// bracket depth 0 (angle brackets count as brackets in a type), or a token on
// a new line that cannot continue a type.
func skipType(toks []token, i int) int { return skipTo(toks, i, skipStops{inType: true}) }

// skipFieldType is skipType for a class field's type, which also ends at
// a name that starts a new line after a complete type (the next member).
func skipFieldType(toks []token, i int) int {
	return skipTo(toks, i, skipStops{inType: true, newLine: true, lineStarts: func(t token) bool {
		return t.kind == tokIdent || t.kind == tokPrivate
	}})
}

// skipInitializer skips a declarator's initializer: like skipExpr, and it
// also stops at a statement that starts on a new line (automatic semicolon
// insertion), so that a file without semicolons is not rescanned to its end
// for every declaration.
func skipInitializer(toks []token, i int) int { return skipToEnd(toks, i, true) }

// endsOperand reports whether t can end an operand (so that a `/` after it
// divides and a line break after it may end a statement).
func endsOperand(t token) bool {
	switch t.kind {
	case tokNumber, tokString, tokTemplate, tokRegex, tokPrivate:
		return true
	case tokIdent:
		switch t.text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
			return false
		}
		return true
	case tokPunct:
		if t.text == ")" {
			return !t.ctrl
		}
		return t.text == "]" || t.text == "}"
	}
	return false
}
