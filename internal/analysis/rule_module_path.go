package analysis

import (
	"fmt"
	"path"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// T5 and T6: a tool's module path is a repo-relative path to a module that
// exists. Both read the declaration and the files around it (symbolic links
// on the way, the module file), so the memo drops what they gave on
// Cache.FilesChanged.

const (
	CodePath    = "T5" // a module path that is not repo-relative or not a module
	CodeMissing = "T6" // a module that does not exist
)

var (
	rulePath    = &Rule{Code: CodePath, Severity: diag.Error, Reads: ReadsEntry | ReadsFiles}
	ruleMissing = &Rule{Code: CodeMissing, Severity: diag.Error, Reads: ReadsEntry | ReadsFiles, Fixes: []FixKind{FixCreateModule}}
)

func msgPathEmpty(name string) string {
	return fmt.Sprintf("tool `%s` needs a module path: a repo-relative path to a .ts, .js, .mts, .mjs, .cts or .cjs file", name)
}

func msgPathNotRelative(p string) string {
	return fmt.Sprintf("module path `%s` must be repo-relative (no leading `/`, drive letter or URL scheme)", p)
}

func msgPathLeaves(p string) string {
	return fmt.Sprintf("module path `%s` leaves the repository", p)
}

func msgPathLeavesLink(p string) string {
	return fmt.Sprintf("module path `%s` leaves the repository through a symbolic link", p)
}

func msgPathBrokenLink(p string) string {
	return fmt.Sprintf("module path `%s` goes through a symbolic link that does not resolve, so it cannot be checked to stay inside the repository", p)
}

func msgPathExt(p string) string {
	return fmt.Sprintf("module path `%s` must end in .ts, .js, .mts, .mjs, .cts or .cjs", p)
}

func msgModuleMissing(p string) string {
	return fmt.Sprintf("module `%s` does not exist", p)
}

func msgModuleNotFile(p string) string {
	return fmt.Sprintf("module `%s` is not a regular file", p)
}

// checkModulePath is T5: the value is a module path the session's tool
// loads from (an overridden Beeuni tool, or a project tool).
func checkModulePath(e *toolEntry, fs entryFiles) verdict {
	value, beeuniName := e.tool.Source, IsBeeuniTool(e.name)
	if beeuniName {
		e.tool.Kind = KindOverridden
	} else {
		e.tool.Kind = KindProject
	}
	bad := func(msg string) verdict {
		e.report(rulePath, e.value, msg, e.pathData())
		return drop
	}
	if strings.TrimSpace(value) == "" {
		return bad(msgPathEmpty(e.name))
	}
	abs, problem := fs.repoPath(value)
	switch problem {
	case pathNotRelative:
		return bad(msgPathNotRelative(value))
	case pathLeaves:
		return bad(msgPathLeaves(value))
	}
	if !HasModuleExtension(value) {
		if beeuniName && path.Ext(value) == "" && !strings.Contains(value, "/") {
			// `web_search: image_search` or a bare word: the T3 message
			// says what a Beeuni tool accepts.
			e.reportWrongBeeuniValue()
			return drop
		}
		return bad(msgPathExt(value))
	}
	switch problem {
	case pathLeavesLink:
		return bad(msgPathLeavesLink(value))
	case pathBrokenLink:
		return bad(msgPathBrokenLink(value))
	}
	e.tool.Module = abs
	return carryOn
}

// checkModuleFile is T6: the module T5 accepted exists and is a regular
// file. The declaration stands either way (the daemon skips the tool).
func checkModuleFile(e *toolEntry, fs entryFiles) verdict {
	exists, regular := fs.fileState(e.tool.Module)
	switch {
	case !exists:
		e.report(ruleMissing, e.value, msgModuleMissing(e.tool.Source), e.pathData())
	case !regular:
		e.report(ruleMissing, e.value, msgModuleNotFile(e.tool.Source), e.pathData())
	}
	return carryOn
}

// pathData is the Data of T5 and T6: the tool and its path as written.
func (e *toolEntry) pathData() map[string]string {
	return map[string]string{DataName: e.name, DataPath: e.tool.Source}
}
