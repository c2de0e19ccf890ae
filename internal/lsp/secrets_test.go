package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// A4 reaches the editor once the module pass is in, on the agent's name,
// and follows both an edit of the agent's `secrets:` (a keystroke in the
// manifest, which reuses the module pass) and an edit of the module (a
// module pass); the tool's hover says the same. With the file watchers and
// without them (the server then reuses no disk answer).
func TestSecretsFollowTheAgentAndTheModule(t *testing.T) {
	const module = "/ws/tools/weather_now.ts"
	manifest := func(secrets string) string {
		return "tools:\n  web_search: beeuni:web_search\n  weather_now: tools/weather_now.ts\nagents:\n  support:\n    secrets: " + secrets + "\n"
	}
	reads := func(name string) string {
		return "export default {\n  description: 'Weather.',\n  parameters: { type: 'object', properties: {} },\n" +
			"  async execute(args, context) { return fetch(`https://w.example.com/?key=${context.env." + name + "}`, { signal: context.signal }) },\n}\n"
	}
	for _, watchers := range []bool{true, false} {
		t.Run(fmt.Sprintf("watchers=%v", watchers), func(t *testing.T) {
			fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest("[]")+"-- tools/weather_now.ts --\n"+reads("WEATHER_API_KEY")))
			s := startSession(t, fsys, idleHook())
			caps := clientCaps(UTF16)
			if !watchers {
				delete(caps["workspace"].(map[string]any), "didChangeWatchedFiles")
			}
			s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": "file:///ws", "name": "ws"}}}))
			s.open("/ws/beeuni.yaml", manifest("[]"))
			s.idle()
			a4 := func(step string) []protocol.Diagnostic {
				t.Helper()
				var out []protocol.Diagnostic
				for _, d := range s.lastDiagnostics()["/ws/beeuni.yaml"].Diagnostics {
					switch fmt.Sprint(d.Code) {
					case "A4":
						out = append(out, d)
					case "M16", "T8":
					default:
						t.Errorf("%s: unexpected %v %q", step, d.Code, d.Message)
					}
				}
				return out
			}
			ds := a4("opened")
			if len(ds) != 1 {
				t.Fatalf("opened: A4 %s, want one", describeDiags(ds))
			}
			d := ds[0]
			if d.Severity != protocol.DiagnosticSeverityInformation || d.Range.Start != (protocol.Position{Line: 4, Character: 2}) || d.Range.End != (protocol.Position{Line: 4, Character: 9}) ||
				!strings.Contains(d.Message, "`weather_now`") || !strings.Contains(d.Message, "`context.env.WEATHER_API_KEY`") || !strings.Contains(d.Message, "box's environment") {
				t.Errorf("opened: %s severity %v, want information on `support` naming the tool and the secret", describeDiags(ds), d.Severity)
			}
			if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != pathToURI(module) || d.RelatedInformation[0].Location.Range.Start.Line != 3 {
				t.Errorf("opened: related %+v, want the read in %s on line 4", d.RelatedInformation, module)
			}
			hover := func() string {
				var h protocol.Hover
				s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}, "position": protocol.Position{Line: 2, Character: 4}}, &h)
				return h.Contents.Value
			}
			if h := hover(); !strings.Contains(h, "agents that can call this tool and do not get `WEATHER_API_KEY`: `support`") {
				t.Errorf("opened: hover\n%s\nwant the agents without WEATHER_API_KEY", h)
			}

			// The agent's secrets, typed in the manifest.
			s.change("/ws/beeuni.yaml", 2, manifest("[WEATHER_API_KEY]"))
			s.idle()
			if ds := a4("granted"); len(ds) != 0 {
				t.Errorf("granted: A4 %s, want none", describeDiags(ds))
			}
			if h := hover(); strings.Contains(h, "do not get") {
				t.Errorf("granted: hover\n%s\nnames agents without a secret", h)
			}
			s.change("/ws/beeuni.yaml", 3, manifest("[OTHER]"))
			s.idle()
			if ds := a4("another list"); len(ds) != 1 || !strings.Contains(ds[0].Message, "WEATHER_API_KEY") {
				t.Errorf("another list: A4 %s, want one on WEATHER_API_KEY", describeDiags(ds))
			}

			// The module, edited in the editor.
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
				"uri": string(pathToURI(module)), "languageId": "typescript", "version": 1, "text": reads("WEATHER_API_KEY"),
			}})
			s.change(module, 2, reads("OTHER"))
			s.idle()
			if ds := a4("module reads a granted name"); len(ds) != 0 {
				t.Errorf("module reads OTHER: A4 %s, want none", describeDiags(ds))
			}
			s.change(module, 3, reads("CRM_TOKEN"))
			s.idle()
			if ds := a4("module reads another name"); len(ds) != 1 || !strings.Contains(ds[0].Message, "`context.env.CRM_TOKEN`") {
				t.Errorf("module reads CRM_TOKEN: A4 %s, want one on CRM_TOKEN", describeDiags(ds))
			}
			if h := hover(); !strings.Contains(h, "do not get `CRM_TOKEN`: `support`") {
				t.Errorf("module reads CRM_TOKEN: hover\n%s\nwant support without CRM_TOKEN", h)
			}
		})
	}
}
