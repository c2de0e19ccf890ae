package analysis

import (
	"strings"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// ToolsList is the JSON form of `tools ls` (SPEC section 6), with the
// entries that will not load.
type ToolsList struct {
	Manifest  string          `json:"manifest"` // the root manifest, repository-relative
	ToolsKey  bool            `json:"tools_key"`
	Tools     []ToolsListItem `json:"tools"`
	NotLoaded []NotLoaded     `json:"not_loaded"` // empty, never null, when every entry loads
	Removed   []string        `json:"removed"`    // empty, never null, when nothing is removed
}

// ToolsListItem is one row of `tools ls`. Loads is false when the table
// lists the tool but the daemon will skip it (its module is missing, T6,
// or will not load, T11).
type ToolsListItem struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	Loads  bool   `json:"loads"`
}

// NotLoaded is an entry of `tools:` whose tool the session will not get:
// a listed tool whose module is missing (T6) or will not load (T11), or a
// Beeuni tool with a wrong `beeuni:` value (T3), which the table cannot
// list.
type NotLoaded struct {
	Name    string `json:"name"`
	Source  string `json:"source"` // the value as written
	Code    string `json:"code"`
	Message string `json:"message"`
}

// notLoadingCodes are the findings on an entry that mean its tool will
// not load.
var notLoadingCodes = map[string]bool{CodeMissing: true, CodeModuleLoad: true, CodeBeeuniValue: true}

// NotLoadedTools returns the entries whose tool will not load, in the
// order of findings (the project's with the module inspection's, sorted
// with diag.Sort), one per tool name.
func NotLoadedTools(p *Project, findings []diag.Finding) []NotLoaded {
	out := []NotLoaded{}
	if p == nil || p.Model == nil {
		return out
	}
	seen := map[string]bool{}
	for _, f := range findings {
		name := f.Data[DataName]
		if !notLoadingCodes[f.Code] || name == "" || seen[name] {
			continue
		}
		source := ""
		if t, ok := p.Model.Tool(name); ok && t.File == f.File {
			source = t.Source
		} else if file := p.File(f.File); file != nil && f.Code == CodeBeeuniValue {
			if s, e := f.Range.Start.Offset, f.Range.End.Offset; s <= e && e <= len(file.Content()) {
				source = strings.Trim(string(file.Content()[s:e]), `"'`)
			}
		}
		if source == "" {
			continue // a finding on another declaration of the name (T9)
		}
		seen[name] = true
		out = append(out, NotLoaded{Name: name, Source: source, Code: f.Code, Message: f.Message})
	}
	return out
}

// ToolsLsJSON returns the object `tools ls --json` prints; notLoaded is
// NotLoadedTools' list.
func ToolsLsJSON(p *Project, notLoaded []NotLoaded) ToolsList {
	out := ToolsList{Manifest: ManifestName, Tools: []ToolsListItem{}, NotLoaded: []NotLoaded{}, Removed: []string{}}
	if len(p.Files) > 0 {
		out.Manifest = p.Files[0].Rel
	}
	if p.Model == nil {
		return out
	}
	fails := map[string]bool{}
	for _, n := range notLoaded {
		fails[n.Name] = true
	}
	out.ToolsKey = p.Model.ToolsKey
	for _, t := range p.Model.Tools {
		out.Tools = append(out.Tools, ToolsListItem{Name: t.Name, Kind: t.Kind.String(), Source: t.Source, Loads: !fails[t.Name]})
	}
	out.NotLoaded = append(out.NotLoaded, notLoaded...)
	out.Removed = append(out.Removed, p.Model.Removed...)
	return out
}

// FormatToolsLs returns exactly the text of SPEC section 6: a header, one
// row per tool with columns two spaces apart, and the removed Beeuni tools
// when there are any; between the two, when some entries will not load, a
// line naming them with their codes.
func FormatToolsLs(m *Model, notLoaded []NotLoaded) string {
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
	if len(notLoaded) > 0 {
		names := make([]string, len(notLoaded))
		for i, n := range notLoaded {
			names[i] = n.Name + " [" + n.Code + "]"
		}
		b.WriteString("\nWill not load (sessions do not get them): ")
		b.WriteString(strings.Join(names, ", "))
		b.WriteString("\nRun `beeuni-lsp validate` for why and the fix.\n")
	}
	if len(m.Removed) > 0 {
		b.WriteString("\nRemoved Beeuni tools: ")
		b.WriteString(strings.Join(m.Removed, ", "))
		b.WriteString("\nAdd `<name>: beeuni:<name>` under `tools:` to get one back.\n")
	}
	return b.String()
}
