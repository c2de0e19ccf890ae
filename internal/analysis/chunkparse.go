package analysis

import (
	"bytes"
	"errors"
	"hash/maphash"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Chunked parsing: a keystroke in a large manifest re-parses only the few
// hundred lines around it. The file is cut at line boundaries where a full
// parse is known to be in the same state (a new top-level key, or a new
// entry of a large top-level mapping or sequence), each chunk is parsed by
// yaml.v3 on its own, with its indentation kept (so columns are the file's)
// and its lines shifted to the file's, and the chunks' nodes are assembled
// into the tree a full parse gives. A chunk whose bytes did not change is
// reused from the previous parse of the file (copied with shifted lines when
// it moved). Anything unusual (directives, document markers, tabs, anchors,
// aliases, flow or indented roots, a syntax error...) falls back to the full
// parse, which stays the reference: the differential tests and
// FuzzIncrementalParse compare both node for node.
//
// Comments are not carried over exactly (yaml.v3 attaches a comment at a
// chunk boundary to a different node): nothing reads HeadComment,
// LineComment or FootComment from the parsed tree.

// chunkTarget is the number of lines a chunk grows to before it is cut at
// the next safe boundary; a top-level entry longer than twice that is cut
// inside.
const chunkTarget = 32

// parseFileAfter is parseFile by chunks of about target lines, reusing
// those of prev, the previous parse of the file, and its duplicate-key
// findings and agents for unchanged subtrees too. A parse it cannot make by
// chunks is made whole. It returns nil when stop stops.
func parseFileAfter(stop *stopper, path string, content []byte, prev *parsed, target int) *parsed {
	doc, chunks, ok := chunkedTree(stop, content, prev.chunks, target)
	if stop.stoppedErr() != nil {
		return nil
	}
	if !ok {
		p := parseFile(stop, path, content)
		if p == nil {
			return nil
		}
		p.chunks = prev.chunks
		return p
	}
	lines := diag.NewLines(content)
	pos := newPositions(content, lines)
	p := &parsed{path: path, text: content, lines: lines, pos: pos, chunks: chunks, byChunks: true}
	p.doc = doc
	p.root = doc.Content[0]
	p.tree = buildTree(stop, p.root, pos, prev.tree)
	p.checkShape()
	p.stop = stop
	p.checkDuplicateKeys(prev.dups)
	p.stop = nil
	if stop.stoppedErr() != nil {
		return nil
	}
	return p
}

// lineInfo describes one line of the file.
type lineInfo struct {
	start, end int // byte offsets, end after the line feed
	indent     int // leading spaces
	content    bool
	// lead is the line's first byte after its indentation and lead2 the
	// one after that (0 past the line's end, line break included), for
	// the cuts of a big region (bigRegion).
	lead, lead2 byte
}

// chunkedTree builds the document by chunks, or reports !ok when the file
// must be parsed whole, or stop stopped.
func chunkedTree(stop *stopper, content []byte, prev *chunkSet, target int) (*yaml.Node, *chunkSet, bool) {
	lines, ok := splitLines(content)
	if !ok {
		return nil, nil, false
	}
	b := &chunkBuilder{stop: stop, text: content, lines: lines, prev: prev, next: nextChunkSet(prev), target: target}
	// Top-level regions: from a line with content at column 1 to the next.
	var starts []int
	for i, l := range lines {
		if !l.content || l.indent > 0 {
			continue
		}
		if !plainKeyStart(l.lead) {
			return nil, nil, false
		}
		starts = append(starts, i)
	}
	if len(starts) == 0 {
		return nil, nil, false
	}
	for _, l := range lines[:starts[0]] {
		if l.content {
			return nil, nil, false // an indented first entry
		}
	}
	starts[0] = 0 // leading comments go with the first chunk
	var root *yaml.Node
	var pairs []*yaml.Node
	var doc *yaml.Node
	group := -1 // first line of the pending group of small regions
	flush := func(end int) bool {
		if group < 0 {
			return true
		}
		cp, ok := b.chunk(group, end)
		group = -1
		if !ok {
			return false
		}
		r := cp.root()
		if r.Kind != yaml.MappingNode || r.Style != 0 || r.Column != 1 || r.Line != b.firstContent(cp.start-1)+1 || len(r.Content) == 0 {
			return false
		}
		if doc == nil {
			doc, root = cp.doc, r
		}
		pairs = append(pairs, r.Content...)
		return true
	}
	for ri, s := range starts {
		e := len(lines)
		if ri+1 < len(starts) {
			e = starts[ri+1]
		}
		if e-s <= 2*target {
			if group >= 0 && s-group >= target {
				if !flush(s) {
					return nil, nil, false
				}
			}
			if group < 0 {
				group = s
			}
			continue
		}
		if !flush(s) {
			return nil, nil, false
		}
		k, v, first, ok := b.bigRegion(s, e)
		if !ok {
			return nil, nil, false
		}
		if doc == nil {
			doc, root = first.doc, first.root()
		}
		pairs = append(pairs, k, v)
	}
	if !flush(len(lines)) {
		return nil, nil, false
	}
	nr := *root
	nr.Content = pairs
	nr.HeadComment, nr.LineComment, nr.FootComment = "", "", ""
	nd := *doc
	nd.Content = []*yaml.Node{&nr}
	nd.HeadComment, nd.LineComment, nd.FootComment = "", "", ""
	return &nd, b.next, true
}

// maxChunkLine bounds a line's length: yaml.v3 refuses a nesting deeper
// than 10,000 levels, and a chunk's parse lacks the levels of the entries
// around it, so it could accept what a full parse refuses; nesting needs
// indentation, and lines shorter than this cannot nest that deep.
const maxChunkLine = 8000

// splitLines indexes the lines of content, rejecting what chunks cannot
// hold (unusualBytes, a byte order mark), document markers, directives,
// very long lines and lone carriage returns (a line break a line feed
// count would miss).
func splitLines(content []byte) ([]lineInfo, bool) {
	if hasBOM(content) || unusualBytes(content) {
		return nil, false
	}
	lines := make([]lineInfo, 0, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; off < len(content); {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off + 1
		}
		text := content[off:end]
		body := bytes.TrimRight(text, "\n")
		if cr := bytes.IndexByte(body, '\r'); cr >= 0 && (cr != len(body)-1 || end == len(content) && !bytes.HasSuffix(text, []byte("\n"))) {
			return nil, false // a lone CR
		}
		if len(body) > maxChunkLine {
			return nil, false
		}
		if bytes.HasPrefix(body, []byte("---")) || bytes.HasPrefix(body, []byte("...")) || bytes.HasPrefix(body, []byte("%")) {
			return nil, false
		}
		l := lineInfo{start: off, end: end}
		for l.indent < len(body) && body[l.indent] == ' ' {
			l.indent++
		}
		if l.indent < len(text) {
			l.lead = text[l.indent]
		}
		if l.indent+1 < len(text) {
			l.lead2 = text[l.indent+1]
		}
		rest := bytes.TrimRight(body[l.indent:], "\r")
		l.content = len(rest) > 0 && rest[0] != '#'
		lines = append(lines, l)
		off = end
	}
	return lines, true
}

// unusualBytes reports whether b holds a tab (indentation the chunks'
// columns do not count) or a line break that yaml.v3 counts and a line
// feed count misses: NEL, LS or PS. The longest is 3 bytes.
func unusualBytes(b []byte) bool {
	return bytes.IndexByte(b, '\t') >= 0 || bytes.Contains(b, []byte("\xc2\x85")) ||
		bytes.Contains(b, []byte("\xe2\x80\xa8")) || bytes.Contains(b, []byte("\xe2\x80\xa9"))
}

// hasBOM reports whether b starts with a UTF-8 byte order mark.
func hasBOM(b []byte) bool { return bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}) }

