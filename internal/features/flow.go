package features

// This file reads the cursor's context inside a flow collection
// (`tools: [read, gr|]`, `tools: { exclude: [b| ] }`), which may span lines
// and may not be closed yet.

// flowFrame is one open [..] or {..}.
type flowFrame struct {
	open   byte   // '[' or '{'
	owner  string // the key whose value it is; "-" for a sequence item
	items  []string
	values []string // in a mapping: each item's scalar value ("" for none)
	key    string   // in a mapping: the key of the pair being read
	colon  bool     // in a mapping: past the pair's colon
	tok    []byte
	tokAt  int // offset of the token's first byte, -1 when empty
	tokEnd int
}

// flowResult is what the scan saw at the cursor.
type flowResult struct {
	ok       bool
	path     []string // owners of the frames, outermost first
	slot     slotKind
	key      string
	siblings []string
	values   []string // the siblings' values, in a mapping
}

// scanFlow reads text from start (an opening bracket) and reports the
// cursor's slot at offset, or ok=false when the collection closes before
// the cursor. It stops at the end of the collection or of the text.
func scanFlow(text []byte, start, offset int, outerOwner string) flowResult {
	var stack []*flowFrame
	var res flowResult
	target := -1 // depth of the frame that holds the cursor
	finishTok := func(f *flowFrame, sep byte) {
		tok := string(f.tok)
		cursorIn := f.tokAt >= 0 && f.tokAt <= offset && offset <= f.tokEnd
		if f.open == '[' {
			if tok != "" && !cursorIn {
				f.items = append(f.items, tok)
			}
		} else if sep != ':' {
			k := f.key
			if !f.colon {
				k = tok
			}
			keyIn := !f.colon && cursorIn
			if k != "" && !keyIn {
				v := ""
				if f.colon && !cursorIn {
					v = tok
				}
				f.items = append(f.items, k)
				f.values = append(f.values, v)
			}
			f.key, f.colon = "", false
		}
		f.tok, f.tokAt = f.tok[:0], -1
	}
	snapshot := func() {
		if len(stack) == 0 || target >= 0 {
			return
		}
		target = len(stack) - 1
		f := stack[target]
		for _, fr := range stack {
			res.path = append(res.path, fr.owner)
		}
		switch {
		case f.open == '[':
			res.slot = slotItem
		case f.colon:
			res.slot = slotValue
			res.key = f.key
		default:
			res.slot = slotKey
		}
		res.ok = true
	}
	for i := start; i < len(text); i++ {
		if i == offset {
			snapshot()
		}
		c := text[i]
		var top *flowFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch {
		case c == '[' || c == '{':
			owner := outerOwner
			if top != nil {
				owner = "-"
				if top.open == '{' {
					owner = top.key
					if !top.colon {
						owner = string(top.tok)
					}
				}
			}
			stack = append(stack, &flowFrame{open: c, owner: owner, tokAt: -1})
		case c == ']' || c == '}':
			if top == nil {
				return res
			}
			finishTok(top, c)
			if target == len(stack)-1 {
				res.siblings, res.values = top.items, top.values
				return res
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return res // closed before the cursor
			}
			// The collection was a value: the pair is complete.
			p := stack[len(stack)-1]
			p.tok, p.tokAt = p.tok[:0], -1
			if p.open == '{' {
				p.colon = true // the nested value stands for the pair's value
			}
		case top == nil:
			return res
		case c == ',':
			finishTok(top, c)
		case c == ':' && top.open == '{' && !top.colon && (i+1 >= len(text) || isFlowBreak(text[i+1])):
			top.key = string(top.tok)
			top.colon = true
			top.tok, top.tokAt = top.tok[:0], -1
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(text) && text[j] != c && text[j] != '\n'; j++ {
				if c == '"' && text[j] == '\\' {
					j++
				}
			}
			if top.tokAt < 0 {
				top.tokAt = i
			}
			if j > len(text) {
				j = len(text)
			}
			top.tok = append(top.tok, text[min(i+1, j):j]...)
			if j < len(text) && text[j] == c {
				top.tokEnd = j + 1
			} else {
				top.tokEnd = j
			}
			if offset > i && offset <= j {
				snapshot()
			}
			i = j
			if i >= len(text) {
				i = len(text) - 1
			}
		case c == '#' && i > 0 && (text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < len(text) && text[i] != '\n' {
				if i == offset {
					return flowResult{} // in a comment
				}
				i++
			}
			i--
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			if top.tokAt < 0 {
				top.tokAt = i
			}
			top.tok = append(top.tok, c)
			top.tokEnd = i + 1
		}
	}
	if offset == len(text) {
		snapshot()
	}
	if target >= 0 && target < len(stack) {
		f := stack[target]
		finishTok(f, 0)
		res.siblings, res.values = f.items, f.values
	}
	return res
}

func isFlowBreak(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}'
}

// flowOwner finds the flow collection that holds offset: one that opens on
// the cursor's line before it, or one that opened on a line above and is
// still open. It returns the line of the key that owns it and the offset of
// its opening bracket, or -1.
func flowOwner(text []byte, lines textLines, li, offset int) (int, int) {
	cur := lines.at(li)
	if s := shapeOf(cur); s.hasColon && cur.start+s.valueCol < offset && s.valueCol-cur.indent < len(cur.body) {
		if b := text[cur.start+s.valueCol]; b == '[' || b == '{' {
			return li, cur.start + s.valueCol
		}
	}
	// An unclosed collection from a line above: only the nearest line above
	// that is indented less can open it (flow content is indented more than
	// the key that owns it).
	ind := cur.indent
	if cur.blank {
		ind = offset - cur.start
	}
	for i := li - 1; i >= 0; i-- {
		if lines.blank(i) || lines.indent(i) >= ind {
			continue
		}
		l := lines.at(i)
		if s := shapeOf(l); s.hasColon && isFlowOpen(s.value) {
			return i, l.start + s.valueCol
		}
		return -1, -1
	}
	return -1, -1
}
