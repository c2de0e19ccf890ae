package analysis

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

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
			l.findings = append(l.findings, diag.Finding{
				File: abs, Severity: diag.Information, Code: CodeHarnessOnly, Message: msgHarnessOnly(rel), Data: data,
			})
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
		l.findings = append(l.findings, diag.Finding{
			File: abs, Severity: diag.Warning, Code: CodeShadow, Message: message,
			Data: data, Related: related,
		})
		if decl != nil {
			l.add(decl.unit, decl.key, diag.Warning, CodeShadow, msgShadowEntry(rel), map[string]string{DataName: name, DataPath: rel},
				diag.Related{File: abs, Message: "the shadowing file"})
		}
	}
}

func withinDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
