package features

import (
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// The words the editor shows about tools: what each Beeuni tool does, what
// its web UI view reads (SPEC section 10), and the facts of SPEC section 5
// that apply to a name in an agent's list.

// beeuniTool describes one Beeuni tool.
type beeuniTool struct {
	does string // what it does
	view string // what its web UI view reads
}

var beeuniToolFacts = map[string]beeuniTool{
	"web_search": {
		does: "Searches the web and returns the results as JSON. It takes `query`; several queries are joined by `|||`.",
		view: "The web UI's `web_search` view reads the tool's **output JSON**.",
	},
	"image_search": {
		does: "Searches the web for images and returns them as JSON.",
		view: "The web UI's `image_search` view reads the tool's **output JSON**.",
	},
	"scrape_webpage": {
		does: "Fetches a web page and returns its content as JSON.",
		view: "The web UI's `scrape_webpage` view reads the tool's **output JSON**.",
	},
	"memory": {
		does: "Reads and edits the notes the agent keeps under `memory/`. Without it, the model reads and edits those files with the file tools.",
		view: "The web UI's `memory` view reads the call's **arguments** `command` and `path`.",
	},
	"show": {
		does: "Shows the user a file, a page, some content or a list of items in the web UI.",
		view: "The web UI's `show` view reads the call's **arguments** `type`, `path`, `url`, `content` and `items`.",
	},
}

const keepShapeFact = "A changed copy that keeps the name must keep those arguments and that output shape, or the UI shows the raw output, and skills that name the tool stop working."

// beeuniToolDoc is the markdown about a Beeuni tool.
func beeuniToolDoc(name string) string {
	f, ok := beeuniToolFacts[name]
	if !ok {
		return ""
	}
	return f.does + "\n\n" + f.view
}

// harnessDoc is the markdown about a harness tool: where it comes from and
// the SPEC section 5 facts that apply to it.
func harnessDoc(name string) string {
	known, certain := analysis.HarnessTool(name)
	if !known {
		return ""
	}
	var b strings.Builder
	switch {
	case strings.HasPrefix(name, "pty_"):
		b.WriteString("A tool of the standard harness's terminal plugin.")
	case certain:
		b.WriteString("A tool the harness implements.")
	default:
		b.WriteString("A tool of the standard harness (opencode).")
	}
	switch {
	case name == "write" || name == "edit" || name == "apply_patch":
		b.WriteString("\n\nOn the standard harness `write`, `edit` and `apply_patch` share one permission: listing one shows all three, excluding one hides all three. The experimental harness has separate `write` and `edit`.")
	case name == "bash":
		b.WriteString("\n\nOn the standard harness `bash` also covers the terminal plugin's `pty_*` tools.")
	case strings.HasPrefix(name, "pty_"):
		b.WriteString("\n\nOn the standard harness `bash` covers it: list or exclude `bash`.")
	case name == "task":
		b.WriteString("\n\n`task` starts subagents. On the experimental harness a subagent gets only the tools allowed by both its own list and the session agent's list; on the standard harness, its own list. To stop an agent delegating, leave `task` out of its list.")
	}
	return b.String()
}

// visibilityFact closes every hover on an agent's tools.
const visibilityFact = "`tools` decides which tools the model sees; the agent's `permission` rules still decide allow, ask or deny. A tool not in the list is hidden from the model and a call to it is denied."

const connectorFact = "Connector tools follow `agents.<name>.connectors`, not this list."

const agentToolsKeyDoc = "`tools: all` (the default), `none`, a list of names, `{ exclude: [...] }`, or the legacy map `{ bash: false }`. " + visibilityFact

const topToolsDoc = "Maps each tool name to `beeuni:<name>` (a Beeuni tool) or to a repo-relative module path. With no `tools:` key anywhere, sessions get all five Beeuni tools; with one, only those it lists."

const topAgentsDoc = "Each agent's `tools` decides which tools its model sees."

const topImportsDoc = "A list of repo-relative paths to YAML files of the manifest's shape; they may declare `tools:`, `agents:` and further `imports:`."

// codeList formats names as `a`, `b`, `c`.
func codeList(names []string) string {
	if len(names) == 0 {
		return "_none_"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// plural returns "1 tool" or "3 tools".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
