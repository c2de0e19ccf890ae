package lsp

import (
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

func TestCompletionMatches(t *testing.T) {
	content := []byte("      - LooOrd\n  web_search: beeuni:we\n")
	item := func(label, filter string, start int) features.CompletionItem {
		return features.CompletionItem{Label: label, FilterText: filter, Edit: features.TextEdit{Start: start}}
	}
	tests := []struct {
		name   string
		offset int
		it     features.CompletionItem
		want   bool
	}{
		{"prefix, any case", 11, item("lookup_order_00001", "", 8), true},
		{"subsequence", 14, item("lookup_order_00001", "", 8), true},
		{"not a subsequence", 14, item("list_invoice", "", 8), false},
		{"filter text wins", 11, item("x", "lookup x", 8), true},
		{"nothing typed", 8, item("anything", "", 8), true},
		{"value with a colon", 38, item("beeuni:web_search", "", 29), true},
		{"value mismatch", 38, item("tools/web_search.ts", "", 29), false},
		{"start after cursor", 8, item("zzz", "", 9), true},
	}
	for _, tt := range tests {
		if got := completionMatches(content, tt.offset, tt.it); got != tt.want {
			t.Errorf("%s: completionMatches(%q) = %v, want %v", tt.name, content[min(tt.it.Edit.Start, tt.offset):tt.offset], got, tt.want)
		}
	}
}
