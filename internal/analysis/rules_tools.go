package analysis

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// declaration is one tool entry as written, valid or not.
type declaration struct {
	unit  *unit
	key   *yaml.Node
	value *yaml.Node
	name  string
	// universe is the name's index in the agents' universe (see
	// resolveAgents) when it is a tool the session gets; 0 otherwise (the
	// harness tools come first, so no tool has index 0).
	universe int
	// first is true for the name's first declaration, the one that counts.
	first bool
}

// toolState is what the tools rules leave for the agents rules and the
// harness folder rules.
type toolState struct {
	// declared maps each name written under any tools: key (with a valid or
	// invalid value) to its first declaration.
	declared map[string]*declaration
	// firstToolsKey is the first tools: key in load order, for T8.
	firstToolsKey *yaml.Node
	firstToolsIn  *unit
	// all lists the declarations in load order (first ones and T9's later
	// ones); names, built on first use (an A1 suggestion), lists the
	// declared names in declaration order.
	all   []*declaration
	names []string
	// suggest indexes the names A1 suggests from, built on first use.
	suggest *nameIndex
	// toolDecls[i] is the declaration of the model's Tools[i] (nil for the
	// implicit Beeuni tools).
	toolDecls []*declaration
}

// resolve runs every rule over the loaded files and builds the model.
func (l *loader) resolve() *Model {
	m := &Model{}
	st := &toolState{}
	var all []*declaration
	// first holds each name's first declaration; others the later ones in
	// other files (T9), only for names declared more than once.
	first := map[string]*declaration{}
	others := map[string][]*declaration{}
	for _, u := range l.units {
		key, raw := topValue(u.parsed, "tools", l.budget)
		if key == nil {
			continue
		}
		m.ToolsKey = true
		if st.firstToolsKey == nil {
			st.firstToolsKey, st.firstToolsIn = key, u
		}
		v := resolveAlias(raw)
		if isNull(v) {
			continue // `tools:` with every line deleted: listed nothing
		}
		if v.Kind != yaml.MappingNode {
			l.add(u, v, diag.Error, CodeNotString, msgToolsNotMapping(kindName(v)), nil)
			continue
		}
		pairs := mapPairs(raw, l.budget)
		if len(first) == 0 {
			first = make(map[string]*declaration, len(pairs))
			all = make([]*declaration, 0, len(pairs))
		}
		// One allocation for the file's declarations.
		slab := make([]declaration, 0, len(pairs))
		for _, kv := range pairs {
			if kv.k.Kind != yaml.ScalarNode {
				// `? [a, b]` or an alias as a key: no name to check further.
				l.add(u, kv.k, diag.Error, CodeName, msgNameNotString(kindName(kv.k)), nil)
				continue
			}
			name := kv.k.Value
			slab = append(slab, declaration{unit: u, key: kv.k, value: kv.v, name: name})
			d := &slab[len(slab)-1]
			if f, ok := first[name]; ok {
				if f.unit == u {
					continue // T10 already reported; the first one counts
				}
				if already := others[name]; len(already) > 0 && already[len(already)-1].unit == u {
					continue // twice in this other file: T10 as well
				}
				others[name] = append(others[name], d)
			} else {
				first[name] = d
				d.first = true
			}
			all = append(all, d)
		}
	}
	byName := func(name string) []*declaration {
		if len(others[name]) == 0 {
			return nil
		}
		return append([]*declaration{first[name]}, others[name]...)
	}

	m.Tools = make([]Tool, 0, len(all)+len(beeuniTools))

	// T9: a name declared in more than one file.
	for _, d := range all {
		if len(others[d.name]) == 0 || d.key.Kind != yaml.ScalarNode {
			continue
		}
		decls := byName(d.name)
		if len(decls) < 2 {
			continue
		}
		var otherFiles []string
		var related []diag.Related
		for _, o := range decls {
			if o == d {
				continue
			}
			otherFiles = append(otherFiles, o.unit.file.Rel)
			related = append(related, diag.Related{
				File: o.unit.file.Path, Range: o.unit.parsed.pos.nodeRange(o.key), Message: msgOtherDeclaration(d.name),
			})
		}
		l.add(d.unit, d.key, diag.Error, CodeTwoFiles, msgTwoFiles(d.name, otherFiles), map[string]string{DataName: d.name}, related...)
	}

	// Every name's first declaration is the one that counts.
	st.declared, st.all = first, all
	st.toolDecls = make([]*declaration, 0, len(all))
	for _, d := range all {
		if !d.first {
			continue // T9 reported; the first declaration counts
		}
		if t, ok := l.checkToolMemo(d); ok {
			m.Tools = append(m.Tools, t)
			st.toolDecls = append(st.toolDecls, d)
		}
	}

	if !m.ToolsKey {
		for _, b := range beeuniTools {
			m.Tools = append(m.Tools, Tool{Name: b, Kind: KindBeeuni, Source: BeeuniPrefix + b})
		}
	} else {
		listed := false
		for _, b := range beeuniTools {
			if _, ok := st.declared[b]; ok {
				listed = true
			} else {
				m.Removed = append(m.Removed, b)
			}
		}
		if !listed {
			l.add(st.firstToolsIn, st.firstToolsKey, diag.Warning, CodeNoBeeuni, msgNoBeeuni(), nil)
		}
	}
	if m.Removed == nil {
		m.Removed = []string{}
	}
	l.tools = st
	m.Agents = l.resolveAgents(m, st)
	return m
}

