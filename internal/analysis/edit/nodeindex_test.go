package edit

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"
)

// nodeAtByWalk is the reference nodeAt: a walk from the document for each
// offset, later children first, stopping at the first scalar starting
// there.
func nodeAtByWalk(y *yfile, offset int) (*yaml.Node, []*yaml.Node) {
	if y == nil || y.doc == nil {
		return nil, nil
	}
	type frame struct {
		n       *yaml.Node
		parents []*yaml.Node
	}
	stack := []frame{{n: y.doc}}
	for steps := 0; len(stack) > 0 && steps < maxIndexedNodes; steps++ {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if fr.n.Kind == yaml.ScalarNode && y.start(fr.n) == offset {
			return fr.n, fr.parents
		}
		parents := append(append([]*yaml.Node(nil), fr.parents...), fr.n)
		for _, c := range fr.n.Content {
			stack = append(stack, frame{n: c, parents: parents})
		}
	}
	return nil, nil
}

// nodeAt finds, at every offset of generated manifests and of the golden
// cases' YAML files, the node and ancestors a walk from the document finds.
func TestNodeAtMatchesAWalk(t *testing.T) {
	var contents [][]byte
	for seed := uint64(0); seed < generatedSeeds; seed++ {
		data, err := generate(seed).ReadFile(filepath.Join(testRoot, "beeuni.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, data)
	}
	paths, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if filepath.Ext(f.Name) == ".yaml" {
				contents = append(contents, f.Data)
			}
		}
	}
	found := 0
	for _, content := range contents {
		y, err := parseYFile("/repo/beeuni.yaml", content)
		if err != nil {
			continue
		}
		for off := 0; off <= len(content); off++ {
			n, parents := y.nodeAt(off)
			wn, wparents := nodeAtByWalk(y, off)
			if n != wn || !reflect.DeepEqual(parents, wparents) {
				t.Fatalf("offset %d of\n%s\nnodeAt gives %v under %d parents, a walk %v under %d", off, content, n, len(parents), wn, len(wparents))
			}
			if n != nil {
				found++
			}
		}
	}
	if found == 0 {
		t.Fatal("no scalar found")
	}
}
