package edit

import (
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// Every fix kind a rule offers has its edits here: a rule's file names the
// fixes, this package makes them.
func TestEveryRuleFixHasAFixer(t *testing.T) {
	offered := 0
	for _, r := range analysis.Rules() {
		for _, kind := range r.Fixes {
			offered++
			if fixer(kind) == nil {
				t.Errorf("%s offers the fix %q, which QuickFixes cannot make", r.Code, kind)
			}
		}
	}
	if offered == 0 {
		t.Fatal("no rule offers a fix")
	}
	if fixer("no-such-fix") != nil {
		t.Error("a fixer for an unknown kind")
	}
}
