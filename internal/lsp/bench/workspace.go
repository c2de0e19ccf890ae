// Package bench measures beeuni-lsp end to end, as an editor feels it: it
// generates Beeuni workspaces of any number of project tools, spawns the real
// server binary over stdio, drives it with the messages an editor sends and
// times every answer on the client's clock (debounce, JSON-RPC framing and
// process boundaries included).
package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Workspace is a generated Beeuni project on disk and the facts about it the
// scenario needs: where to type, where to ask, what the server must report.
type Workspace struct {
	Root     string // absolute folder holding beeuni.yaml
	Manifest string // absolute path of beeuni.yaml
	Tools    int    // number of project tools
	// Names of the project tools, in declaration order (root first, then
	// imports).
	Names []string
	// Imports are the imported YAML files (absolute paths), in import order.
	Imports []string
	// Broken are the absolute paths of the modules that will not load
	// (each imports a package no node_modules provides): rule T11 must be
	// reported on their manifest entry and a finding in the module itself.
	Broken []string
	// Content is the manifest's text as written.
	Content string
	// Marks are byte offsets in Content of the places the scenario uses.
	Marks Marks
	// Bytes is the total size of the generated files.
	Bytes int64
	// Files is the number of files written.
	Files int
}

// Marks are byte offsets into the manifest's content.
type Marks struct {
	// BeeuniValue is inside `beeuni:web_search`, the value of the first
	// Beeuni entry: the eject code action's place.
	BeeuniValue int
	// ToolKey is inside the first root-declared project tool's key (hover,
	// rename); ToolKeyEnd is the end of that key, where typing a capital
	// letter breaks rule T1 (an error) and deleting it fixes it.
	ToolKey, ToolKeyEnd int
	// ModulePath is inside that tool's module path (definition).
	ModulePath int
	// AgentItem is inside the first item of the first agent's tool list
	// (hover, definition).
	AgentItem int
	// AgentItemEnd is at the end of the last agent's first item, where
	// typing a character makes an unknown name (rule A1) and deleting it
	// removes the warning again.
	AgentItemEnd int
	// CompleteValue is right after `beeuni:` in a Beeuni entry's value
	// (value completion).
	CompleteValue int
	// CommentEnd is the end of the last line, a comment the typing
	// scenario appends to.
	CommentEnd int
}

// beeuniTools are the five Beeuni tools in the page's order.
var beeuniTools = []string{"web_search", "image_search", "scrape_webpage", "memory", "show"}

// verbs and nouns give the generated tools realistic names.
var (
	verbs = []string{"lookup", "create", "cancel", "refund", "list", "summarize", "export", "notify", "sync", "archive", "fetch", "score"}
	nouns = []string{"order", "invoice", "customer", "ticket", "shipment", "payment", "report", "contract", "lead", "product", "coupon", "review", "warehouse"}
)

// importCount is how many imported files declare part of the tools.
const importCount = 3

// brokenEvery makes one module in this many fail to load (at least one).
const brokenEvery = 100

// ToolName returns the name of the i-th generated project tool (snake_case,
// unique, at most 64 characters).
func ToolName(i int) string {
	v := verbs[i%len(verbs)]
	n := nouns[(i/len(verbs))%len(nouns)]
	return fmt.Sprintf("%s_%s_%05d", v, n, i)
}

