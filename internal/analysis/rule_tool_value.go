package analysis

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// T7, T3 and T4: a tool's value is a string, and a `beeuni:` value names
// the Beeuni tool of the same name. All three read the declaration alone.

const (
	CodeNotString     = "T7" // a value that is not a string; `tools:` not a mapping
	CodeBeeuniValue   = "T3" // a Beeuni tool with a wrong value
	CodeProjectBeeuni = "T4" // a project tool with a `beeuni:` value
)

var (
	ruleNotString     = &Rule{Code: CodeNotString, Severity: diag.Error, Reads: ReadsEntry}
	ruleBeeuniValue   = &Rule{Code: CodeBeeuniValue, Severity: diag.Error, Reads: ReadsEntry, Fixes: []FixKind{FixSetBeeuniValue}}
	ruleProjectBeeuni = &Rule{Code: CodeProjectBeeuni, Severity: diag.Error, Reads: ReadsEntry}
)

func msgValueMissing(name string) string {
	return fmt.Sprintf("tool `%s` has no value: write `beeuni:<name>` for a Beeuni tool or a repo-relative module path such as `tools/%s.ts`", name, name)
}

func msgValueNotString(name, kind string) string {
	return fmt.Sprintf("the value of tool `%s` must be a string (`beeuni:<name>` or a module path), not %s", name, kind)
}

// msgToolsNotMapping is T7 on a `tools:` that is no mapping, reported where
// the tools are gathered.
func msgToolsNotMapping(kind string) string {
	return fmt.Sprintf("`tools` must be a mapping of tool names to `beeuni:<name>` or module paths, not %s", kind)
}

// msgBeeuniValue is T3 (exact: the product page's text).
func msgBeeuniValue(key string) string {
	return fmt.Sprintf("must be `beeuni:%s` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/%s.ts`) that replaces it.", key, key)
}

func msgProjectBeeuni(key string) string {
	return fmt.Sprintf("`%s` is not a Beeuni tool: `beeuni:` names only the five Beeuni tools (web_search, image_search, scrape_webpage, memory, show), each under its own name; a project tool needs a repo-relative module path, e.g. `tools/%s.ts`", key, key)
}

// checkToolValue is T7: a value that is not a string drops the
// declaration; a string starts the tool the session gets.
func checkToolValue(e *toolEntry) verdict {
	v := resolveAlias(e.value)
	switch {
	case v != nil && v.Kind == yaml.ScalarNode && v.Tag == "!!str":
		e.tool = Tool{Name: e.name, Source: v.Value, File: e.file, Key: spanOf(e.rangeOf(e.key)), Value: spanOf(e.rangeOf(e.value))}
		return carryOn
	case v == nil:
		e.report(ruleNotString, e.value, msgValueNotString(e.name, "an alias that resolves to nothing"), e.nameData())
	case isNull(v) && v.Value == "":
		e.report(ruleNotString, e.key, msgValueMissing(e.name), e.nameData())
	default:
		e.report(ruleNotString, e.value, msgValueNotString(e.name, kindName(v)), e.nameData())
	}
	return drop
}

// checkBeeuniValue is T3 and T4 on a `beeuni:` value: only a Beeuni tool
// takes one, and only its own. A value that is no `beeuni:` one is a module
// path (T5; a bare word under a Beeuni name is T3 there).
func checkBeeuniValue(e *toolEntry) verdict {
	target, ok := strings.CutPrefix(e.tool.Source, BeeuniPrefix)
	if !ok {
		return carryOn
	}
	if !IsBeeuniTool(e.name) {
		e.report(ruleProjectBeeuni, e.value, msgProjectBeeuni(e.name), e.nameData())
		return drop
	}
	if target != e.name {
		e.reportWrongBeeuniValue()
		return drop
	}
	e.tool.Kind = KindBeeuni
	return complete
}

// reportWrongBeeuniValue is T3 on the entry's value; Data[key] is the fix's
// Beeuni tool.
func (e *toolEntry) reportWrongBeeuniValue() {
	e.report(ruleBeeuniValue, e.value, msgBeeuniValue(e.name), map[string]string{DataName: e.name, DataKey: e.name})
}
