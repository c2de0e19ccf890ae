package analysis

// Accessors of catalog entries that only the JSON Schema of beeuni.yaml
// (internal/schema) needs besides the rules: it is generated from this
// catalog, so that the schema and the engine name the same things.

// ImportExtensions returns the extensions an imported manifest may have (I3).
func ImportExtensions() []string { return append([]string(nil), importExtensions[:]...) }

// HarnessToolPrefix starts the names of the terminal plugin's tools, every
// one a harness tool (T2) when something follows it.
func HarnessToolPrefix() string { return ptyPrefix }

// AgentToolsWords are the words agents.<name>.tools is written with
// (SPEC section 5): the values `all` and `none`, the list item `*` that
// means all, and the key of the `{ exclude: [...] }` form.
func AgentToolsWords() (all, none, star, exclude string) {
	return agentAll, agentNone, agentStar, agentExclude
}
