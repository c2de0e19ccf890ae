package jsfront

import (
	"testing"
)

func TestParseSourceMap(t *testing.T) {
	type probe struct {
		line, col int
		want      segment
		ok        bool
	}
	tests := []struct {
		name     string
		mappings string
		probes   []probe
		err      bool
	}{
		{"first segment all zero", "AAAA,OAAO,UAAU", []probe{
			{0, 0, segment{0, 0, 0}, true},
			{0, 5, segment{0, 0, 0}, true}, // inside the first segment
			{0, 7, segment{7, 0, 7}, true},
			{0, 30, segment{17, 0, 17}, true},
			{1, 0, segment{}, false}, // no such line
		}, false},
		{"lines and negative deltas", "AAAA;AACA,IAAI;;EAAD", []probe{
			{1, 0, segment{0, 1, 0}, true},
			{1, 4, segment{4, 1, 4}, true},
			{2, 3, segment{}, false},       // an empty line
			{3, 2, segment{2, 1, 3}, true}, // column 4 - 1
			{3, 1, segment{}, false},       // before the line's first segment
		}, false},
		{"a segment without a source", "A,EAAA", []probe{
			{0, 0, segment{}, false},
			{0, 2, segment{2, 0, 0}, true},
		}, false},
		{"a number cut short", "AAAg", nil, true},
		{"not base64", "AA*A", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := parseSourceMap([]byte(`{"version":3,"sources":["m.ts"],"mappings":"` + tt.mappings + `"}`))
			if (err != nil) != tt.err {
				t.Fatalf("error %v, want error %v", err, tt.err)
			}
			for _, p := range tt.probes {
				got, ok := m.lookup(p.line, p.col)
				if ok != p.ok || got != p.want {
					t.Errorf("lookup(%d, %d) = %v %v, want %v %v", p.line, p.col, got, ok, p.want, p.ok)
				}
			}
		})
	}
	if _, err := parseSourceMap([]byte(`{"version":2,"mappings":""}`)); err == nil {
		t.Error("version 2 accepted")
	}
}
