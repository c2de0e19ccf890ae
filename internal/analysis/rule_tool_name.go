package analysis

import (
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// T1 and T2: a tool's name. Both read the declaration alone.

const (
	CodeName        = "T1" // a name that is not ^[a-z][a-z0-9_]{0,63}$
	CodeHarnessName = "T2" // a harness tool's name
)

var (
	ruleName        = &Rule{Code: CodeName, Severity: diag.Error, Reads: ReadsEntry, Fixes: []FixKind{FixRenameTool}}
	ruleHarnessName = &Rule{Code: CodeHarnessName, Severity: diag.Error, Reads: ReadsEntry}
)

func msgNameTooLong(name string) string {
	return fmt.Sprintf("tool name `%s` is %d characters long: a name has at most %d (^[a-z][a-z0-9_]{0,63}$)", name, len([]rune(name)), MaxToolNameLen)
}

func msgNameNotSnake(name, suggest string) string {
	m := fmt.Sprintf("tool name `%s` must be snake_case: ^[a-z][a-z0-9_]{0,63}$", name)
	if suggest != "" {
		m += fmt.Sprintf(" (e.g. `%s`)", suggest)
	}
	return m
}

// msgNameNotString is T1 on a key that is no scalar (`? [a, b]`), reported
// where the tools are gathered: such a key is no declaration.
func msgNameNotString(kind string) string {
	return fmt.Sprintf("a tool name must be a snake_case string (^[a-z][a-z0-9_]{0,63}$), not %s", kind)
}

func msgHarnessName(name string) string {
	return fmt.Sprintf("`%s` is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give your tool another name", name)
}

func msgHarnessNameMaybe(name string) string {
	return fmt.Sprintf("`%s` is also a tool of the standard harness (opencode): a project tool of that name may clash with it; prefer another name", name)
}

// checkToolName is T1: the session gets no tool of an invalid name, but
// the value is checked still. Data[suggest] is the fix's new name.
func checkToolName(e *toolEntry) verdict {
	name := e.name
	if ValidToolName(name) {
		return carryOn
	}
	e.badName = true
	data := e.nameData()
	if len(name) > MaxToolNameLen && ValidToolName(name[:MaxToolNameLen]) {
		data[DataSuggest] = name[:MaxToolNameLen]
		e.report(ruleName, e.key, msgNameTooLong(name), data)
		return carryOn
	}
	s := SnakeCase(name)
	if s != "" {
		data[DataSuggest] = s
	}
	e.report(ruleName, e.key, msgNameNotSnake(name, s), data)
	return carryOn
}

// checkHarnessName is T2: an error for a name the page gives the harness
// (the declaration is dropped), a warning for one only opencode has.
func checkHarnessName(e *toolEntry) verdict {
	known, certain := HarnessTool(e.name)
	switch {
	case !known:
		return carryOn
	case certain:
		e.report(ruleHarnessName, e.key, msgHarnessName(e.name), e.nameData())
		return drop
	}
	e.reportAs(ruleHarnessName, diag.Warning, e.key, msgHarnessNameMaybe(e.name), e.nameData())
	return carryOn
}
