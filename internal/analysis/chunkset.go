package analysis

import (
	"hash/maphash"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"go.yaml.in/yaml/v3"
)

// The chunks of one chunked parse (chunkparse.go), kept for the next parse
// of the file: each chunk's nodes with what assembling them reads, found
// again by the chunk's bytes or, outside a keystroke's edit, by its offset.

// chunkParse is one chunk's parse, its nodes positioned for the chunk
// starting at file line start. It is immutable once stored: trees built from
// it share its nodes.
type chunkParse struct {
	key   string
	hash  uint64 // of key, by the seed of the sets that hold the chunk
	start int    // the file line of the chunk's first line
	// trailingEmpty is set when the chunk ends with an empty value.
	trailingEmpty bool
	doc           *yaml.Node // the chunk's document node; doc.Content[0] is its root
	// root is what assembling the chunks reads of the root, copied here:
	// a keystroke assembles hundreds of chunks, and reading each one's
	// document and root nodes, cold in memory, was most of that work.
	root chunkRoot
}

// chunkRoot is a chunk's root node with the fields the assembly checks.
type chunkRoot struct {
	node         *yaml.Node
	kind         yaml.Kind
	style        yaml.Style
	tag          string
	line, column int
	content      []*yaml.Node
}

// newChunkParse returns the chunk of key's bytes, hashing to hash, whose
// document doc (holding one root) starts at file line start.
func newChunkParse(key string, hash uint64, start int, trailingEmpty bool, doc *yaml.Node) *chunkParse {
	r := doc.Content[0]
	return &chunkParse{key: key, hash: hash, start: start, trailingEmpty: trailingEmpty, doc: doc,
		root: chunkRoot{node: r, kind: r.Kind, style: r.Style, tag: r.Tag, line: r.Line, column: r.Column, content: r.Content}}
}

// chunkSet is the chunks of one parse, by their bytes and by where they
// start in the content parsed. A chunk is found by a hash of its bytes,
// made once per chunk (a 10,000-tool manifest is 870 KB to hash), and its
// bytes compared on a hit; of two chunks whose hashes collide, the set
// keeps the first by hash (the other is parsed again when it is looked up
// by its bytes). Each set hashes with the seed of the set it was made
// from, so that the hashes of both compare. When the parse scratch knows the one edit that made the content
// out of the set's (splitEdit), a chunk outside the edit is the set's chunk
// at the same offset (moved by the edit's length after it): found without
// hashing or comparing its bytes.
type chunkSet struct {
	seed     maphash.Seed
	byHash   map[uint64]*chunkParse
	byOffset map[int]*chunkParse
	text     *diag.Text // what byOffset's offsets index
}

// nextChunkSet returns an empty set for the parse of content after prev's,
// sized for as many chunks.
func nextChunkSet(prev *chunkSet, content *diag.Text) *chunkSet {
	if prev == nil {
		return &chunkSet{seed: maphash.MakeSeed(), byHash: map[uint64]*chunkParse{}, byOffset: map[int]*chunkParse{}, text: content}
	}
	n := len(prev.byHash)
	return &chunkSet{seed: prev.seed, byHash: make(map[uint64]*chunkParse, n), byOffset: make(map[int]*chunkParse, n), text: content}
}

// find returns the chunk of text, whose hash (by cs's seed) is h.
func (cs *chunkSet) find(h uint64, text []byte) (*chunkParse, bool) {
	if cs == nil {
		return nil, false
	}
	cp, ok := cs.byHash[h]
	if !ok || cp.key != string(text) {
		return nil, false
	}
	return cp, true
}

// at returns the chunk of n bytes that starts at offset off of cs's
// content.
func (cs *chunkSet) at(off, n int) (*chunkParse, bool) {
	if cs == nil {
		return nil, false
	}
	cp, ok := cs.byOffset[off]
	if !ok || len(cp.key) != n {
		return nil, false
	}
	return cp, true
}

// withoutContent returns cs's chunks without the content their offsets
// index, for a parse that keeps them but not that content (a full parse's
// fallback): found by their bytes only.
func (cs *chunkSet) withoutContent() *chunkSet {
	if cs == nil {
		return nil
	}
	return &chunkSet{seed: cs.seed, byHash: cs.byHash}
}

// put adds cp, starting at offset off of cs's content, unless a chunk with
// its hash is there already.
func (cs *chunkSet) put(off int, cp *chunkParse) {
	if _, ok := cs.byHash[cp.hash]; !ok {
		cs.byHash[cp.hash] = cp
	}
	cs.byOffset[off] = cp
}
