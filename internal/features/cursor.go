package features

import (
	"bytes"
	"sort"
	"strings"
)

// This file reads the cursor's context from the text alone, line by line,
// so that completion works on YAML that does not parse: a key typed with no
// colon yet, a key with an empty value, a `- ` with nothing after it, an
// unclosed `[`. It understands block mappings and sequences by indentation,
// and flow collections ([..], {..}) that hold the cursor, closed or not, on
// one line or several (flow.go).

// slotKind is what the cursor is typing.
type slotKind int

const (
	slotNone  slotKind = iota
	slotKey            // a mapping key
	slotValue          // the scalar value of cursorCtx.key
	slotItem           // a sequence item
)

// cursorCtx is the cursor's place in the document.
type cursorCtx struct {
	slot slotKind
	// path holds the keys of the mappings that enclose the slot, outermost
	// first: ["agents", "researcher", "tools"] for an item of that list.
	// A sequence between two mappings shows as "-".
	path []string
	// key is the key whose value is typed (slotValue).
	key string
	// wordStart and wordEnd delimit the word under the cursor: the run of
	// name characters around it, which a completion replaces.
	wordStart, wordEnd int
	// siblings are the other keys (slotKey) or items (slotItem) of the same
	// mapping or sequence, the word being typed left out.
	siblings []string
	// siblingValues are the string values of the sibling keys of a mapping
	// (the module paths other entries of tools: declare).
	siblingValues []string
	// colonBefore is true when the value's word starts right after the colon
	// (`key:|`): the inserted text then needs a leading space.
	colonBefore bool
}

// isWordByte reports whether c may be part of a name or path being typed.
// Bytes of multi-byte characters count, so a word never splits a character.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '/' || c == '*' || c == ':' || c == '@' || c >= 0x80
}

// textLine is one line of the document as the block scanner sees it.
type textLine struct {
	start, end int    // byte offsets of the line's text (no line break)
	indent     int    // bytes of leading spaces and tabs
	body       string // the text after the indentation
	blank      bool   // empty, spaces only, or a comment only
}

// textLines gives the lines of a text on demand: "\r\n" and "\n" end a
// line. Bodies are substrings of one copy of the text, so reading a line
// allocates nothing; each line's indentation and blankness are computed once,
// so that walking a block of a thousand lines is a loop over integers.
type textLines struct {
	s       string
	starts  []int
	indents []int32
	blanks  []bool // empty, blanks only, or a comment only
}

func splitLines(text []byte) textLines {
	n := bytes.Count(text, []byte{'\n'}) + 1
	t := textLines{s: string(text), starts: make([]int, 0, n), indents: make([]int32, 0, n), blanks: make([]bool, 0, n)}
	for start := 0; ; {
		t.starts = append(t.starts, start)
		i := start
		// A tab is not YAML indentation, but a user may type one: count it
		// as one column, like a space, so that completion still finds the
		// block.
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		t.indents = append(t.indents, int32(i-start))
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
			j++
		}
		t.blanks = append(t.blanks, j == len(text) || text[j] == '\n' || text[i] == '#')
		nl := bytes.IndexByte(text[i:], '\n')
		if nl < 0 {
			return t
		}
		start = i + nl + 1
	}
}

// n returns the number of lines.
func (t textLines) n() int { return len(t.starts) }

// indent returns the indentation of line i; blank whether it is blank.
func (t textLines) indent(i int) int { return int(t.indents[i]) }
func (t textLines) blank(i int) bool { return t.blanks[i] }

// isItem reports whether line i starts with a sequence dash.
func (t textLines) isItem(i int) bool {
	j := t.starts[i] + int(t.indents[i])
	if j >= len(t.s) || t.s[j] != '-' {
		return false
	}
	return j+1 == len(t.s) || t.s[j+1] == ' ' || t.s[j+1] == '\t' || t.s[j+1] == '\n' || t.s[j+1] == '\r'
}

// at returns line i.
func (t textLines) at(i int) textLine {
	start := t.starts[i]
	end := len(t.s)
	if i+1 < len(t.starts) {
		end = t.starts[i+1] - 1
	}
	if end > start && t.s[end-1] == '\r' {
		end--
	}
	ind := int(t.indents[i])
	return textLine{start: start, end: end, indent: ind, body: t.s[start+ind : end], blank: t.blanks[i]}
}

