package features

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestHoldsSubsequence(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"lookup_order_00001", "LooO", true},
		{"lookup_order_00001", "LooOrd", true},
		{"list_invoice", "LooOrd", false},
		{"lookup x", "loo", true},
		{"anything", "", true},
		{"beeuni:web_search", "beeuni:we", true},
		{"tools/web_search.ts", "beeuni:we", false},
		{"ab", "abc", false},
	}
	for _, tt := range tests {
		if got := holdsSubsequence(tt.s, []byte(tt.sub)); got != tt.want {
			t.Errorf("holdsSubsequence(%q, %q) = %v, want %v", tt.s, tt.sub, got, tt.want)
		}
	}
}

// matchingWorkspace is a project of n tools, n undeclared modules and an
// agent whose list is being typed into (the last item, "      - ").
func matchingWorkspace(t *testing.T, n int) (*analysis.Project, *RepoFiles, string) {
	t.Helper()
	var y strings.Builder
	y.WriteString("tools:\n  web_search: beeuni:web_search\n")
	fs := vfs.NewMem()
	for i := 0; i < n; i++ {
		fmt.Fprintf(&y, "  tool_%02d: tools/tool_%02d.ts\n", i, i)
		fs.WriteFile(fmt.Sprintf("/m/tools/tool_%02d.ts", i), []byte("export default {}\n"))
		fs.WriteFile(fmt.Sprintf("/m/extra/extra_%02d.ts", i), []byte("export default {}\n"))
	}
	y.WriteString("agents:\n  a:\n    tools:\n      - tool_00\n      - \n")
	fs.WriteFile("/m/beeuni.yaml", []byte(y.String()))
	ctx := context.Background()
	p, err := analysis.Load(ctx, fs, "/m")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := ScanRepo(ctx, fs, "/m")
	if err != nil {
		t.Fatal(err)
	}
	return p, repo, y.String()
}

// TestCompletionMatching: the items CompletionMatching makes are exactly
// Completion's items whose filter text holds the typed word, in the same
// order, and the list says when it left any out.
func TestCompletionMatching(t *testing.T) {
	p, repo, text := matchingWorkspace(t, 30)
	agentItem := strings.LastIndex(text, "- ") + 2
	toolKey := strings.Index(text, "agents:")
	cases := []struct {
		name     string
		at       int    // where the word is typed
		typed    string // the word, cursor after it
		wantSome bool
	}{
		{"agent list, nothing typed", agentItem, "", true},
		{"agent list, prefix", agentItem, "tool_1", true},
		{"agent list, other case subsequence", agentItem, "TL2", true},
		{"agent list, harness tool", agentItem, "Rea", true},
		{"agent list, no match", agentItem, "zzz", false},
		{"tool key, module stem", toolKey, "  ext", true},
		{"tool key, module path", toolKey, "  xtr/ex", true},
	}
	for _, tc := range cases {
		edited := text[:tc.at] + tc.typed + text[tc.at:]
		off := tc.at + len(tc.typed)
		all := Completion(p, repo, "/m/beeuni.yaml", []byte(edited), off)
		got, incomplete := CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(edited), off, 0)
		word := []byte(strings.TrimLeft(tc.typed, " "))
		var want []CompletionItem
		for _, it := range all {
			filter := it.FilterText
			if filter == "" {
				filter = it.Label
			}
			if holdsSubsequence(filter, word) {
				want = append(want, it)
			}
		}
		if tc.wantSome != (len(want) > 0) {
			t.Fatalf("%s: the case does not test what it says: %d matching items", tc.name, len(want))
		}
		if incomplete != (len(want) < len(all)) {
			t.Errorf("%s: incomplete = %v with %d of %d items", tc.name, incomplete, len(want), len(all))
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d items, want %d", tc.name, len(got), len(want))
		}
		for i := range got {
			if i > 0 && got[i-1].SortText >= got[i].SortText {
				t.Errorf("%s: item %d sorts before item %d", tc.name, i, i-1)
			}
			g, w := got[i], want[i]
			g.SortText, w.SortText = "", ""
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: item %d = %+v, want %+v", tc.name, i, g, w)
			}
		}
	}
}