// plainKeyStart reports whether c may begin a plain key at a boundary.
func plainKeyStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type chunkBuilder struct {
	stop   *stopper // a chunk is a unit of work; yaml.v3 reads through it
	text   []byte
	lines  []lineInfo
	prev   *chunkSet
	next   *chunkSet
	target int
}

// chunk parses lines [from, to) or reuses their earlier parse. A chunk
// that ends with an empty value (`key:` or `- ` with nothing after it, or
// `? `) is refused unless it ends the file: yaml.v3 places an empty value at
// the token that follows it, which lies outside the chunk.
func (b *chunkBuilder) chunk(from, to int) (*chunkParse, bool) {
	if b.stop.stopped() {
		return nil, false
	}
	off, end := b.lines[from].start, b.lines[to-1].end
	start := from + 1
	final := to == len(b.lines)
	reuse := func(cp *chunkParse) (*chunkParse, bool) {
		if cp.trailingEmpty && !final {
			return nil, false
		}
		if cp.start != start {
			cp = &chunkParse{key: cp.key, hash: cp.hash, start: start, trailingEmpty: cp.trailingEmpty, doc: shiftedCopy(cp.doc, start-cp.start)}
		}
		b.next.put(cp)
		return cp, true
	}
	text := b.text[off:end]
	h := maphash.Bytes(b.next.seed, text)
	if cp, ok := b.next.find(h, text); ok {
		return reuse(cp)
	}
	if cp, ok := b.prev.find(h, text); ok {
		return reuse(cp)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(b.stop.reader(bytes.NewReader(text)))
	if err := dec.Decode(&doc); err != nil {
		return nil, false
	}
	if len(doc.Content) != 1 || !plainTree(&doc, start-1) {
		return nil, false
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, false
	}
	trailingEmpty := false
	walk(doc.Content[0], func(n *yaml.Node) {
		trailingEmpty = n.Kind == yaml.ScalarNode && n.Style == 0 && n.Value == ""
	})
	cp := &chunkParse{key: string(text), hash: h, start: start, trailingEmpty: trailingEmpty, doc: &doc}
	b.next.put(cp)
	if cp.trailingEmpty && !final {
		return nil, false
	}
	return cp, true
}

// shiftedCopy copies a tree (free of aliases) with its lines moved by delta.
func shiftedCopy(n *yaml.Node, delta int) *yaml.Node {
	c := *n
	c.Line += delta
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = shiftedCopy(k, delta)
		}
	}
	return &c
}