// lineAt returns the index of the line holding offset.
func (t textLines) lineAt(offset int) int {
	return sort.SearchInts(t.starts, offset+1) - 1
}

// blockShape is a non-blank line's structure: its dashes ("- " sequence
// entries), then a key if it has one.
type blockShape struct {
	dashCol  int    // column of the first dash, -1 without one
	dashes   int    // how many "- " prefixes
	keyCol   int    // column where the key or item text starts
	key      string // the key, "" when the line has none
	hasColon bool   // the key is followed by a mapping colon
	valueCol int    // column (within the line) where the value starts
	value    string // the scalar value after the colon, comment removed
}

// shapeOf reads a line's structure. The body is scanned up to the first
// mapping colon outside quotes and brackets.
func shapeOf(l textLine) blockShape {
	s := blockShape{dashCol: -1}
	body := l.body
	col := l.indent
	for body == "-" || strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "-\t") {
		if s.dashCol < 0 {
			s.dashCol = col
		}
		s.dashes++
		n := 1
		for n < len(body) && (body[n] == ' ' || body[n] == '\t') {
			n++
		}
		body = body[n:]
		col += n
	}
	s.keyCol = col
	if c := mappingColon(body); c >= 0 {
		s.key = unquote(strings.TrimSpace(body[:c]))
		s.hasColon = true
		v := c + 1
		for v < len(body) && (body[v] == ' ' || body[v] == '\t') {
			v++
		}
		s.valueCol = col + v
		s.value = strings.TrimSpace(stripComment(body[v:]))
	}
	return s
}

// mappingColon returns the index of the colon that ends a block key in body
// (a colon followed by a blank or the end), or -1. Quotes and flow brackets
// are skipped; a comment ends the search.
func mappingColon(body string) int {
	depth := 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '"', '\'':
			if !opensQuote(body, i) {
				continue
			}
			j := skipQuoted(body, i)
			if j < 0 {
				return -1
			}
			i = j
		case '[', '{':
			if i == 0 || depth > 0 {
				depth++
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '#':
			if i == 0 || body[i-1] == ' ' || body[i-1] == '\t' {
				return -1
			}
		case ':':
			if depth == 0 && (i+1 == len(body) || body[i+1] == ' ' || body[i+1] == '\t') {
				return i
			}
		}
	}
	return -1
}

// opensQuote reports whether the quote at s[i] starts a quoted scalar: only
// at the start of a token ("it's" is a plain scalar with a quote in it).
func opensQuote(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '\t', '[', '{', ',', ':':
		return true
	}
	return false
}

// skipQuoted returns the index of the quote closing the string opening at i,
// or -1 when it is not closed on this line.
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q:
			if q == '\'' && j+1 < len(s) && s[j+1] == '\'' {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// stripComment cuts a " #" comment off a value.
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			if j := skipQuoted(s, i); j >= 0 && opensQuote(s, i) {
				i = j
			}
		case '#':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '\t' {
				return s[:i]
			}
		}
	}
	return s
}

// unquote removes one pair of matching quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// inComment reports whether the cursor at column col of body is inside a
// comment.
func inComment(body string, col int) bool {
	for i := 0; i < len(body) && i < col; i++ {
		switch body[i] {
		case '"', '\'':
			if !opensQuote(body, i) {
				continue
			}
			j := skipQuoted(body, i)
			if j < 0 {
				return false
			}
			i = j
		case '#':
			if i == 0 || body[i-1] == ' ' || body[i-1] == '\t' {
				return true
			}
		}
	}
	return false
}

