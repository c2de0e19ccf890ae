package edit

import "go.yaml.in/yaml/v3"

// nodeIndex finds a file's scalar nodes by the offset their text starts
// at: one walk of the file's nodes, on the first nodeAt, serves every
// finding a request plans fixes for (a selection over 500 findings of a
// 5,000-tool manifest walked its 20,000 nodes 500 times).
type nodeIndex struct {
	// scalars holds, for each offset, the first scalar of the walk whose
	// text starts there.
	scalars map[int]*yaml.Node
	// parent is each node's parent (the document node has none).
	parent map[*yaml.Node]*yaml.Node
}

// maxIndexedNodes bounds the walk on a pathological file (aliases are not
// followed: the nodes are a tree, but a flow line may hold a million).
const maxIndexedNodes = 1000000

// nodeAt returns the scalar node whose text starts at offset in file, with
// its ancestors (document first). When several scalars start at offset
// (an empty value placed at the next key), it is the one a depth-first
// walk that visits later children first meets first.
func (y *yfile) nodeAt(offset int) (*yaml.Node, []*yaml.Node) {
	if y == nil || y.doc == nil {
		return nil, nil
	}
	if y.nodes == nil {
		y.nodes = y.indexNodes()
	}
	n := y.nodes.scalars[offset]
	if n == nil {
		return nil, nil
	}
	var parents []*yaml.Node
	for p := y.nodes.parent[n]; p != nil; p = y.nodes.parent[p] {
		parents = append(parents, p)
	}
	for i, j := 0, len(parents)-1; i < j; i, j = i+1, j-1 {
		parents[i], parents[j] = parents[j], parents[i]
	}
	return n, parents
}

// indexNodes walks the file's nodes from the document, later children
// first, maxIndexedNodes at most.
func (y *yfile) indexNodes() *nodeIndex {
	idx := &nodeIndex{scalars: map[int]*yaml.Node{}, parent: map[*yaml.Node]*yaml.Node{}}
	stack := []*yaml.Node{y.doc}
	for steps := 0; len(stack) > 0 && steps < maxIndexedNodes; steps++ {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.ScalarNode {
			if off := y.start(n); idx.scalars[off] == nil {
				idx.scalars[off] = n
			}
		}
		for _, c := range n.Content {
			idx.parent[c] = n
			stack = append(stack, c)
		}
	}
	return idx
}