// walk calls f on every node of the tree (free of aliases).
func walk(n *yaml.Node, f func(*yaml.Node)) {
	f(n)
	for _, c := range n.Content {
		walk(c, f)
	}
}

// plainTree shifts a fresh tree's lines by delta and reports whether it is
// free of anchors and aliases (whose meaning crosses chunks).
func plainTree(n *yaml.Node, delta int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode || n.Alias != nil {
		return false
	}
	n.Line += delta
	for _, c := range n.Content {
		if !plainTree(c, delta) {
			return false
		}
	}
	return true
}

// bigRegion parses a long top-level entry [s, e) whose value is a block
// mapping or sequence: the key line with the first entries, then groups of
// entries cut before a line at the entries' indentation.
func (b *chunkBuilder) bigRegion(s, e int) (k, v *yaml.Node, first *chunkParse, ok bool) {
	from := s // the chunk's first line; the first region's has leading comments
	s = b.firstContent(s)
	// Entries: the first content line after the key line sets the indentation.
	body := s + 1
	for body < e && !b.lines[body].content {
		body++
	}
	if body >= e {
		return nil, nil, nil, false
	}
	ind := b.lines[body].indent
	if ind == 0 {
		return nil, nil, nil, false
	}
	for i := body; i < e; i++ {
		if b.lines[i].content && b.lines[i].indent < ind {
			return nil, nil, nil, false
		}
	}
	seq := b.lines[body].lead == '-'
	boundary := func(i int) bool {
		l := b.lines[i]
		if !l.content || l.indent != ind {
			return false
		}
		if seq {
			return l.lead == '-' && (l.start+ind+1 >= l.end || l.lead2 == ' ' || l.lead2 == '\r' || l.lead2 == '\n')
		}
		return plainKeyStart(l.lead)
	}
	// Cut points.
	var cuts []int
	last := body
	for i := body + 1; i < e; i++ {
		if i-last >= b.target && boundary(i) {
			cuts = append(cuts, i)
			last = i
		}
	}
	cuts = append(cuts, e)
	first, ok = b.chunk(from, cuts[0])
	if !ok {
		return nil, nil, nil, false
	}
	r := first.root()
	if r.Kind != yaml.MappingNode || r.Style != 0 || r.Column != 1 || len(r.Content) != 2 || r.Content[0].Line != s+1 {
		return nil, nil, nil, false
	}
	k, v0 := r.Content[0], r.Content[1]
	if v0.Kind != yaml.MappingNode && v0.Kind != yaml.SequenceNode || v0.Style != 0 || v0.Column != ind+1 || v0.Anchor != "" || v0.Tag != "!!map" && v0.Tag != "!!seq" {
		return nil, nil, nil, false
	}
	if (v0.Kind == yaml.SequenceNode) != seq {
		return nil, nil, nil, false
	}
	// The chunks' roots first, then one slice of the value's entries, sized
	// (a 10,000-entry mapping is 20,000 nodes: grown by append, it would be
	// allocated about twice over).
	parts := make([]*yaml.Node, 0, len(cuts))
	n := len(v0.Content)
	for j := 1; j < len(cuts); j++ {
		cp, ok := b.chunk(cuts[j-1], cuts[j])
		if !ok {
			return nil, nil, nil, false
		}
		cr := cp.root()
		if cr.Kind != v0.Kind || cr.Style != 0 || cr.Tag != v0.Tag || cr.Column != ind+1 || cr.Line != cp.start || len(cr.Content) == 0 {
			return nil, nil, nil, false
		}
		parts = append(parts, cr)
		n += len(cr.Content)
	}
	content := make([]*yaml.Node, 0, n)
	content = append(content, v0.Content...)
	for _, cr := range parts {
		content = append(content, cr.Content...)
	}
	nv := *v0
	nv.Content = content
	nv.HeadComment, nv.LineComment, nv.FootComment = "", "", ""
	return k, &nv, first, true
}

// firstContent is the first line with content at or after line i.
func (b *chunkBuilder) firstContent(i int) int {
	for i < len(b.lines) && !b.lines[i].content {
		i++
	}
	return i
}

// ParseEdited parses content, an edited version of f's content, by chunks,
// reusing the chunks of the loader's parse of f whose bytes did not change:
// checking an edit of a 10,000-tool manifest costs a chunk's parse, not the
// whole file's. ok is false when content needs a full parse (the chunked
// parse refuses anything unusual, a syntax error included): parse it whole.
// When ok, doc is the document node a full parse gives, node for node
// (comments aside, see chunkparse.go), content holds exactly that one
// document, and doc's nodes may be shared with f.Doc's: read-only.
func (f *File) ParseEdited(content []byte) (doc *yaml.Node, ok bool) {
	if f == nil {
		return nil, false
	}
	doc, _, ok = chunkedTree(nil, content, f.chunks, chunkTarget)
	return doc, ok
}

// OneDocument reports whether the loader's parse of f established that it
// holds exactly one YAML document (it was parsed by chunks, which refuse
// document markers). False says nothing.
func (f *File) OneDocument() bool { return f != nil && f.byChunks }
