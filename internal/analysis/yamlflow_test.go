package analysis

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestYAMLFlowClose(t *testing.T) {
	tests := []struct {
		name    string
		content string
		open    int
		want    int // offset of the closing bracket; -1: not closed
	}{
		{"flat sequence", "[a, b]", 0, 5},
		{"flat mapping", "{a: 1}", 0, 5},
		{"after a key", "tools: [a]\n", 7, 9},
		{"nested", "[a, {b: [c]}, d] tail", 0, 15},
		{"brackets in double quotes", `["]", "\"]"] x`, 0, 11},
		{"brackets in single quotes", `['a'']b', c] x`, 0, 11},
		{"comment after LF", "[a, # ]\n b]", 0, 10},
		{"comment after CRLF", "[a, # ]\r\n b]", 0, 11},
		{"comment ended by a lone CR", "[a, # ]\r b] # ]\r", 0, 10},
		{"comment after a lone CR", "[a,\r# ]\r b]", 0, 10},
		{"hash inside a plain scalar", "[a#], b]", 0, 3},
		{"double quote inside a plain scalar", `[w"eb, show] x`, 0, 11},
		{"single quote inside a plain scalar", "[it's, a] x", 0, 8},
		{"quote after a tag", `[!!str "]", a] x`, 0, 13},
		{"quoted value after a flow key", `{"a":"}", b: '}'} x`, 0, 16},
		{"colon inside a plain scalar", `[a:"b, c] x`, 0, 8},
		{"unclosed", "[a, [b]", 0, -1},
		{"comment runs to the end", "[a, # ]", 0, -1},
		{"not an opening bracket", "a]", 0, -1},
		{"out of range", "[]", 2, -1},
		{"negative", "[]", -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := YAMLFlowClose([]byte(tt.content), tt.open)
			if tt.want < 0 {
				if ok {
					t.Fatalf("YAMLFlowClose(%q, %d) = %d, true; want not closed", tt.content, tt.open, got)
				}
				return
			}
			if !ok || got != tt.want {
				t.Fatalf("YAMLFlowClose(%q, %d) = %d, %v; want %d, true", tt.content, tt.open, got, ok, tt.want)
			}
		})
	}
}

// The positions of a flow collection end at its closing bracket whatever
// the line breaks around a comment inside it.
func TestFlowRangeLineBreaks(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		content := strings.ReplaceAll("tools: [a, # ]\n  b]\nx: 1\n", "\n", eol)
		p := newPositions([]byte(content), nil)
		start := strings.Index(content, "[")
		want := strings.Index(content, "b]") + 2
		if got := p.flowEnd(start); got != want {
			t.Errorf("eol %q: flowEnd = %d, want %d", eol, got, want)
		}
	}
}

// A single pair in a flow sequence (`[bash, writ: e, edit]`) has no
// brackets: its range ends with its value, not at the end of the file (a
// range that ran to the end made a memoized load keep a stale end).
func TestFlowPairRangeEndsWithItsValue(t *testing.T) {
	const manifest = "agents:\n  a:\n    tools: [bash, writ: e, edit]\n# after\n"
	fsys := vfs.NewMem()
	fsys.WriteFile(filepath.Join(testRoot, ManifestName), []byte(manifest))
	p, err := Load(context.Background(), fsys, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Findings {
		if f.Code == CodeAgentShape {
			if got := manifest[f.Range.Start.Offset:f.Range.End.Offset]; got != "writ: e" {
				t.Errorf("A3 covers %q, want %q", got, "writ: e")
			}
			return
		}
	}
	t.Fatalf("no A3 finding in %+v", p.Findings)
}
