// Package schema builds the JSON Schema of beeuni.yaml from the engine's
// catalog (internal/analysis): the tool names, the five `beeuni:` values,
// the module and import paths, the forms of agents.<name>.tools and
// secrets. Editors without the language server get completion and the
// checks a schema can express from it (yaml-language-server, JetBrains
// IDEs through SchemaStore). The file committed at schema/beeuni.schema.json
// is Manifest's output (TestSchemaFileIsUpToDate); docs/schema.md says
// which rules it expresses and which it cannot.
package schema

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// ID is where SchemaStore serves the schema.
const ID = "https://json.schemastore.org/beeuni.json"

// docsURL is the page a description links to, SchemaStore's way:
// "<description>\n<url>".
const docsURL = "https://github.com/beeuni/beeuni-lsp/blob/main/docs/"

// beeuniToolDoc says what each Beeuni tool does, for its property.
var beeuniToolDoc = map[string]string{
	"web_search":     "Searches the web and returns the results as JSON.",
	"image_search":   "Searches the web for images and returns them as JSON.",
	"scrape_webpage": "Fetches a web page and returns its content as JSON.",
	"memory":         "Reads and edits the notes the agent keeps under memory/.",
	"show":           "Shows the user a file, a page, some content or a list of items in the web UI.",
}

// Manifest returns the schema of a beeuni.yaml manifest (and of the files
// it imports, which have the same shape).
func Manifest() (*Node, error) {
	defs := &Props{}
	defs.Add("toolName", toolName())
	defs.Add("modulePath", modulePath())
	defs.Add("importPath", importPath())
	defs.Add("toolList", toolList())
	defs.Add("agent", agent())

	tools := &Props{}
	for _, name := range analysis.BeeuniTools() {
		doc, ok := beeuniToolDoc[name]
		if !ok {
			return nil, fmt.Errorf("schema: no description of the Beeuni tool %s", name)
		}
		value := analysis.BeeuniPrefix + name
		tools.Add(name, &Node{
			Description: fmt.Sprintf("The Beeuni tool %s. %s `%s` keeps the tool Beeuni maintains; a module path replaces it with the project's own module.\n%srules.md#t3", name, doc, value, docsURL),
			AnyOf: []*Node{
				{Type: "string", Const: &value, Description: fmt.Sprintf("The Beeuni tool %s, maintained by Beeuni and updated automatically. %s", name, doc)},
				{Ref: "#/definitions/modulePath"},
			},
		})
	}

	root := &Props{}
	root.Add("imports", &Node{
		Description: "Repo-relative paths of YAML files that declare more tools:, agents: and imports:, resolved from the repository root.\n" + docsURL + "rules.md#i1",
		AnyOf: []*Node{
			{Type: "null", Description: "No imports."},
			{Type: "array", Description: "The files to import, each once.", UniqueItems: true, Items: &Node{Ref: "#/definitions/importPath"}},
		},
	})
	root.Add("tools", &Node{
		Description: fmt.Sprintf("The tools sessions load: a Beeuni tool as `<name>: beeuni:<name>`, a project tool as `<name>: <module path>`. With no tools: key anywhere, sessions get all five Beeuni tools (%s); with one, only those it lists.\n%srules.md#t3", strings.Join(analysis.BeeuniTools(), ", "), docsURL),
		AnyOf: []*Node{
			{Type: "null", Description: "An empty tools: key: sessions get no Beeuni tool."},
			{
				Type:                 "object",
				Description:          "Tool names mapped to `beeuni:<name>` or a module path.",
				PropertyNames:        &Node{Ref: "#/definitions/toolName"},
				Properties:           tools,
				AdditionalProperties: &Node{Ref: "#/definitions/modulePath"},
			},
		},
	})
	root.Add("agents", &Node{
		Description: "The project's agents, by name.\n" + docsURL + "rules.md#a3",
		AnyOf: []*Node{
			{Type: "object", Description: "Agents by name.", AdditionalProperties: &Node{Ref: "#/definitions/agent"}},
			notChecked(),
		},
	})
	return &Node{
		Schema:               "http://json-schema.org/draft-07/schema#",
		ID:                   ID,
		Title:                "Beeuni project manifest (beeuni.yaml)",
		Description:          "The manifest of a Beeuni project: its tools, its agents and the files it imports. Generated from beeuni-lsp's rule catalog; beeuni-lsp checks everything else.\n" + docsURL + "schema.md",
		Type:                 "object",
		Properties:           root,
		AdditionalProperties: true,
		Definitions:          defs,
	}, nil
}

// notRelative matches what ResolveRepoPath refuses as not repo-relative: a
// leading `/` or `~`, and a colon, a backslash or a NUL anywhere. A path
// must start with another character and hold none of these.
const (
	relativeStart = `^[^/~:\\\x00][^:\\\x00]*`
	// leaves matches a path whose first element, after `./`, is `..`: it
	// leaves the repository. A `..` further on may climb out too, which a
	// regular expression cannot count (docs/schema.md).
	leaves = `^(\./+)*\.\.(/|$)`
)

// extensionsPattern is `\.(a|b)$` for extensions ".a", ".b".
func extensionsPattern(exts []string) string {
	quoted := make([]string, len(exts))
	for i, e := range exts {
		quoted[i] = regexp.QuoteMeta(strings.TrimPrefix(e, "."))
	}
	return `\.(` + strings.Join(quoted, "|") + `)$`
}

