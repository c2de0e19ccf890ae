package analysis

import (
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// T9: a tool declared in more than one file, reported on each declaration
// with the others as related places. It reads every declaration of the
// project, so it runs on every load.

const CodeTwoFiles = "T9"

var ruleTwoFiles = &Rule{Code: CodeTwoFiles, Severity: diag.Error, Reads: ReadsManifest}

func msgTwoFiles(name string, others []string) string {
	return fmt.Sprintf("tool `%s` is declared in two files: here and in %s; declare it once", name, joinCode(others))
}

func msgOtherDeclaration(name string) string {
	return fmt.Sprintf("the other declaration of `%s`", name)
}

// joinCode formats a list of names as `a`, `b`.
func joinCode(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("`%s`", n)
	}
	return strings.Join(q, ", ")
}

// checkTwoFiles reports T9 on every declaration of a name declared in
// another file too (twice in one file is T10's, and counted once here).
func checkTwoFiles(s *toolSet) {
	for _, d := range s.all {
		if s.stop.stopped() {
			return
		}
		others := s.others[d.name]
		if len(others) == 0 {
			continue
		}
		decls := append([]*declaration{s.declared[d.name]}, others...)
		var otherFiles []string
		var related []diag.Related
		for _, o := range decls {
			if o == d {
				continue
			}
			otherFiles = append(otherFiles, o.unit.file.Rel)
			related = append(related, diag.Related{
				File: o.unit.file.Path, Range: o.unit.parsed.pos.nodeRange(o.key), Message: msgOtherDeclaration(d.name),
			})
		}
		s.report(ruleTwoFiles, d.unit, d.key, msgTwoFiles(d.name, otherFiles), map[string]string{DataName: d.name}, related...)
	}
}
