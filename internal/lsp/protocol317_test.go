package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

// clientMessageTypes gives, for "<kind> <method>" of a client message, the
// type the server decodes its params (a request, a notification) or its
// result (a response to the server's request) into; nil when the server
// reads nothing of it.
var clientMessageTypes = map[string]func() any{
	"request initialize":                               func() any { return new(initializeParams) },
	"notification initialized":                         nil,
	"notification textDocument/didOpen":                func() any { return new(protocol.DidOpenTextDocumentParams) },
	"notification textDocument/didChange":              func() any { return new(didChangeTextDocumentParams) },
	"notification textDocument/didSave":                nil,
	"notification textDocument/didClose":               func() any { return new(protocol.DidCloseTextDocumentParams) },
	"notification workspace/didChangeConfiguration":    func() any { return new(didChangeConfigurationParams) },
	"notification workspace/didChangeWatchedFiles":     func() any { return new(protocol.DidChangeWatchedFilesParams) },
	"notification workspace/didChangeWorkspaceFolders": func() any { return new(protocol.DidChangeWorkspaceFoldersParams) },
	"notification $/cancelRequest":                     func() any { return new(cancelParams) },
	"notification exit":                                nil,
	"request shutdown":                                 nil,
	"request textDocument/codeAction":                  func() any { return new(protocol.CodeActionParams) },
	"request codeAction/resolve":                       func() any { return new(codeActionJSON) },
	"request workspace/executeCommand":                 func() any { return new(executeCommandParams) },
	"request textDocument/inlayHint":                   func() any { return new(inlayHintParams) },
	"request textDocument/completion":                  func() any { return new(protocol.CompletionParams) },
	"request textDocument/prepareRename":               func() any { return new(protocol.PrepareRenameParams) },
	"request textDocument/rename":                      func() any { return new(protocol.RenameParams) },
	"response client/registerCapability":               nil,
	"response window/workDoneProgress/create":          nil,
	"response workspace/configuration":                 func() any { return new([]json.RawMessage) },
	"response workspace/applyEdit":                     func() any { return new(protocol.ApplyWorkspaceEditResponse) },
	"response window/showDocument":                     func() any { return new(protocol.ShowDocumentResult) },
}

// neverFromClients are the fields of this package's types that no client
// sends: a client resolves a code action the server sent without an edit,
// a command or a reason to be disabled.
var neverFromClients = map[string]bool{
	"codeActionJSON.edit":     true,
	"codeActionJSON.command":  true,
	"codeActionJSON.disabled": true,
}

