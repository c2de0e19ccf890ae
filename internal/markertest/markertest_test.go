package markertest

import (
	"reflect"
	"strings"
	"testing"
)

func TestFile(t *testing.T) {
	clean, ms, err := File("b.yaml", "tools:\n  a⁁b: x #@hover(h, \"ab\") @nohover()\n// @def(a, \"q,)\")\nplain\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "tools:\n  ab: x #@hover(h, \"ab\") @nohover()\n// @def(a, \"q,)\")\nplain\n"; clean != want {
		t.Errorf("clean text %q, want %q", clean, want)
	}
	want := []Marker{
		{Name: "hover", Args: []string{"h", "ab"}, File: "b.yaml", Line: 2, Cursor: 10},
		{Name: "nohover", File: "b.yaml", Line: 2, Cursor: 10},
		{Name: "def", Args: []string{"a", "q,)"}, File: "b.yaml", Line: 3, Cursor: 10},
	}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("markers\n got  %+v\n want %+v", ms, want)
	}
}

func TestScript(t *testing.T) {
	ms, err := Script("# prose\n\n@type(beeuni.yaml, \"a⁁b\", \"c\\n\")\n  @diags(beeuni.yaml, 0)\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Marker{
		{Name: "type", Args: []string{"beeuni.yaml", "a⁁b", "c\n"}, Line: 3, Cursor: -1},
		{Name: "diags", Args: []string{"beeuni.yaml", "0"}, Line: 4, Cursor: -1},
	}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("markers\n got  %+v\n want %+v", ms, want)
	}
}

func TestErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"unclosed", "@diag(a, b", "comment:1: bad marker @diag: unclosed ("},
		{"bad quote", "# x\n@hover(a, \"b)", "comment:2: bad marker @hover: bad quoted string"},
		{"not a marker", "diag a b", `comment:1: "diag a b" is neither a marker`},
		{"two on a line", "@a() @b()", "comment:1: one marker a line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Script(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, _, err := File("m.ts", "x\n// @def(a\n"); err == nil || !strings.Contains(err.Error(), "m.ts:2: bad marker @def") {
		t.Errorf("File error %v, want one at m.ts:2", err)
	}
}

func TestPattern(t *testing.T) {
	for _, c := range []struct {
		text, pattern      string
		start, end, cursor int
		ok                 bool
	}{
		{"tools:\n  web: x", "we⁁b", 9, 12, 11, true},
		{"tools:\n  web: x", "web", 9, 12, 9, true},
		{"tools:", "nope", 0, 0, 0, false},
	} {
		s, e, cur, ok := Pattern(c.text, c.pattern)
		if s != c.start || e != c.end || cur != c.cursor || ok != c.ok {
			t.Errorf("Pattern(%q, %q) = %d %d %d %v, want %d %d %d %v", c.text, c.pattern, s, e, cur, ok, c.start, c.end, c.cursor, c.ok)
		}
	}
}