func TestCompletionMatchingLimit(t *testing.T) {
	p, repo, text := matchingWorkspace(t, 30)
	off := strings.LastIndex(text, "- ") + 2
	all, _ := CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(text), off, 0)
	got, incomplete := CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(text), off, 10)
	if len(got) != 10 || !incomplete {
		t.Fatalf("limit 10: %d items, incomplete %v", len(got), incomplete)
	}
	if !reflect.DeepEqual(got, all[:10]) {
		t.Errorf("limit 10: not the first 10 items of the whole list")
	}
	got, incomplete = CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(text), off, len(all))
	if len(got) != len(all) || incomplete {
		t.Errorf("limit %d: %d items, incomplete %v", len(all), len(got), incomplete)
	}
}

// TestCompletionMatchingPrefersPrefixes: with a limit and a word typed, the
// items whose filter text starts with the word come first, then the other
// matches, each group in Completion's order, and a cut list keeps the
// prefix matches.
func TestCompletionMatchingPrefersPrefixes(t *testing.T) {
	p, repo, text := matchingWorkspace(t, 30)
	at := strings.LastIndex(text, "- ") + 2
	for _, typed := range []string{"t", "T", "ol_2", "e"} {
		edited := text[:at] + typed + text[at:]
		off := at + len(typed)
		all := Completion(p, repo, "/m/beeuni.yaml", []byte(edited), off)
		var prefix, rest []CompletionItem
		for _, it := range all {
			filter := it.FilterText
			if filter == "" {
				filter = it.Label
			}
			switch {
			case hasPrefixFold(filter, []byte(typed)):
				prefix = append(prefix, it)
			case holdsSubsequence(filter, []byte(typed)):
				rest = append(rest, it)
			}
		}
		if len(rest) == 0 {
			t.Fatalf("%q: no match that is not a prefix: the case tests nothing", typed)
		}
		want := append(append([]CompletionItem{}, prefix...), rest...)
		labels := func(items []CompletionItem) []string {
			var out []string
			for _, it := range items {
				out = append(out, it.Label)
			}
			return out
		}
		got, incomplete := CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(edited), off, len(all)+1)
		if !reflect.DeepEqual(labels(got), labels(want)) {
			t.Errorf("%q: items %v, want prefix matches first: %v", typed, labels(got), labels(want))
		}
		if incomplete != (len(want) < len(all)) {
			t.Errorf("%q: incomplete = %v with %d of %d items", typed, incomplete, len(want), len(all))
		}
		for i := 1; i < len(got); i++ {
			if got[i-1].SortText >= got[i].SortText {
				t.Errorf("%q: item %d sorts before item %d", typed, i, i-1)
			}
		}
		if len(prefix) > 1 {
			cut, incomplete := CompletionMatching(p, repo, "/m/beeuni.yaml", []byte(edited), off, len(prefix)-1)
			if !reflect.DeepEqual(labels(cut), labels(prefix[:len(prefix)-1])) || !incomplete {
				t.Errorf("%q, limit %d: items %v (incomplete %v), want the first prefix matches %v", typed, len(prefix)-1, labels(cut), incomplete, labels(prefix[:len(prefix)-1]))
			}
		}
	}
}

// countingRepo counts the times completion asks for the repository's files.
type countingRepo struct {
	repo  *RepoFiles
	asked int
}

func (c *countingRepo) Files() *RepoFiles { c.asked++; return c.repo }

// TestCompletionAsksForFilesOnlyWhereItOffersThem: a name in an agent's
// list needs no scan of the repository; a tools: key asks once, even over
// CompletionMatching's two passes.
func TestCompletionAsksForFilesOnlyWhereItOffersThem(t *testing.T) {
	p, repo, text := matchingWorkspace(t, 30)
	agent := strings.LastIndex(text, "      - ") + len("      - ")
	src := &countingRepo{repo: repo}
	if items, _ := CompletionMatching(p, src, "/m/beeuni.yaml", []byte(text), agent, 10); len(items) == 0 {
		t.Fatal("no completion in the agent's list")
	}
	if src.asked != 0 {
		t.Errorf("completion in an agent's list asked for the files %d times, want 0", src.asked)
	}
	edited := strings.Replace(text, "tools:\n  web_search", "tools:\n  t\n  web_search", 1)
	at := strings.Index(edited, "  t\n") + 3
	if items, _ := CompletionMatching(p, src, "/m/beeuni.yaml", []byte(edited), at, 10); len(items) == 0 {
		t.Fatal("no completion under tools:")
	}
	if src.asked != 1 {
		t.Errorf("completion of a tools: key asked for the files %d times, want 1", src.asked)
	}
}
