package analysis

import (
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// T11: a tool module the daemon would skip. It reads the module files, by
// inspecting them (inspect.go: InspectModules and the module base), apart
// from the load; its findings are placed on the manifest's path values.

// CodeModuleLoad is the manifest rule for a module the daemon would skip.
const CodeModuleLoad = "T11"

var ruleModuleLoad = &Rule{Code: CodeModuleLoad, Severity: diag.Error, Reads: ReadsFiles}

// moduleLoadMessage is T11's text: the module, the daemon's reason, where,
// and what it means for the session.
func moduleLoadMessage(name, rel string, r *tsinspect.Result) string {
	return moduleLoadPrior(rel, r) + name + moduleLoadAfter
}

// moduleLoadPrior is T11's text before the tool's name, moduleLoadAfter
// the text after.
func moduleLoadPrior(rel string, r *tsinspect.Result) string {
	where := rel
	if !r.ReasonRange.IsZero() {
		where = fmt.Sprintf("%s:%d:%d", rel, r.ReasonRange.Start.Line+1, CharColumn(r.Lines, r.ReasonRange.Start)+1)
	}
	return fmt.Sprintf("%s will not load: %s (%s). The daemon skips it, so sessions get no ", rel, r.Reason, where)
}

const moduleLoadAfter = " tool."
