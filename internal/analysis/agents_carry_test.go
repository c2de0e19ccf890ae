package analysis

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestAgentsCarriedOver renames tools back and forth (a letter typed at the
// end of a key, a capital letter that drops the tool, T1) under agents that
// list it, list others, exclude one, see every tool or have an A1, and
// requires every load to equal Load (the agent listing the renamed tool
// gets its A1 and its suggestion follows the new name; the one with an A1
// gets the renamed tool as its suggestion), the agents naming none of the
// changed names to keep their view (the same storage), and those seeing the
// universe to see the new one.
func TestAgentsCarriedOver(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n  read: beeuni:read\n")
	for i := range 200 {
		if i == 100 {
			b.WriteString("  special: tools/a.ts\n")
		}
		fmt.Fprintf(&b, "  tool_%03d: tools/a.ts\n", i)
	}
	b.WriteString("agents:\n")
	b.WriteString("  lister:\n    tools: [read, special]\n")
	b.WriteString("  other:\n    tools: [tool_150, tool_003, bash]\n")
	b.WriteString("  excluder:\n    tools: {exclude: [tool_003]}\n")
	b.WriteString("  everything:\n    tools: all\n")
	b.WriteString("  typo:\n    tools: [specialx, tool_003]\n")
	content := []byte(b.String())
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	fsys.WriteFile(manifest, content)
	fsys.WriteFile(filepath.Join(testRoot, "tools", "a.ts"), []byte("export default {}\n"))
	cache := NewCache()
	cache.chunkLines = 8
	at := bytes.Index(content, []byte("special:")) + len("special")
	versions := [][]byte{content, splice(content, at, 0, "x"), content, splice(content, at, 0, "X"), content, splice(content, at, 0, "y")}
	ctx := context.Background()
	var last *Project
	for i, v := range versions {
		fsys.WriteFile(manifest, v)
		compareLoads(t, fsys, cache)
		p, err := LoadCached(ctx, fsys, testRoot, cache) // the same version again: the same tool set
		if err != nil {
			t.Fatal(err)
		}
		if last != nil {
			for _, name := range []string{"other", "everything"} {
				was, now := agentNamed(last, name), agentNamed(p, name)
				if shared := &was.Sees.names[0] == &now.Sees.names[0]; shared != (name == "other") {
					t.Fatalf("version %d: %s's view shared with the last tool set's: %v", i, name, shared)
				}
			}
		}
		last = p
		typo := findingFor(p, "specialx")
		if renamed := i == 1; (typo == "") != renamed {
			t.Fatalf("version %d: the A1 on specialx is %q", i, typo)
		}
		if i == 5 && !strings.Contains(findingFor(p, "special"), "did you mean `specialy`") {
			t.Fatalf("version %d: the A1 on special is %q, want a suggestion of specialy", i, findingFor(p, "special"))
		}
	}
}

func agentNamed(p *Project, name string) *Agent {
	for i := range p.Model.Agents {
		if p.Model.Agents[i].Name == name {
			return p.Model.Agents[i]
		}
	}
	return nil
}

// findingFor is the message of the A1 on name, "" without one.
func findingFor(p *Project, name string) string {
	for _, f := range p.Findings {
		if f.Code == CodeUnknownTool && f.Data[DataName] == name {
			return f.Message
		}
	}
	return ""
}