// checkTool runs T1-T7 on one declaration and returns the tool the session
// gets, if it gets one.
func (l *loader) checkTool(d *declaration) (Tool, bool) {
	u, name := d.unit, d.name
	data := func() map[string]string { return map[string]string{DataName: name} }
	ok := true
	if !ValidToolName(name) {
		ok = false
		if len(name) > MaxToolNameLen && ValidToolName(name[:MaxToolNameLen]) {
			dd := data()
			dd[DataSuggest] = name[:MaxToolNameLen]
			l.add(u, d.key, diag.Error, CodeName, msgNameTooLong(name), dd)
		} else {
			s := SnakeCase(name)
			dd := data()
			if s != "" {
				dd[DataSuggest] = s
			}
			l.add(u, d.key, diag.Error, CodeName, msgNameNotSnake(name, s), dd)
		}
	}
	if known, certain := HarnessTool(name); known {
		if certain {
			l.add(u, d.key, diag.Error, CodeHarnessName, msgHarnessName(name), data())
			return Tool{}, false
		}
		l.add(u, d.key, diag.Warning, CodeHarnessName, msgHarnessNameMaybe(name), data())
	}

	v := resolveAlias(d.value)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		switch {
		case v == nil:
			l.add(u, d.value, diag.Error, CodeNotString, msgValueNotString(name, "an alias that resolves to nothing"), data())
		case isNull(v) && v.Value == "":
			l.add(u, d.key, diag.Error, CodeNotString, msgValueMissing(name), data())
		default:
			l.add(u, d.value, diag.Error, CodeNotString, msgValueNotString(name, kindName(v)), data())
		}
		return Tool{}, false
	}
	value := v.Value
	tool := Tool{Name: name, Source: value, File: u.file.Path,
		Key: u.parsed.pos.nodeRange(d.key), Value: u.parsed.pos.nodeRange(d.value)}
	beeuniName := IsBeeuniTool(name)
	if strings.HasPrefix(value, BeeuniPrefix) {
		target := strings.TrimPrefix(value, BeeuniPrefix)
		if beeuniName {
			if target != name {
				l.add(u, d.value, diag.Error, CodeBeeuniValue, msgBeeuniValue(name), map[string]string{DataName: name, DataKey: name})
				return Tool{}, false
			}
			tool.Kind = KindBeeuni
			return tool, ok
		}
		l.add(u, d.value, diag.Error, CodeProjectBeeuni, msgProjectBeeuni(name), data())
		return Tool{}, false
	}
	if beeuniName {
		tool.Kind = KindOverridden
	} else {
		tool.Kind = KindProject
	}
	pdata := func() map[string]string { return map[string]string{DataName: name, DataPath: value} }
	if strings.TrimSpace(value) == "" {
		l.add(u, d.value, diag.Error, CodePath, msgPathEmpty(name), pdata())
		return Tool{}, false
	}
	abs, problem := l.resolveRepoPath(value)
	switch problem {
	case pathNotRelative:
		l.add(u, d.value, diag.Error, CodePath, msgPathNotRelative(value), pdata())
		return Tool{}, false
	case pathLeaves:
		l.add(u, d.value, diag.Error, CodePath, msgPathLeaves(value), pdata())
		return Tool{}, false
	}
	if !HasModuleExtension(value) {
		if beeuniName && path.Ext(value) == "" && !strings.Contains(value, "/") {
			// `web_search: image_search` or a bare word: the T3 message says
			// what a Beeuni tool accepts.
			l.add(u, d.value, diag.Error, CodeBeeuniValue, msgBeeuniValue(name), map[string]string{DataName: name, DataKey: name})
		} else {
			l.add(u, d.value, diag.Error, CodePath, msgPathExt(value), pdata())
		}
		return Tool{}, false
	}
	switch problem {
	case pathLeavesLink:
		l.add(u, d.value, diag.Error, CodePath, msgPathLeavesLink(value), pdata())
		return Tool{}, false
	case pathBrokenLink:
		l.add(u, d.value, diag.Error, CodePath, msgPathBrokenLink(value), pdata())
		return Tool{}, false
	}
	tool.Module = abs
	exists, regular := l.fileState(abs)
	switch {
	case !exists:
		l.add(u, d.value, diag.Error, CodeMissing, msgModuleMissing(value), pdata())
	case !regular:
		l.add(u, d.value, diag.Error, CodeMissing, msgModuleNotFile(value), pdata())
	}
	return tool, ok
}