// contextAt reads the cursor's context at offset in text.
func contextAt(text []byte, offset int) cursorCtx {
	if offset < 0 || offset > len(text) {
		return cursorCtx{}
	}
	lines := splitLines(text)
	li := lines.lineAt(offset)
	cur := lines.at(li)
	if offset > cur.end { // in a "\r\n"
		return cursorCtx{}
	}
	ctx := cursorCtx{}
	ctx.wordStart, ctx.wordEnd = wordAround(text, cur, offset)

	col := offset - cur.start
	if col < cur.indent { // in the indentation: as if typed at the cursor
		cur.indent = col
		cur.body = string(text[cur.start+col : cur.end])
	}
	bodyCol := col - cur.indent
	if inComment(cur.body, bodyCol) {
		return cursorCtx{}
	}
	shape := shapeOf(cur)
	shapeBodyCol := col - shape.keyCol // cursor column after the dashes

	// A flow collection that holds the cursor.
	if owner, open := flowOwner(text, lines, li, offset); owner >= 0 {
		os := shapeOf(lines.at(owner))
		fr := scanFlow(text, open, offset, os.key)
		if fr.ok {
			base := linePath(lines, owner, os)
			ctx.slot = fr.slot
			ctx.key = fr.key
			ctx.path = append(base, fr.path...)
			ctx.siblings = fr.siblings
			ctx.siblingValues = fr.values
			ctx.colonBefore = ctx.wordStart > 0 && text[ctx.wordStart-1] == ':'
			return ctx
		}
		if owner == li {
			return cursorCtx{} // after the closed collection
		}
	}

	switch {
	case shape.hasColon && shapeBodyCol > len(shapeKeyText(cur, shape)):
		// After the colon: the value of key.
		ctx.slot = slotValue
		ctx.key = shape.key
		ctx.path = linePath(lines, li, shape)
		if vs := cur.start + shape.valueCol; offset < vs {
			// In the blanks between the colon and the value.
			ctx.wordStart, ctx.wordEnd = offset, offset
		} else if ctx.wordStart < vs {
			ctx.wordStart = vs
		}
		ctx.colonBefore = ctx.wordStart > 0 && text[ctx.wordStart-1] == ':'
		if shape.dashes == 0 {
			ctx.siblings, ctx.siblingValues = keySiblings(lines, li, shape.keyCol)
		}
	case shape.dashes > 0 && !shape.hasColon && offset > cur.start+lastDashCol(cur, shape):
		// A sequence item (the last dash's item).
		ctx.slot = slotItem
		dashCol := lastDashCol(cur, shape)
		if offset < cur.start+shape.keyCol {
			// In the blanks after the dash.
			ctx.wordStart, ctx.wordEnd = offset, offset
		}
		ctx.path = parentPath(lines, li, dashCol, true)
		ctx.siblings = itemSiblings(lines, li, dashCol)
	case shape.dashes > 0 && offset <= cur.start+lastDashCol(cur, shape):
		return cursorCtx{} // on the dashes
	default:
		// A key, typed with or without its colon.
		ctx.slot = slotKey
		ctx.path = linePath(lines, li, shape)
		ctx.siblings, ctx.siblingValues = keySiblings(lines, li, shape.keyCol)
	}
	return ctx
}

// linePath returns the keys enclosing the key of line li (shape s).
func linePath(lines textLines, li int, s blockShape) []string {
	if s.dashes > 0 {
		return append(parentPath(lines, li, lastDashCol(lines.at(li), s), true), "-")
	}
	return parentPath(lines, li, s.keyCol, false)
}

// shapeKeyText returns the key as written (quotes included) on the line.
func shapeKeyText(l textLine, s blockShape) string {
	body := l.body[s.keyCol-l.indent:]
	if c := mappingColon(body); c >= 0 {
		return strings.TrimRight(body[:c], " \t")
	}
	return body
}

// lastDashCol returns the column of the last "- " of a line.
func lastDashCol(l textLine, s blockShape) int {
	col := s.keyCol - 1
	body := l.body
	for col > l.indent && body[col-l.indent] != '-' {
		col--
	}
	return col
}

// wordAround returns the run of name characters around offset on its line.
func wordAround(text []byte, l textLine, offset int) (int, int) {
	s := offset
	for s > l.start && isWordByte(text[s-1]) {
		s--
	}
	// A key's colon is not part of the word after it ("key:value" is rare;
	// "key:" then typing is common).
	if s < offset && text[s] == ':' {
		s++
	}
	e := offset
	for e < l.end && isWordByte(text[e]) {
		e++
	}
	// Do not swallow a mapping colon that follows a key being edited.
	if e > offset && text[e-1] == ':' {
		e--
	}
	return s, e
}

