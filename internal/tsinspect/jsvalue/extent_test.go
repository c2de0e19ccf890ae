package jsvalue

import "testing"

func TestQuoteSource(t *testing.T) {
	tests := []struct {
		name, src string
		limit     int
		want      string
	}{
		{"strings kept byte for byte", "['Draft  release notes',\n   'Group  them'].join", 60, "['Draft  release notes', 'Group  them'].join"},
		{"line breaks between tokens", "z\n  .object({\n    id: z.string(),\n  })", 60, "z .object({ id: z.string(), })"},
		{"template literal kept", "f(`a  ${b}  c`)", 60, "f(`a  ${b}  c`)"},
		{"escaped quote", `g('it\'s  here')`, 60, `g('it\'s  here')`},
		{"unterminated", "h('abc", 60, "h('abc"},
		{"cut at a character", "éééééééééééé", 10, "ééééééé..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := quoteSource([]byte(tc.src), tc.limit); got != tc.want {
				t.Errorf("quoteSource(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}
