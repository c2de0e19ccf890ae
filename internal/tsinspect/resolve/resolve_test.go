package resolve

import (
	"encoding/json"
	"testing"
)

func TestExportsTarget(t *testing.T) {
	tests := []struct {
		exports, key, target string
		decided              bool
	}{
		{`"./index.js"`, ".", "./index.js", true},
		{`"./index.js"`, "./sub", "", true},
		{`{"import": "./esm.js", "require": "./cjs.js"}`, ".", "./esm.js", true},
		{`{"bun": "./bun.ts", "import": "./esm.js"}`, ".", "./bun.ts", true},
		{`{"types": "./x.d.ts", "default": "./d.js"}`, ".", "./d.js", true},
		{`{".": {"node": {"import": "./n.mjs"}}, "./v4": "./v4/index.js"}`, ".", "./n.mjs", true},
		{`{".": "./i.js", "./v4": "./v4/index.js"}`, "./v4", "./v4/index.js", true},
		{`{".": "./i.js"}`, "./v5", "", true},
		{`{"./locales/*": "./dist/locales/*.js"}`, "./locales/fr", "./dist/locales/fr.js", true},
		{`{"./*": {"import": "./esm/*.mjs"}}`, "./a/b", "./esm/a/b.mjs", true},
		{`{".": ["./a.js", "./b.js"]}`, ".", "", false},
		{`{".": {"worker": "./w.js"}}`, ".", "", false},
		{`{"./internal/*": null, "./*": "./*.js"}`, "./x", "./x.js", true},
		{`{"./internal/*": null, "./*": "./*.js"}`, "./internal/a", "", true},
		{`{"./*": "./*.js", "./internal/*": "./private/*.js"}`, "./internal/a", "./private/a.js", true},
	}
	for _, tc := range tests {
		target, decided := exportsTarget(json.RawMessage(tc.exports), tc.key)
		if target != tc.target || decided != tc.decided {
			t.Errorf("exportsTarget(%s, %q) = %q, %v; want %q, %v", tc.exports, tc.key, target, decided, tc.target, tc.decided)
		}
	}
}

func TestPackageName(t *testing.T) {
	tests := []struct{ spec, name, sub string }{
		{"zod", "zod", ""},
		{"zod/v4", "zod", "v4"},
		{"zod/v4/core", "zod", "v4/core"},
		{"@scope/pkg", "@scope/pkg", ""},
		{"@scope/pkg/sub/path", "@scope/pkg", "sub/path"},
		{"@scope", "@scope", ""},
	}
	for _, tc := range tests {
		if name, sub := PackageName(tc.spec); name != tc.name || sub != tc.sub {
			t.Errorf("packageName(%q) = %q, %q; want %q, %q", tc.spec, name, sub, tc.name, tc.sub)
		}
	}
}
