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

// SecretNotGrantedSeverity is A4's severity.
const SecretNotGrantedSeverity = diag.Information

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

// msgSecretNotGranted is A4's message: the agent, the tools it can call
// that read secret (the first few of them, then how many more), the
// secret.
func msgSecretNotGranted(agent, secret string, tools []string) string {
	return fmt.Sprintf("agent `%s` can call %s, which %s `context.env.%s`, but its `secrets:` does not list `%s`: the agent does not get that secret, and `%s` may still come from the box's environment; add `%s` to `secrets:` if the tool needs the secret",
		agent, listNames(tools, maxSecretTools, "tools"), readsVerb(len(tools)), secret, secret, secret, secret)
}

func readsVerb(n int) string {
	if n == 1 {
		return "reads"
	}
	return "read"
}

// listNames quotes the first most names ("`a`, `b` and `c`"), then says
// how many more (of what) there are.
func listNames(names []string, most int, what string) string {
	shown := names
	if len(names) > most {
		shown = names[:most]
	}
	q := make([]string, len(shown))
	for i, n := range shown {
		q[i] = "`" + n + "`"
	}
	if len(names) > most {
		return strings.Join(q, ", ") + fmt.Sprintf(" and %d more %s", len(names)-most, what)
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

// firstReads returns the first read of each name but the box's own
// variables, sorted by name (nil when none is left).
func firstReads(reads []tsinspect.EnvRead) []tsinspect.EnvRead {
	var out []tsinspect.EnvRead
	for _, r := range reads {
		if !boxVariable(r.Name) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b tsinspect.EnvRead) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(out, func(a, b tsinspect.EnvRead) bool { return a.Name == b.Name })
}

// readerTools returns the positions in p's tools of those whose module
// reads `context.env`, in declaration order.
func (s *secretReads) readerTools(p *Project) []int {
	if len(s.byModule) == 0 || p == nil || p.Model == nil {
		return nil
	}
	var out []int
	for i, t := range p.Model.Tools {
		if t.Module != "" && s.byModule[t.Module] != nil {
			out = append(out, i)
		}
	}
	return out
}

// findings returns A4 for p's agents whose `secrets:` is a list, over the
// tools of p at positions tools (readerTools): one finding per agent and
// secret, on the agent's name, naming the tools that read it, sorted with
// diag.Sort.
func (s *secretReads) findings(p *Project, tools []int) []diag.Finding {
	if len(tools) == 0 {
		return nil
	}
	var out []diag.Finding
	var calls []int
	for ai := range p.Model.Agents {
		a := &p.Model.Agents[ai]
		if a.Secrets.Form != SecretsList || a.File == "" {
			continue
		}
		calls = callable(a, p.Model.Tools, tools, calls[:0])
		// secret -> the tools (positions in p's tools) that read it
		bySecret := map[string][]int{}
		for _, ti := range calls {
			for _, r := range s.byModule[p.Model.Tools[ti].Module] {
				if !a.Secrets.grants(r.Name) {
					bySecret[r.Name] = append(bySecret[r.Name], ti)
				}
			}
		}
		secrets := make([]string, 0, len(bySecret))
		for x := range bySecret {
			secrets = append(secrets, x)
		}
		slices.Sort(secrets)
		for _, x := range secrets {
			out = append(out, s.finding(p, a, x, bySecret[x]))
		}
	}
	diag.Sort(out)
	return out
}

// finding is A4 on agent a for secret, read by the tools at positions
// readers of p's tools.
func (s *secretReads) finding(p *Project, a *Agent, secret string, readers []int) diag.Finding {
	names := make([]string, len(readers))
	for i, ti := range readers {
		names[i] = p.Model.Tools[ti].Name
	}
	f := diag.Finding{
		File: a.File, Range: a.Key, Severity: SecretNotGrantedSeverity, Code: CodeSecretNotGranted,
		Message: msgSecretNotGranted(a.Name, secret, names),
		Data:    map[string]string{"agent": a.Name, "secret": secret},
	}
	for _, ti := range readers[:min(len(readers), maxSecretTools)] {
		t := &p.Model.Tools[ti]
		reads := s.byModule[t.Module]
		if i, ok := slices.BinarySearchFunc(reads, secret, func(r tsinspect.EnvRead, x string) int { return strings.Compare(r.Name, x) }); ok {
			f.Related = append(f.Related, diag.Related{File: reads[i].File, Range: reads[i].Range,
				Message: fmt.Sprintf("`%s` reads `context.env.%s` here", t.Name, secret)})
		}
	}
	return f
}

// callable appends to out the positions (of tools, positions in all)
// of the tools agent a can call.
func callable(a *Agent, all []Tool, tools []int, out []int) []int {
	if a.Form == FormAll {
		return append(out, tools...)
	}
	want := make(map[string]bool, len(tools))
	for _, ti := range tools {
		want[all[ti].Name] = false
	}
	for _, n := range a.Sees {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	for _, ti := range tools {
		if want[all[ti].Name] {
			out = append(out, ti)
		}
	}
	return out
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
			a := &p.Model.Agents[ai]
			if a.Secrets.Form == SecretsList && !a.Secrets.grants(x.Name) && (a.Form == FormAll || slices.Contains(a.Sees, t.Name)) {
				agents = append(agents, a.Name)
			}
		}
		if agents != nil {
			out = append(out, SecretGap{Secret: x.Name, Agents: agents})
		}
	}
	return out
}
