package analysis

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestForYAMLv3(t *testing.T) {
	cases := []struct{ in, want string }{
		{"%YAML 1.2\n---\ntools: {}\n", "%YAML 1.1\n---\ntools: {}\n"},
		{"# c\n%YAML   1.2 # the version\r\n---\na: 1\n", "# c\n%YAML   1.1 # the version\r\n---\na: 1\n"},
		{"%TAG ! tag:x,2024:\n%YAML 1.2\n--- \na: 1\n", "%TAG ! tag:x,2024:\n%YAML 1.1\n--- \na: 1\n"},
		{"%YAML 1.1\n---\na: 1\n", "%YAML 1.1\n---\na: 1\n"},
		{"%YAML 1.20\n---\na: 1\n", "%YAML 1.20\n---\na: 1\n"}, // not 1.2: yaml.v3's verdict stands
		{"%YAML 2.0\n---\na: 1\n", "%YAML 2.0\n---\na: 1\n"},
		{"a: 1\n%YAML 1.2\n", "a: 1\n%YAML 1.2\n"}, // after the document started: not a directive of it
		{"", ""},
		{"%YAML 1.2", "%YAML 1.1"},
	}
	for _, c := range cases {
		in := []byte(c.in)
		got := ForYAMLv3(in)
		if string(got) != c.want {
			t.Errorf("ForYAMLv3(%q) = %q, want %q", c.in, got, c.want)
		}
		if string(in) != c.in {
			t.Errorf("ForYAMLv3(%q) modified its input", c.in)
		}
	}
	var n yaml.Node
	if err := yaml.Unmarshal(ForYAMLv3([]byte("%YAML 1.2\n---\ntools:\n  a: b\n")), &n); err != nil {
		t.Fatalf("yaml.v3 still refuses the rewritten directive: %v", err)
	}
}
