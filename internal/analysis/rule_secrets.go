package analysis

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// Rule A4: a tool an agent can call reads `context.env.X`, and the agent's
// `secrets:` is a list without X. SPEC section 8: `context.env` is "the
// box's environment plus the secrets this agent gets now"; a scoped agent
// lists the secrets it gets (`secrets: [WEATHER_API_KEY]`). X may still
// come from the box's environment, so it is information, not a warning.
// The agent's tool set is what its model sees (Agent.Sees, SPEC section 5:
// a tool not in it is hidden and a call to it is denied).

// CodeSecretNotGranted is A4.
const CodeSecretNotGranted = "A4"

// ruleSecretNotGranted reads the whole manifest (the agents and their tool
// sets) and the module files (their reads of context.env): it runs with
// the module inspection (inspect.go), after the load, never memoized.
var ruleSecretNotGranted = &Rule{Code: CodeSecretNotGranted, Severity: diag.Information, Reads: ReadsManifest | ReadsFiles}

// boxPrefix starts the names of the box's own environment, which the
// daemon sets for every tool (**Decision**: SPEC section 7 says the Beeuni
// sources read `BEEUNI_API_URL` and `BEEUNI_TOKEN` from `context.env`, "so
// it runs as is", with no secret granted): A4 never names them.
const boxPrefix = "BEEUNI_"

// boxVariable reports whether name is of the box's own environment.
func boxVariable(name string) bool { return strings.HasPrefix(name, boxPrefix) }

// maxSecretTools is how many tools one A4 finding names (and relates)
// before "and N more".
const maxSecretTools = 5

// msgSecretNotGranted is A4's message: the agent, the first tools it can
// call that read secret (shown), how many do in all, the secret.
func msgSecretNotGranted(agent, secret string, shown []string, total int) string {
	verb := "read"
	if total == 1 {
		verb = "reads"
	}
	return fmt.Sprintf("agent `%s` can call %s, which %s `context.env.%s`, but its `secrets:` does not list `%s`: the agent does not get that secret, and `%s` may still come from the box's environment; add `%s` to `secrets:` if the tool needs the secret",
		agent, listNames(shown, total, "tools"), verb, secret, secret, secret, secret)
}

