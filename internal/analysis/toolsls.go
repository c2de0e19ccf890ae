package analysis

import (
	"strings"
	"unicode/utf8"
)

// ToolsList is the JSON form of `tools ls` (SPEC section 6).
type ToolsList struct {
	Manifest string          `json:"manifest"` // the root manifest, repository-relative
	ToolsKey bool            `json:"tools_key"`
	Tools    []ToolsListItem `json:"tools"`
	Removed  []string        `json:"removed"` // empty, never null, when nothing is removed
}

// ToolsListItem is one row of `tools ls`.
type ToolsListItem struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
}

// ToolsLsJSON returns the object `tools ls --json` prints.
func ToolsLsJSON(p *Project) ToolsList {
	out := ToolsList{Manifest: ManifestName, Tools: []ToolsListItem{}, Removed: []string{}}
	if len(p.Files) > 0 {
		out.Manifest = p.Files[0].Rel
	}
	if p.Model == nil {
		return out
	}
	out.ToolsKey = p.Model.ToolsKey
	for _, t := range p.Model.Tools {
		out.Tools = append(out.Tools, ToolsListItem{Name: t.Name, Kind: t.Kind.String(), Source: t.Source})
	}
	out.Removed = append(out.Removed, p.Model.Removed...)
	return out
}

// FormatToolsLs returns exactly the text of SPEC section 6: a header, one
// row per tool with columns two spaces apart, and the removed Beeuni tools
// when there are any.
func FormatToolsLs(m *Model) string {
	rows := [][3]string{{"NAME", "KIND", "SOURCE"}}
	for _, t := range m.Tools {
		rows = append(rows, [3]string{t.Name, t.Kind.String(), t.Source})
	}
	var w [2]int
	for _, r := range rows {
		for c := 0; c < 2; c++ {
			w[c] = max(w[c], utf8.RuneCountInString(r[c]))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for c := 0; c < 2; c++ {
			b.WriteString(r[c])
			b.WriteString(strings.Repeat(" ", w[c]-utf8.RuneCountInString(r[c])+2))
		}
		b.WriteString(r[2])
		b.WriteByte('\n')
	}
	if len(m.Removed) > 0 {
		b.WriteString("\nRemoved Beeuni tools: ")
		b.WriteString(strings.Join(m.Removed, ", "))
		b.WriteString("\nAdd `<name>: beeuni:<name>` under `tools:` to get one back.\n")
	}
	return b.String()
}