// toolName is T1 and the certain part of T2.
func toolName() *Node {
	var certain []string
	for _, h := range analysis.HarnessTools() {
		if _, sure := analysis.HarnessTool(h); sure {
			certain = append(certain, h)
		}
	}
	return &Node{
		Type:        "string",
		Description: fmt.Sprintf("A tool name: snake_case, at most %d characters, and not a harness tool's name (%s, %s*).\n%srules.md#t1", analysis.MaxToolNameLen, strings.Join(certain, ", "), analysis.HarnessToolPrefix(), docsURL),
		Pattern:     fmt.Sprintf("^[a-z][a-z0-9_]{0,%d}$", analysis.MaxToolNameLen-1),
		Not: &Node{AnyOf: []*Node{
			{Type: "string", Enum: certain, Description: "A tool the harness implements."},
			{Type: "string", Pattern: "^" + regexp.QuoteMeta(analysis.HarnessToolPrefix()) + ".", Description: "A tool of the standard harness's terminal plugin."},
		}},
	}
}

// modulePath is T5 (as far as a pattern can say it), and T4 and T7: a
// `beeuni:` value holds a colon, a value of another type is no string.
func modulePath() *Node {
	exts := analysis.ModuleExtensions()
	return repoPath(exts, fmt.Sprintf("A repo-relative path to the tool's module (%s), e.g. tools/lookup_order.ts. Only the five Beeuni tools take a `beeuni:` value.", strings.Join(exts, ", ")), "t5")
}

// importPath is I2 (as far as a pattern can say it) and I3.
func importPath() *Node {
	exts := analysis.ImportExtensions()
	return repoPath(exts, fmt.Sprintf("A repo-relative path to a YAML file (%s), resolved from the repository root.", strings.Join(exts, ", ")), "i2")
}

// repoPath is a repo-relative path with one of exts that does not leave
// the repository, described by what and the section of rules.md.
func repoPath(exts []string, what, section string) *Node {
	return &Node{
		Type:        "string",
		Description: what + "\n" + docsURL + "rules.md#" + section,
		Pattern:     relativeStart + extensionsPattern(exts),
		Not:         &Node{Type: "string", Pattern: leaves},
	}
}

// toolList is a list of tool names in an agent's tools, with the names
// every project has as examples for completion.
func toolList() *Node {
	_, _, star, _ := analysis.AgentToolsWords()
	var names []any
	for _, n := range analysis.HarnessTools() {
		names = append(names, n)
	}
	for _, n := range analysis.BeeuniTools() {
		names = append(names, n)
	}
	names = append(names, star)
	return &Node{
		Type:        "array",
		Description: "Tool names: harness, Beeuni or project tools.",
		Items: &Node{
			Type:        "string",
			Description: fmt.Sprintf("A harness, Beeuni or project tool's name; `%s` stands for every tool.", star),
			Examples:    names,
		},
	}
}

// agent is one agent: A3 on its tools, and the forms of its secrets.
func agent() *Node {
	all, none, _, exclude := analysis.AgentToolsWords()
	excludeProps := (&Props{}).Add(exclude, &Node{
		Description: "The tools the agent does not get.",
		AnyOf: []*Node{
			{Type: "null", Description: "Excludes nothing."},
			{Ref: "#/definitions/toolList"},
		},
	})
	props := &Props{}
	props.Add("tools", &Node{
		Description: fmt.Sprintf("The tools the agent's model sees: `%s` (the default), `%s`, a list of tool names, `{ %s: [...] }`, or the legacy map of tool names to true/false.\n%srules.md#a3", all, none, exclude, docsURL),
		AnyOf: []*Node{
			{Type: "null", Description: "As if omitted: every tool."},
			{Type: "string", Enum: []string{all, none}, Description: fmt.Sprintf("`%s`: every tool; `%s`: no tool.", all, none)},
			{Ref: "#/definitions/toolList"},
			{
				Type:                 "object",
				Description:          "Every tool but those listed.",
				Properties:           excludeProps,
				Required:             []string{exclude},
				AdditionalProperties: false,
			},
			{
				Type:                 "object",
				Description:          "The legacy map form: `false` removes a tool.",
				PropertyNames:        &Node{Type: "string", Not: &Node{Type: "string", Enum: []string{exclude}}},
				AdditionalProperties: &Node{Type: "boolean", Description: "false removes the tool."},
			},
		},
	})
	props.Add("secrets", &Node{
		Description: fmt.Sprintf("The secrets the agent's tools get in context.env: `%s`, or a list of secret names. Other forms are the product's to check, not beeuni-lsp's.\n%srules.md#a4", all, docsURL),
		Examples:    []any{all, []any{"WEATHER_API_KEY"}},
	})
	return &Node{
		Description: "An agent. Keys other than tools and secrets (permission, connectors, ...) are the product's.",
		AnyOf:       []*Node{{Type: "object", Description: "The agent's settings.", Properties: props, AdditionalProperties: true}, notChecked()},
	}
}

// notChecked accepts a value that is not a mapping where the engine reads
// only mappings and reports nothing else (SPEC section 1: the rest of the
// manifest's schema is the product's): the schema does not report it either.
func notChecked() *Node {
	return &Node{Description: "Not a mapping: beeuni-lsp reads nothing here and reports nothing.", Not: &Node{Type: "object"}}
}