// TestClientMessagesDecode decodes every message of
// testdata/clientmessages (captured from Neovim, built from VS Code's
// client) into the type the server reads it with, and checks the types
// against them: the decoding succeeds; encoding the value again gives
// only what the message holds (a field whose JSON name is wrong decodes
// nothing, a wrong shape fails, and an optional object that is not a
// pointer, such as a content change's range, encodes one the message
// lacks); every field of this package's types (protocol317.go) is present in
// some message, so no name is one no client spells; and parseClientInfo
// reads each client's capabilities as its `-- want clientInfo --` says.
func TestClientMessagesDecode(t *testing.T) {
	files, err := filepath.Glob("testdata/clientmessages/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no client messages: %v", err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		var want string
		var init *initializeParams
		for _, f := range ar.Files {
			if f.Name == "want clientInfo" {
				want = string(f.Data)
				continue
			}
			kind, method, ok := sectionKey(f.Name)
			if !ok {
				t.Fatalf("%s: section %q is not \"NN kind method\"", name, f.Name)
			}
			v := decodeClientMessage(t, name+": "+f.Name, kind+" "+method, f.Data, seen)
			if p, ok := v.(*initializeParams); ok {
				init = p
			}
		}
		if init == nil {
			t.Fatalf("%s: no initialize request", name)
		}
		if got := describeClientInfo(parseClientInfo(init)); got != want {
			t.Errorf("%s: parseClientInfo:\n%s\nwant (-- want clientInfo --):\n%s", name, got, want)
		}
	}
	var missing []string
	for _, typ := range clientMessageTypes {
		if typ == nil {
			continue
		}
		for _, field := range packageFields(reflect.TypeOf(typ()), map[reflect.Type]bool{}) {
			if !seen[field] && !neverFromClients[field] {
				missing = append(missing, field)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("fields no client message holds (a misspelt JSON name?): %s", strings.Join(missing, ", "))
	}
}

// sectionKey splits "07 notification textDocument/didChange".
func sectionKey(name string) (kind, method string, ok bool) {
	parts := strings.Fields(name)
	if len(parts) != 3 {
		return "", "", false
	}
	return parts[1], parts[2], true
}

// decodeClientMessage decodes one message's params or result as the server
// does and runs the checks on it; it returns the decoded value.
func decodeClientMessage(t *testing.T, where, key string, data []byte, seen map[string]bool) any {
	t.Helper()
	var msg struct {
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	raw := msg.Params
	if strings.HasPrefix(key, "response ") {
		raw = msg.Result
	}
	newValue, known := clientMessageTypes[key]
	if !known {
		t.Fatalf("%s: no type for %q in clientMessageTypes", where, key)
	}
	if newValue == nil {
		return nil
	}
	v := newValue()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Errorf("%s: decoding into %T: %v", where, v, err)
		return v
	}
	var orig, again any
	_ = json.Unmarshal(raw, &orig)
	enc, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: encoding %T: %v", where, v, err)
	}
	_ = json.Unmarshal(enc, &again)
	if path := notWithin(again, orig, "$"); path != "" {
		t.Errorf("%s: %T encodes %s, which the message does not hold", where, v, path)
	}
	checkFields(t, where, reflect.ValueOf(v), orig, seen)
	return v
}

// notWithin returns the path of a value of enc that orig does not hold,
// or "": a field orig lacks (or has null) may be encoded as a zero scalar,
// an empty array or an empty object, but not as an object with fields (an
// optional object must decode to a nil pointer, as a content change's
// missing range must).
func notWithin(enc, orig any, path string) string {
	if orig == nil && isZeroJSON(enc) {
		return ""
	}
	switch e := enc.(type) {
	case map[string]any:
		o, ok := orig.(map[string]any)
		if !ok {
			return path
		}
		for k, ev := range e {
			if p := notWithin(ev, o[k], path+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		o, ok := orig.([]any)
		if !ok || len(o) != len(e) {
			return path
		}
		for i := range e {
			if p := notWithin(e[i], o[i], fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
		return ""
	}
	if !reflect.DeepEqual(enc, orig) {
		return path
	}
	return ""
}

func isZeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

var lspPackage = reflect.TypeOf(initializeParams{}).PkgPath()

// checkFields walks v beside orig, its JSON, and marks seen each field of
// this package's structs that orig holds.
func checkFields(t *testing.T, where string, v reflect.Value, orig any, seen map[string]bool) {
	t.Helper()
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice:
		o, _ := orig.([]any)
		for i := 0; i < v.Len() && i < len(o); i++ {
			checkFields(t, where, v.Index(i), o[i], seen)
		}
	case reflect.Struct:
		o, _ := orig.(map[string]any)
		typ := v.Type()
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous {
				checkFields(t, where, v.Field(i), orig, seen)
				continue
			}
			name := jsonName(f)
			if name == "" {
				continue
			}
			ov, present := o[name]
			present = present && ov != nil
			if typ.PkgPath() == lspPackage && present {
				seen[typ.Name()+"."+name] = true
			}
			checkFields(t, where, v.Field(i), ov, seen)
		}
	}
}

// packageFields lists "Type.jsonName" for every field of this package's
// structs reachable from t (not through a field in neverFromClients).
func packageFields(t reflect.Type, visited map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || visited[t] {
		return nil
	}
	visited[t] = true
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, packageFields(f.Type, visited)...)
			continue
		}
		name := jsonName(f)
		if name == "" {
			continue
		}
		key := t.Name() + "." + name
		if t.PkgPath() == lspPackage {
			out = append(out, key)
		}
		if !neverFromClients[key] {
			out = append(out, packageFields(f.Type, visited)...)
		}
	}
	return out
}

func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return f.Name
	}
	return name
}

// describeClientInfo renders what the server read of a client, one field
// a line, as a `-- want clientInfo --` section holds it.
func describeClientInfo(ci clientInfo) string {
	var b strings.Builder
	line := func(name string, v any) { fmt.Fprintf(&b, "%s: %v\n", name, v) }
	line("encoding", ci.encoding)
	line("configuration", ci.configuration)
	line("watchDynamic", ci.watchDynamic)
	line("applyEdit", ci.applyEdit)
	line("documentChanges", ci.documentChanges)
	line("resourceOps", ci.resourceOps)
	line("workDoneProgress", ci.workDoneProgress)
	line("showDocument", ci.showDocument)
	line("inlayHints", ci.inlayHints)
	line("codeLens", ci.codeLens)
	line("diagnosticVersions", ci.diagnosticVersions)
	line("relatedInformation", ci.relatedInformation)
	line("markdownHover", ci.markdownHover)
	line("definitionLinks", ci.definitionLinks)
	line("hierarchicalSymbols", ci.hierarchicalSymbols)
	line("codeActionLiterals", ci.codeActionLiterals)
	line("codeActionResolveEdit", ci.codeActionResolveEdit)
	line("snippets", ci.snippets)
	line("folders", ci.folders)
	return b.String()
}
