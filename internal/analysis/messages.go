package analysis

import (
	"fmt"
	"strings"
)

// Every message the rules emit. Messages marked exact are quoted from the
// product page (SPEC sections 4 and 5) and must stay byte for byte.

func msgSyntax(reason string) string { return "YAML syntax error: " + reason }

func msgSecondDocument() string {
	return "a manifest holds one YAML document: remove this `---` and what follows, or move it to an imported file"
}

func msgNotMapping(kind string) string {
	return fmt.Sprintf("a manifest must be a mapping of keys such as `tools:`, `agents:` and `imports:`, not %s", kind)
}

func msgImportsShape() string {
	return "`imports` must be a list of repo-relative paths to .yaml or .yml files"
}

func msgImportItem() string {
	return "an import must be a repo-relative path to a .yaml or .yml file, written as a string"
}

func msgImportNotRelative(p string) string {
	return fmt.Sprintf("import `%s` must be a repo-relative path (no leading `/`, drive letter or URL scheme)", p)
}

func msgImportLeaves(p string) string {
	return fmt.Sprintf("import `%s` leaves the repository; imports are resolved from the repository root", p)
}

func msgImportLeavesLink(p string) string {
	return fmt.Sprintf("import `%s` leaves the repository through a symbolic link", p)
}

func msgImportBrokenLink(p string) string {
	return fmt.Sprintf("import `%s` goes through a symbolic link that does not resolve, so it cannot be checked to stay inside the repository", p)
}

func msgImportExt(p string) string {
	return fmt.Sprintf("import `%s` must be a .yaml or .yml file", p)
}

func msgImportMissing(p string) string {
	return fmt.Sprintf("imported file `%s` does not exist (imports are resolved from the repository root)", p)
}

func msgImportNotFile(p string) string {
	return fmt.Sprintf("imported file `%s` cannot be read: it is not a regular file", p)
}

func msgImportTooLarge(p string) string {
	return fmt.Sprintf("imported file `%s` cannot be read: it is too large", p)
}

func msgImportUnreadable(p string, err error) string {
	return fmt.Sprintf("imported file `%s` cannot be read: %v", p, err)
}

func msgImportDup(p string, line int) string {
	return fmt.Sprintf("import `%s` is already listed on line %d", p, line)
}

func msgImportCycle(chain []string) string {
	return "import cycle: " + strings.Join(chain, " → ")
}

func msgImportStep(from, to string) string { return fmt.Sprintf("%s imports %s", from, to) }

// T1
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

func msgNameNotString(kind string) string {
	return fmt.Sprintf("a tool name must be a snake_case string (^[a-z][a-z0-9_]{0,63}$), not %s", kind)
}

// T2
func msgHarnessName(name string) string {
	return fmt.Sprintf("`%s` is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give your tool another name", name)
}

func msgHarnessNameMaybe(name string) string {
	return fmt.Sprintf("`%s` is also a tool of the standard harness (opencode): a project tool of that name may clash with it; prefer another name", name)
}

// T3 (exact).
func msgBeeuniValue(key string) string {
	return fmt.Sprintf("must be `beeuni:%s` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/%s.ts`) that replaces it.", key, key)
}

// T4
func msgProjectBeeuni(key string) string {
	return fmt.Sprintf("`%s` is not a Beeuni tool: `beeuni:` names only the five Beeuni tools (web_search, image_search, scrape_webpage, memory, show), each under its own name; a project tool needs a repo-relative module path, e.g. `tools/%s.ts`", key, key)
}

// T5
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

// T6
func msgModuleMissing(p string) string {
	return fmt.Sprintf("module `%s` does not exist", p)
}

func msgModuleNotFile(p string) string {
	return fmt.Sprintf("module `%s` is not a regular file", p)
}

// T7
func msgValueMissing(name string) string {
	return fmt.Sprintf("tool `%s` has no value: write `beeuni:<name>` for a Beeuni tool or a repo-relative module path such as `tools/%s.ts`", name, name)
}

func msgValueNotString(name, kind string) string {
	return fmt.Sprintf("the value of tool `%s` must be a string (`beeuni:<name>` or a module path), not %s", name, kind)
}

func msgToolsNotMapping(kind string) string {
	return fmt.Sprintf("`tools` must be a mapping of tool names to `beeuni:<name>` or module paths, not %s", kind)
}

// T8 (exact).
func msgNoBeeuni() string {
	return "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one."
}

// T9
func msgTwoFiles(name string, others []string) string {
	return fmt.Sprintf("tool `%s` is declared in two files: here and in %s; declare it once", name, joinCode(others))
}

func msgOtherDeclaration(name string) string {
	return fmt.Sprintf("the other declaration of `%s`", name)
}

// T10
func msgDuplicateKey(key string, firstLine int) string {
	return fmt.Sprintf("key `%s` appears twice in this mapping (first on line %d): keep one, YAML readers disagree on a duplicate key and many refuse the file", key, firstLine)
}

func msgFirstKey(key string) string { return fmt.Sprintf("the first `%s`", key) }

// A1
func msgUnknownTool(name, suggest string, exclude bool) string {
	m := fmt.Sprintf("`%s` is neither a harness tool, a Beeuni tool nor a project tool of this project", name)
	if suggest != "" {
		m += fmt.Sprintf("; did you mean `%s`?", suggest)
		if exclude {
			m += fmt.Sprintf(" As written, `%s` stays enabled.", suggest)
		}
	} else if exclude {
		m += "; this exclusion hides nothing"
	}
	return m
}

// A2 (exact).
func msgNotLoaded(name string) string {
	return fmt.Sprintf("%q is a Beeuni tool this project does not load: add `%s: beeuni:%s` under the top-level `tools`, or remove it here.", name, name, name)
}

// A3
func msgAgentToolsShape(agent, kind string) string {
	return fmt.Sprintf("`tools` of agent `%s` must be `all`, `none`, a list of tool names, `{ exclude: [...] }` or a map of tool names to true/false, not %s", agent, kind)
}

func msgAgentListItem(kind string) string {
	return fmt.Sprintf("a tool list item must be a tool name, not %s", kind)
}

func msgAgentExcludeShape(kind string) string {
	return fmt.Sprintf("`exclude` must be a list of tool names, not %s", kind)
}

func msgAgentExcludeExtra(key string) string {
	return fmt.Sprintf("`%s` next to `exclude`: a map with `exclude` takes no other key (the legacy form maps tool names to true/false)", key)
}

func msgAgentLegacyValue(name, kind string) string {
	return fmt.Sprintf("in the legacy map form every value is true or false; `%s` is %s", name, kind)
}

// H1
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

// H2
func msgHarnessOnly(rel string) string {
	return fmt.Sprintf("`%s` runs only on the standard harness: to run it on both, move it out of %s/, make its default export a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`", rel, HarnessToolsDir)
}
