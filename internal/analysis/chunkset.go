package analysis

import (
	"hash/maphash"

	"go.yaml.in/yaml/v3"
)

// The chunks of one chunked parse (chunkparse.go), kept for the next parse
// of the file: each chunk's nodes, found again by the chunk's bytes.

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
}

// root returns the chunk's root node.
func (cp *chunkParse) root() *yaml.Node { return cp.doc.Content[0] }

// chunkSet is the chunks of one parse, by their bytes. A chunk is found by
// a hash of its bytes, made once per chunk, and its bytes compared on a
// hit; of two chunks whose hashes collide, the set keeps the first (the
// other is parsed again when it is looked up). Each set hashes with the
// seed of the set it was made from, so that the hashes of both compare.
type chunkSet struct {
	seed   maphash.Seed
	byHash map[uint64]*chunkParse
}

// nextChunkSet returns an empty set for the parse after prev's, sized for
// as many chunks.
func nextChunkSet(prev *chunkSet) *chunkSet {
	if prev == nil {
		return &chunkSet{seed: maphash.MakeSeed(), byHash: map[uint64]*chunkParse{}}
	}
	return &chunkSet{seed: prev.seed, byHash: make(map[uint64]*chunkParse, len(prev.byHash))}
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

// put adds cp unless a chunk with its hash is there already.
func (cs *chunkSet) put(cp *chunkParse) {
	if _, ok := cs.byHash[cp.hash]; !ok {
		cs.byHash[cp.hash] = cp
	}
}
