package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// H1 and H2: the tool modules in harnesses/opencode/tools/ (SPEC section
// 9). They read that folder and the tool set, and run on every load.

const (
	CodeShadow      = "H1" // a module named after a hosted tool
	CodeHarnessOnly = "H2" // any other module there
)

var (
	ruleShadow      = &Rule{Code: CodeShadow, Severity: diag.Warning, Reads: ReadsFiles | ReadsManifest, Fixes: []FixKind{FixDeleteCopy}}
	ruleHarnessOnly = &Rule{Code: CodeHarnessOnly, Severity: diag.Information, Reads: ReadsFiles | ReadsManifest}
)

func msgShadowFile(rel, name string, declared bool) string {
	what := "the Beeuni tool"
	if declared && !IsBeeuniTool(name) {
		what = "the project tool"
	}
	return fmt.Sprintf("`%s` shadows %s `%s` on the standard harness (the experimental harness ignores this folder); delete it so both harnesses run the hosted tool", rel, what, name)
}

// msgRemovedCopy is H1 on a copy of a Beeuni tool the project removed from
// `tools:`: no hosted tool of that name runs, so the copy is all the
// standard harness has, and the experimental harness has nothing.
func msgRemovedCopy(rel, name string) string {
	return fmt.Sprintf("`%s` is a copy of the Beeuni tool `%s`, which this project does not load: the standard harness runs this copy, "+
		"the experimental harness ignores this folder and has no `%s` tool; delete it, and add `%s: beeuni:%s` under `tools:` "+
		"if sessions should have the hosted tool on both harnesses", rel, name, name, name, name)
}

func msgShadowEntry(rel string) string {
	return fmt.Sprintf("`%s` shadows this tool on the standard harness; delete that file", rel)
}

func msgHarnessOnly(rel string) string {
	return fmt.Sprintf("`%s` runs only on the standard harness: to run it on both, move it out of %s/, make its default export a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`", rel, HarnessToolsDir)
}

// checkHarnessFolder applies H1 and H2 (SPEC section 9) to the tool modules
// in harnesses/opencode/tools/: H1 for a file named after a hosted tool (a
// Beeuni tool or a tool the manifest declares), H2 for any other. Each is
// reported on the file itself (at its start; the file is not read) and, for
// a declared name, on its manifest entry.
func (l *loader) checkHarnessFolder(m *Model) {
	dir := filepath.Join(l.root, filepath.FromSlash(HarnessToolsDir))
	if real, ok := l.realDirOf(dir); !ok || !withinDir(l.realRoot, real) {
		return
	}
	entries, err := l.fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if l.stop.stopped() {
			return
		}
		if e.IsDir() {
			continue
		}
		file := e.Name()
		if !HasModuleExtension(file) || strings.HasSuffix(file, ".d.ts") {
			continue
		}
		name := strings.TrimSuffix(file, filepath.Ext(file))
		abs := filepath.Join(dir, file)
		rel := relTo(l.root, abs)
		data := map[string]string{DataName: name, DataPath: rel}
		var decl *declaration
		if l.tools != nil {
			decl = l.tools.declared[name]
		}
		if !IsBeeuniTool(name) && decl == nil {
			l.findings = append(l.findings, ruleHarnessOnly.finding(abs, diag.Range{}, msgHarnessOnly(rel), data, nil))
			continue
		}
		var related []diag.Related
		if decl != nil {
			related = []diag.Related{{File: decl.unit.file.Path, Range: decl.unit.parsed.pos.nodeRange(decl.key),
				Message: "the manifest entry of `" + name + "`"}}
		}
		message := msgShadowFile(rel, name, decl != nil)
		if decl == nil && slices.Contains(m.Removed, name) {
			message = msgRemovedCopy(rel, name)
		}
		l.findings = append(l.findings, ruleShadow.finding(abs, diag.Range{}, message, data, related))
		if decl != nil {
			l.report(ruleShadow, decl.unit, decl.key, msgShadowEntry(rel), map[string]string{DataName: name, DataPath: rel},
				diag.Related{File: abs, Message: "the shadowing file"})
		}
	}
}

func withinDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
