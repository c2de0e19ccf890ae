package analysis_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// flowManifest is one set of tool entries and agent names written twice:
// as flow collections on one line each, and in block style, one entry a
// line.
type flowManifest struct {
	keys, values, names []string
}

func (m flowManifest) flow() string {
	var b strings.Builder
	b.WriteString("tools: {")
	for i, k := range m.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", k, m.values[i])
	}
	b.WriteString("}\nagents:\n  a:\n    tools: [")
	b.WriteString(strings.Join(m.names, ", "))
	b.WriteString("]\n")
	return b.String()
}

func (m flowManifest) block() string {
	var b strings.Builder
	b.WriteString("tools:\n")
	for i, k := range m.keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, m.values[i])
	}
	b.WriteString("agents:\n  a:\n    tools:\n")
	for _, n := range m.names {
		fmt.Fprintf(&b, "      - %s\n", n)
	}
	return b.String()
}

// Pieces of generated names and values: valid and invalid tool names,
// characters of one, two, three and four bytes, Beeuni and project tools,
// paths that exist, do not, or leave the repository.
var (
	namePieces  = []string{"tool", "_", "web_search", "Bad", "-", "é", "日本", "😀", "x", "memory", "bash", "read", "web_serch", "2"}
	valuePieces = []string{"beeuni:web_search", "beeuni:memory", "beeuni:nope", "tools/a.ts", "tools/none.ts", "/abs.ts", "../up.ts", "''", "1", "tools/日本.ts"}
)

// generatedFlow makes a manifest of n entries from seed bytes.
func generatedFlow(seed []byte, n int) flowManifest {
	at := 0
	next := func(k int) int {
		if len(seed) == 0 {
			at++
			return at % k
		}
		b := int(seed[at%len(seed)]) + at/len(seed)
		at++
		return b % k
	}
	name := func() string {
		var b strings.Builder
		for parts := 1 + next(3); parts > 0; parts-- {
			b.WriteString(namePieces[next(len(namePieces))])
		}
		if strings.HasPrefix(b.String(), "-") {
			return "x" + b.String() // `- -x` would be a list in block style
		}
		return b.String()
	}
	var m flowManifest
	for i := 0; i < n; i++ {
		m.keys = append(m.keys, fmt.Sprintf("%s%d", name(), i))
		m.values = append(m.values, valuePieces[next(len(valuePieces))])
		m.names = append(m.names, name())
	}
	return m
}

var lineMention = regexp.MustCompile(`line \d+`)

// findingTexts describes each finding of a load of manifest by what it
// says (the message with line numbers masked), and, in texts, also by the
// text it covers (positions differ between the styles; a finding covering
// several lines, a whole block collection, has what it says alone).
func findingTexts(t *testing.T, manifest string) (says, texts []string) {
	t.Helper()
	const root = "/repo"
	fsys := vfs.NewMem()
	fsys.WriteFile(filepath.Join(root, analysis.ManifestName), []byte(manifest))
	fsys.WriteFile(filepath.Join(root, "tools/a.ts"), []byte("export default {}\n"))
	p := loadGuarded(t, fsys, root)
	for _, f := range p.Findings {
		text := manifest[f.Range.Start.Offset:f.Range.End.Offset]
		d := fmt.Sprintf("%s %v %s", f.Code, f.Severity, lineMention.ReplaceAllString(f.Message, "line N"))
		says = append(says, d)
		if !strings.Contains(text, "\n") {
			d += " @ " + text
		}
		texts = append(texts, d)
	}
	slices.Sort(says)
	slices.Sort(texts)
	return says, texts
}

// checkFlowLikeBlock checks that the findings of m written on one line
// each are those of m in block style, each on the same text.
func checkFlowLikeBlock(t *testing.T, m flowManifest) {
	t.Helper()
	flowSays, flowTexts := findingTexts(t, m.flow())
	blockSays, blockTexts := findingTexts(t, m.block())
	if !slices.Equal(flowSays, blockSays) {
		t.Fatalf("the flow lines' findings differ from the block style's:\n%s\n---\n%s", strings.Join(flowSays, "\n"), strings.Join(blockSays, "\n"))
	}
	// Every finding of the block style that covers one line covers the
	// same text in the flow style.
	flowSet := map[string]int{}
	for _, d := range flowTexts {
		flowSet[d]++
	}
	for _, d := range blockTexts {
		if !strings.Contains(d, " @ ") {
			continue
		}
		if flowSet[d] == 0 {
			t.Fatalf("block-style finding %q has no equal on the flow lines", d)
		}
		flowSet[d]--
	}
}

// A flow mapping of 40,000 tools and an agent list of 40,000 names, each
// on one line: the findings are those of the block-style manifest, on the
// same text, within the hang guard (each node's position used to walk its
// line from the start: 34 s for 20,000 entries, quadratic, so minutes
// here).
func TestHostileLongFlowLines(t *testing.T) {
	analysis.OneGoroutine(t)
	m := generatedFlow([]byte("flow lines"), 40000)
	for i := range m.names {
		if i%50 != 0 {
			m.names[i] = m.keys[i] // mostly declared tools: few suggestions to look for
		}
	}
	checkFlowLikeBlock(t, m)
}

// FuzzFlowLineMatchesBlock generates tool entries and agent names (long
// lines, characters of every UTF-8 length, invalid names and values) and
// checks that the findings of the flow-style manifest equal those of the
// block-style one, each covering the same text.
func FuzzFlowLineMatchesBlock(f *testing.F) {
	f.Add([]byte("seed"), uint16(50))
	f.Add([]byte{0, 1, 2, 3, 250}, uint16(3000))
	f.Add([]byte("日本😀"), uint16(1))
	f.Fuzz(func(t *testing.T, seed []byte, n uint16) {
		checkFlowLikeBlock(t, generatedFlow(seed, int(n%4000)))
	})
}