// Generate writes a workspace of n project tools under dir (created if
// needed): beeuni.yaml with the five Beeuni tools, most project tools and
// one agent per ten tools; importCount imported files declaring the rest; a
// TypeScript module per tool following the module contract (SPEC section 8),
// a shared helper some modules import, and a few modules that import a
// package no node_modules provides.
func Generate(dir string, n int) (*Workspace, error) {
	if n < 1 {
		return nil, fmt.Errorf("generate workspace: need at least one tool, got %d", n)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("generate workspace: %w", err)
	}
	w := &Workspace{Root: root, Manifest: filepath.Join(root, "beeuni.yaml"), Tools: n}
	for _, d := range []string{"tools/lib", "config"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return nil, fmt.Errorf("generate workspace: %w", err)
		}
	}

	// Which tools the imports declare: the last tenth, spread over the
	// imports; the root always keeps the first tool.
	inImport := make([]int, n) // 0: root, k: import k
	imported := n / 10
	if n >= 2 && imported == 0 {
		imported = 1
	}
	for j := 0; j < imported; j++ {
		inImport[n-1-j] = 1 + j%importCount
	}
	// Broken modules are declared in the root manifest, so that their T11
	// findings land in beeuni.yaml, the file the editor has open.
	broken := map[int]bool{}
	for i := brokenEvery / 2; i < n; i += brokenEvery {
		if inImport[i] == 0 {
			broken[i] = true
		}
	}
	if len(broken) == 0 {
		if inImport[n/2] == 0 {
			broken[n/2] = true
		} else {
			broken[0] = true
		}
	}

	write := func(rel, content string) error {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("generate workspace: %w", err)
		}
		w.Files++
		w.Bytes += int64(len(content))
		return nil
	}

	if err := write("tools/lib/http.ts", helperModule); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if err := write(modulePath(i), toolModule(i, broken[i])); err != nil {
			return nil, err
		}
		if broken[i] {
			w.Broken = append(w.Broken, filepath.Join(root, filepath.FromSlash(modulePath(i))))
		}
	}
	sort.Strings(w.Broken)

	// Imported files.
	var imports [importCount + 1]strings.Builder
	for k := 1; k <= importCount; k++ {
		fmt.Fprintf(&imports[k], "# Tools of team %d, imported by beeuni.yaml.\ntools:\n", k)
	}
	for i := 0; i < n; i++ {
		if k := inImport[i]; k != 0 {
			fmt.Fprintf(&imports[k], "  %s: %s\n", ToolName(i), modulePath(i))
		}
	}
	var importRels []string
	for k := 1; k <= importCount; k++ {
		if !strings.Contains(imports[k].String(), ".ts\n") {
			continue // no tool landed in this import (tiny workspaces)
		}
		rel := fmt.Sprintf("config/team-%d.yaml", k)
		if err := write(rel, imports[k].String()); err != nil {
			return nil, err
		}
		importRels = append(importRels, rel)
		w.Imports = append(w.Imports, filepath.Join(root, filepath.FromSlash(rel)))
	}

	// The root manifest.
	var b strings.Builder
	b.WriteString("# Generated by internal/lsp/bench: a Beeuni project of ")
	fmt.Fprintf(&b, "%d project tools.\n", n)
	if len(importRels) > 0 {
		b.WriteString("imports:\n")
		for _, rel := range importRels {
			fmt.Fprintf(&b, "  - %s\n", rel)
		}
	}
	b.WriteString("tools:\n")
	for _, name := range beeuniTools {
		if name == "web_search" {
			b.WriteString("  web_search: beeuni:")
			w.Marks.CompleteValue = b.Len()
			w.Marks.BeeuniValue = b.Len() + 3
			b.WriteString("web_search      # maintained by Beeuni, updated automatically\n")
			continue
		}
		fmt.Fprintf(&b, "  %s: beeuni:%s\n", name, name)
	}
	b.WriteString("\n")
	for i := 0; i < n; i++ {
		if inImport[i] != 0 {
			continue
		}
		if i == 0 {
			b.WriteString("  ")
			w.Marks.ToolKey = b.Len() + 3
			b.WriteString(ToolName(i))
			w.Marks.ToolKeyEnd = b.Len()
			b.WriteString(": ")
			w.Marks.ModulePath = b.Len() + 7
			b.WriteString(modulePath(i) + "\n")
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", ToolName(i), modulePath(i))
	}
	for i := 0; i < n; i++ {
		if inImport[i] == 0 {
			w.Names = append(w.Names, ToolName(i))
		}
	}
	for i := 0; i < n; i++ {
		if inImport[i] != 0 {
			w.Names = append(w.Names, ToolName(i))
		}
	}
	b.WriteString("agents:\n")
	agents := (n + 9) / 10
	for a := 0; a < agents; a++ {
		fmt.Fprintf(&b, "  agent_%04d:\n    description: Handles the work of team %d.\n    permission: ask\n    tools:\n", a, a)
		for i := a * 10; i < n && i < a*10+10; i++ {
			b.WriteString("      - ")
			if a == 0 && i == 0 {
				w.Marks.AgentItem = b.Len() + 3
			}
			b.WriteString(ToolName(i))
			if a == agents-1 && i == a*10 {
				w.Marks.AgentItemEnd = b.Len()
			}
			b.WriteString("\n")
		}
		if a%2 == 0 {
			b.WriteString("      - web_search\n      - read\n")
		}
	}
	b.WriteString("# notes: ")
	w.Marks.CommentEnd = b.Len()
	b.WriteString("\n")
	w.Content = b.String()
	if err := write("beeuni.yaml", w.Content); err != nil {
		return nil, err
	}
	return w, nil
}

