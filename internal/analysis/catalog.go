package analysis

import (
	"bytes"
	"path"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// This file is the catalog: every name list and every decision of the spec
// that the rules depend on, in one place, so that a decision is easy to
// change. Each rule's code, severity and messages live in its own file,
// rule_<name>.go (rule.go lists them).

// BeeuniTools are the five Beeuni tools in the page's canonical order.
var beeuniTools = [...]string{"web_search", "image_search", "scrape_webpage", "memory", "show"}

// BeeuniTools returns the five Beeuni tools in canonical order (a fresh slice).
func BeeuniTools() []string { return append([]string(nil), beeuniTools[:]...) }

// IsBeeuniTool reports whether name is one of the five Beeuni tools.
func IsBeeuniTool(name string) bool {
	for _, b := range beeuniTools {
		if b == name {
			return true
		}
	}
	return false
}

// beeuniIndex returns the canonical index of a Beeuni tool, or -1.
func beeuniIndex(name string) int {
	for i, b := range beeuniTools {
		if b == name {
			return i
		}
	}
	return -1
}

// certainHarnessTools are the harness tools the page names, plus apply_patch
// (Decision, SPEC section 2). Every name starting with pty_ is one too.
var certainHarnessTools = [...]string{"bash", "read", "write", "edit", "glob", "grep", "task", "question", "apply_patch"}

// opencodeHarnessTools are further tools of the standard harness (opencode)
// that the page does not name: a clash is likely but not certain (T2 warning).
var opencodeHarnessTools = [...]string{"list", "todowrite", "todoread", "webfetch", "skill", "lsp"}

// ptyPrefix starts the names of the terminal plugin's tools (covered by bash).
const ptyPrefix = "pty_"

// HarnessTools returns the harness tool names in catalog order: the certain
// ones, then the opencode-only ones. The pty_* tools are not enumerable.
func HarnessTools() []string {
	out := make([]string, 0, len(certainHarnessTools)+len(opencodeHarnessTools))
	out = append(out, certainHarnessTools[:]...)
	return append(out, opencodeHarnessTools[:]...)
}

// HarnessTool reports whether name is a harness tool (known) and whether the
// page names it (certain) or it is only an opencode tool (known, not certain).
func HarnessTool(name string) (known, certain bool) {
	for _, h := range certainHarnessTools {
		if h == name {
			return true, true
		}
	}
	if strings.HasPrefix(name, ptyPrefix) && len(name) > len(ptyPrefix) {
		return true, true
	}
	for _, h := range opencodeHarnessTools {
		if h == name {
			return true, false
		}
	}
	return false, false
}

// harnessIndex returns a name's position in HarnessTools(), or -1 (pty_*
// names too: they are not enumerable).
func harnessIndex(name string) int {
	for i, h := range certainHarnessTools {
		if h == name {
			return i
		}
	}
	for i, h := range opencodeHarnessTools {
		if h == name {
			return len(certainHarnessTools) + i
		}
	}
	return -1
}

// MaxToolNameLen is the longest tool name T1 allows.
const MaxToolNameLen = 64

// ValidToolName reports whether name matches ^[a-z][a-z0-9_]{0,63}$ (T1).
func ValidToolName(name string) bool {
	if len(name) == 0 || len(name) > MaxToolNameLen {
		return false
	}
	if name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// SnakeCase turns a name into the closest valid tool name ("LookupOrder" and
// "lookup-order" become "lookup_order"), or "" when nothing sensible remains.
func SnakeCase(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(r - 'A' + 'a')
			prevLower = false
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	s := strings.Trim(b.String(), "_")
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	if len(s) > MaxToolNameLen {
		s = strings.TrimRight(s[:MaxToolNameLen], "_")
	}
	if !ValidToolName(s) || s == name {
		return ""
	}
	return s
}

// BeeuniPrefix starts a value that names a Beeuni tool.
const BeeuniPrefix = "beeuni:"

// ModuleExtensions are the extensions a tool module may have (T5).
var moduleExtensions = [...]string{".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"}

// ModuleExtensions returns the extensions a tool module may have.
func ModuleExtensions() []string { return append([]string(nil), moduleExtensions[:]...) }

// HasModuleExtension reports whether p ends in a tool module extension.
func HasModuleExtension(p string) bool {
	ext := path.Ext(p)
	for _, e := range moduleExtensions {
		if e == ext {
			return true
		}
	}
	return false
}

// importExtensions are the extensions an imported manifest may have.
var importExtensions = [...]string{".yaml", ".yml"}

func hasImportExtension(p string) bool {
	ext := path.Ext(p)
	for _, e := range importExtensions {
		if e == ext {
			return true
		}
	}
	return false
}

// HarnessToolsDir is the standard harness's folder of custom tools (SPEC
// section 9), repository-relative.
const HarnessToolsDir = "harnesses/opencode/tools"

// Agent tools values (SPEC section 5).
const (
	agentAll     = "all"
	agentNone    = "none"
	agentStar    = "*"
	agentExclude = "exclude"
)

// CharColumn returns the 0-based column of pos counted in characters, as the
// CLI prints it (plus one): a UTF-8 byte order mark at the start of the file
// is not a character of the first line.
func CharColumn(lines *diag.Lines, pos diag.Pos) int {
	col := lines.CharColumn(pos)
	if pos.Line == 0 && col > 0 && bytes.HasPrefix(lines.Content(), []byte("\xef\xbb\xbf")) {
		col--
	}
	return col
}