// parentPath returns the keys of the mappings that enclose a line whose
// content starts at column col. For a sequence item (item is true), col is
// its dash's column, and a key at that same column may own it
// ("imports:\n- a.yaml").
func parentPath(lines textLines, li, col int, item bool) []string {
	var rev []string
	want, sameOK := col, item
	for i := li - 1; i >= 0 && (want > 0 || sameOK); i-- {
		// A line indented as deep as the block (or deeper) neither opens
		// it nor holds it: its key and its dash are at or after its indent.
		if ind := lines.indent(i); lines.blank(i) || ind > want || ind == want && (!sameOK || lines.isItem(i)) {
			continue
		}
		l := lines.at(i)
		s := shapeOf(l)
		if s.dashes > 0 && s.dashCol < want {
			// Inside that sequence item: "- key:" opens a deeper mapping
			// ("- name:\n    tools: ..."), "- key: v" is a sibling key.
			if s.hasColon && s.keyCol < want && s.value == "" {
				rev = append(rev, s.key)
			}
			rev = append(rev, "-")
			want, sameOK = s.dashCol, true
			continue
		}
		if s.dashes == 0 && s.hasColon && s.key != "" && (s.value == "" || isFlowOpen(s.value)) &&
			(s.keyCol < want || sameOK && s.keyCol == want) {
			rev = append(rev, s.key)
			want, sameOK = s.keyCol, false
		}
	}
	return reverse(rev)
}

// isFlowOpen reports whether a value opens a flow collection it does not
// close on its line ("[", "[read,").
func isFlowOpen(v string) bool {
	if v == "" || v[0] != '[' && v[0] != '{' {
		return false
	}
	depth := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case '"', '\'':
			if j := skipQuoted(v, i); j >= 0 {
				i = j
			}
		}
	}
	return depth > 0
}

func reverse(s []string) []string {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}

// eachInBlock calls fn with every line of the block that holds line li
// (its own line left out), walking up and then down until a line indented
// less than col ends the block. For a sequence (item is true), a key at the
// dash column ends it too ("imports:\n- a\nother:").
func eachInBlock(lines textLines, li, col int, item bool, fn func(textLine)) {
	ends := func(l textLine) bool {
		// A line's first dash, or its key when it has none, is at l.indent.
		return l.indent < col || item && l.indent == col && !startsItem(l.body)
	}
	for i := li - 1; i >= 0; i-- {
		if lines.blank(i) || lines.indent(i) > col {
			continue // blank, or deeper: inside a sibling's value
		}
		l := lines.at(i)
		if ends(l) {
			break
		}
		fn(l)
	}
	for i := li + 1; i < lines.n(); i++ {
		if lines.blank(i) || lines.indent(i) > col {
			continue
		}
		l := lines.at(i)
		if ends(l) {
			break
		}
		fn(l)
	}
}

// keySiblings returns the other keys at column col in li's mapping, and
// their string values.
func keySiblings(lines textLines, li, col int) ([]string, []string) {
	var keys, values []string
	eachInBlock(lines, li, col, false, func(l textLine) {
		if l.indent != col || startsItem(l.body) {
			return
		}
		s := shapeOf(l)
		if s.hasColon {
			keys = append(keys, s.key)
			values = append(values, unquote(s.value))
		} else if k := strings.TrimSpace(stripComment(s.keyText(l))); k != "" {
			keys = append(keys, unquote(k))
			values = append(values, "")
		}
	})
	return keys, values
}

func (s blockShape) keyText(l textLine) string { return l.body[s.keyCol-l.indent:] }

// itemSiblings returns the other items of the sequence whose dashes are at
// column dashCol.
func itemSiblings(lines textLines, li, dashCol int) []string {
	var items []string
	eachInBlock(lines, li, dashCol, true, func(l textLine) {
		if !startsItem(l.body) && l.indent <= dashCol {
			return
		}
		s := shapeOf(l)
		if s.dashes == 0 || s.hasColon || lastDashCol(l, s) != dashCol {
			return
		}
		if v := unquote(strings.TrimSpace(stripComment(s.keyText(l)))); v != "" {
			items = append(items, v)
		}
	})
	return items
}

// startsItem reports whether a line body starts a sequence item ("- x", "-").
func startsItem(body string) bool {
	return body == "-" || strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "-\t")
}