// listNames quotes the names shown ("`a`, `b` and `c`"), then says how
// many more (of what) there are, of total.
func listNames(shown []string, total int, what string) string {
	q := make([]string, len(shown))
	for i, n := range shown {
		q[i] = "`" + n + "`"
	}
	if total > len(shown) {
		return strings.Join(q, ", ") + fmt.Sprintf(" and %d more %s", total-len(shown), what)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// SecretsForm is the shape of agents.<name>.secrets.
type SecretsForm int

const (
	// SecretsAbsent: no `secrets:` key. Neither SPEC nor the page says
	// what such an agent gets, so A4 says nothing of it.
	SecretsAbsent SecretsForm = iota
	SecretsAll                // `secrets: all`
	SecretsList               // a list of names
	// SecretsOther is any other value: its schema is not ours (SPEC
	// section 1), so it is never an error and A4 says nothing of it.
	SecretsOther
)

// AgentSecrets is an agent's `secrets:` value.
type AgentSecrets struct {
	Form SecretsForm
	// Names are the list's names, as written (SecretsList only).
	Names []string
}

// grants reports whether the list names secret (SecretsList only).
func (s AgentSecrets) grants(secret string) bool { return slices.Contains(s.Names, secret) }

// readSecrets reads a `secrets:` value: `all`, or a list of names. A list
// holding anything but names is SecretsOther.
func readSecrets(raw *yaml.Node) AgentSecrets {
	v := resolveAlias(raw)
	switch {
	case isString(v) && v.Value == "all":
		return AgentSecrets{Form: SecretsAll}
	case v != nil && v.Kind == yaml.SequenceNode:
		names := make([]string, 0, len(v.Content))
		for _, it := range v.Content {
			it = resolveAlias(it)
			if !isString(it) {
				return AgentSecrets{Form: SecretsOther}
			}
			names = append(names, it.Value)
		}
		return AgentSecrets{Form: SecretsList, Names: names}
	}
	return AgentSecrets{Form: SecretsOther}
}

// secretReads holds, for each module of a ModuleBase that loads, the
// first read of each name its execute reads from `context.env`, by name.
// It is immutable.
type secretReads struct {
	byModule map[string][]tsinspect.EnvRead
}

func newSecretReads(results map[string]*tsinspect.Result) *secretReads {
	s := &secretReads{}
	for m, r := range results {
		if r == nil || !r.Loads || r.Incomplete || len(r.EnvReads) == 0 {
			continue
		}
		if reads := firstReads(r.EnvReads); reads != nil {
			if s.byModule == nil {
				s.byModule = map[string][]tsinspect.EnvRead{}
			}
			s.byModule[m] = reads
		}
	}
	return s
}

// firstReads returns the reads (the first of each name, sorted by name:
// tsinspect.Result.EnvReads) but the box's own variables, nil when none is
// left. Without a box variable it is the result's own slice, shared, not a
// copy: read it only.
func firstReads(reads []tsinspect.EnvRead) []tsinspect.EnvRead {
	if !slices.ContainsFunc(reads, func(r tsinspect.EnvRead) bool { return boxVariable(r.Name) }) {
		return reads
	}
	var out []tsinspect.EnvRead
	for _, r := range reads {
		if !boxVariable(r.Name) {
			out = append(out, r)
		}
	}
	return out
}

// secretTools is what A4 needs of one load's tools: the positions of
// those whose module reads `context.env` (in declaration order), and for
// agents that see every tool, which of them read each secret. It depends
// on the module of each position only, so a load declaring the same
// modules (ToolModules.Same) can use it. It is immutable.
type secretTools struct {
	tools []int
	every map[string]*secretTally
	// names are the tools' names when it was made, and byName their
	// positions (a name declared twice, T9: the first, again the others),
	// for the agents that see some tools; a load that renamed a tool
	// makes its own.
	names  []string
	byName map[string]int
	again  map[string][]int
}

// index returns the positions of the reader tools by name, for p.
func (r *secretTools) index(p *Project) (byName map[string]int, again map[string][]int) {
	same := true
	for k, ti := range r.tools {
		if p.Model.Tools[ti].Name != r.names[k] {
			same = false
			break
		}
	}
	if same {
		return r.byName, r.again
	}
	return toolsByName(p, r.tools)
}

func toolsByName(p *Project, tools []int) (byName map[string]int, again map[string][]int) {
	byName = make(map[string]int, len(tools))
	for _, ti := range tools {
		n := p.Model.Tools[ti].Name
		if _, dup := byName[n]; dup {
			if again == nil {
				again = map[string][]int{}
			}
			again[n] = append(again[n], ti)
			continue
		}
		byName[n] = ti
	}
	return byName, again
}

// readerTools returns p's tools whose module reads `context.env`.
func (s *secretReads) readerTools(p *Project) *secretTools {
	if len(s.byModule) == 0 || p == nil || p.Model == nil {
		return nil
	}
	var tools []int
	for i, t := range p.Model.Tools {
		if t.Module != "" && s.byModule[t.Module] != nil {
			tools = append(tools, i)
		}
	}
	if tools == nil {
		return nil
	}
	r := &secretTools{tools: tools, every: s.tally(p, tools), names: make([]string, len(tools))}
	for k, ti := range tools {
		r.names[k] = p.Model.Tools[ti].Name
	}
	r.byName, r.again = toolsByName(p, tools)
	return r
}

// findings returns A4 for p's agents whose `secrets:` is a list, over r
// (readerTools of p, or of a load declaring the same modules): one finding
// per agent and secret, on the agent's name, naming the first tools that
// read it, sorted with diag.Sort. An agent that sees every tool costs the
// secrets read, another the tools it sees: never the product of the agents
// and the tools.
func (s *secretReads) findings(p *Project, r *secretTools) []diag.Finding {
	if r == nil {
		return nil
	}
	var out []diag.Finding
	var byName map[string]int // the reader tools' positions by name (r.index)
	var again map[string][]int
	var seen []int
	for ai := range p.Model.Agents {
		a := p.Model.Agents[ai]
		if a.Secrets.Form != SecretsList || a.File == "" {
			continue
		}
		tally := r.every
		if a.Form != FormAll {
			if byName == nil {
				byName, again = r.index(p)
			}
			seen = seen[:0]
			for n := range a.Sees.All() {
				if ti, ok := byName[n]; ok {
					seen = append(seen, ti)
					seen = append(seen, again[n]...)
				}
			}
			slices.Sort(seen) // declaration order
			tally = s.tally(p, slices.Compact(seen))
		}
		secrets := make([]string, 0, len(tally))
		for x := range tally {
			if !a.Secrets.grants(x) {
				secrets = append(secrets, x)
			}
		}
		slices.Sort(secrets)
		for _, x := range secrets {
			out = append(out, s.finding(p, a, x, tally[x]))
		}
	}
	diag.Sort(out)
	return out
}

// secretTally is which tools read one secret: the first few (positions in
// the project's tools, in declaration order) and how many in all.
type secretTally struct {
	first []int
	n     int
}

// tally counts, per secret, the tools at positions tools that read it.
func (s *secretReads) tally(p *Project, tools []int) map[string]*secretTally {
	out := map[string]*secretTally{}
	for _, ti := range tools {
		for _, r := range s.byModule[p.Model.Tools[ti].Module] {
			t := out[r.Name]
			if t == nil {
				t = &secretTally{}
				out[r.Name] = t
			}
			if len(t.first) < maxSecretTools {
				t.first = append(t.first, ti)
			}
			t.n++
		}
	}
	return out
}

// finding is A4 on agent a for secret, read by the tools t counts.
func (s *secretReads) finding(p *Project, a *Agent, secret string, t *secretTally) diag.Finding {
	names := make([]string, len(t.first))
	for i, ti := range t.first {
		names[i] = p.Model.Tools[ti].Name
	}
	f := ruleSecretNotGranted.finding(a.File, p.File(a.File).Range(a.Key), msgSecretNotGranted(a.Name, secret, names, t.n),
		map[string]string{"agent": a.Name, "secret": secret}, nil)
	for _, ti := range t.first {
		tool := p.Model.Tools[ti]
		reads := s.byModule[tool.Module]
		if i, ok := slices.BinarySearchFunc(reads, secret, func(r tsinspect.EnvRead, x string) int { return strings.Compare(r.Name, x) }); ok {
			f.Related = append(f.Related, diag.Related{File: reads[i].File, Range: reads[i].Range,
				Message: fmt.Sprintf("`%s` reads `context.env.%s` here", tool.Name, secret)})
		}
	}
	return f
}

// SecretGap is one name a tool's module reads from `context.env` and the
// agents that can call the tool while their `secrets:` list lacks it.
type SecretGap struct {
	Secret string
	Agents []string // in declaration order
}

// SecretGaps returns, for tool t of p (its module inspected as r), each
// name the module reads from `context.env` that an agent able to call t
// does not get by its `secrets:` list, sorted by name (the hover's
// "agents that can call this tool and do not get X").
func SecretGaps(p *Project, t Tool, r *tsinspect.Result) []SecretGap {
	if p == nil || p.Model == nil || r == nil || !r.Loads || r.Incomplete || len(r.EnvReads) == 0 {
		return nil
	}
	reads := firstReads(r.EnvReads)
	var out []SecretGap
	for _, x := range reads {
		var agents []string
		for ai := range p.Model.Agents {
			a := p.Model.Agents[ai]
			if a.Secrets.Form == SecretsList && !a.Secrets.grants(x.Name) && (a.Form == FormAll || a.Sees.Contains(t.Name)) {
				agents = append(agents, a.Name)
			}
		}
		if agents != nil {
			out = append(out, SecretGap{Secret: x.Name, Agents: agents})
		}
	}
	return out
}