// modulePath is the repo-relative module path of the i-th tool.
func modulePath(i int) string { return "tools/" + ToolName(i) + ".ts" }

// toolModule is the TypeScript source of the i-th tool: the module contract
// of SPEC section 8 with typed arguments, a fetch honouring context.signal,
// an error that says what to change, and every seventh module importing the
// shared helper. A broken module imports a package that nothing provides.
func toolModule(i int, broken bool) string {
	verb, noun := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
	var b strings.Builder
	fmt.Fprintf(&b, "// %s: %s %s through the back office API.\n", modulePath(i), verb, article(noun))
	b.WriteString("import { join } from 'node:path'\n")
	if i%7 == 0 {
		b.WriteString("import { getJSON } from './lib/http.ts'\n")
	}
	if broken {
		b.WriteString("import { z } from 'zod'\n")
	}
	fmt.Fprintf(&b, `
interface Args {
  id: string
  limit?: number
  verbose?: boolean
}

interface Context {
  sessionId: string
  agent: string
  directory: string
  env: Record<string, string | undefined>
  signal: AbortSignal
}

const MAX_ITEMS = %d

function summarize(item: Record<string, unknown>, verbose: boolean): string {
  const status = String(item.status ?? 'unknown')
  return verbose ? JSON.stringify(item, null, 2) : `+"`${item.id}: ${status}`"+`
}

export default {
  description: '%s %s by id (tool %d). Returns its status; pass verbose for every field.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The %s id, e.g. "A-1042"' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_ITEMS, description: 'How many related items to return' },
      verbose: { type: 'boolean', description: 'Return every field instead of a one-line summary' },
    },
    required: ['id'],
  },
  async execute(args: Args, context: Context) {
    const base = context.env.BACKOFFICE_API_URL
    if (!base) throw new Error('BACKOFFICE_API_URL is not set: add it with beeuni secrets set BACKOFFICE_API_URL=-')
    const url = new URL(join('/%ss', encodeURIComponent(args.id)), base)
    url.searchParams.set('limit', String(Math.min(args.limit ?? 10, MAX_ITEMS)))
`, 10+i%90, capitalize(verb), article(noun), i, noun, noun)
	if i%7 == 0 {
		b.WriteString("    const item = await getJSON(url, context.env.BACKOFFICE_TOKEN, context.signal)\n")
	} else {
		b.WriteString(`    const res = await fetch(url, {
      headers: { authorization: ` + "`Bearer ${context.env.BACKOFFICE_TOKEN}`" + ` },
      signal: context.signal,
    })
    if (!res.ok) throw new Error(` + "`" + noun + " ${args.id}: HTTP ${res.status}; check the id`" + `)
    const item = (await res.json()) as Record<string, unknown>
`)
	}
	if broken {
		b.WriteString("    z.object({ id: z.string() }).parse(item)\n")
	}
	b.WriteString("    return summarize(item, args.verbose === true)\n  },\n}\n")
	return b.String()
}

// helperModule is the shared helper some tool modules import.
const helperModule = `// tools/lib/http.ts: a JSON GET shared by several tools.
export async function getJSON(url: URL, token: string | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { authorization: ` + "`Bearer ${token ?? ''}`" + ` }, signal })
  if (!res.ok) throw new Error(` + "`GET ${url.pathname}: HTTP ${res.status}`" + `)
  return (await res.json()) as Record<string, unknown>
}
`

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
