package lsp

import (
	"slices"
	"testing"

	"go.lsp.dev/protocol"
)

// Every request method the server registers, with the class it must
// declare: a method added without a row here fails, so that whoever adds
// one decides whether a user waits for it (server.go, workClass).
func TestEveryRequestDeclaresItsWorkClass(t *testing.T) {
	want := map[string]workClass{
		protocol.MethodTextDocumentCompletion:           interactiveWork,
		protocol.MethodCompletionItemResolve:            interactiveWork,
		protocol.MethodTextDocumentHover:                interactiveWork,
		protocol.MethodTextDocumentDefinition:           interactiveWork,
		protocol.MethodTextDocumentReferences:           interactiveWork,
		protocol.MethodTextDocumentDocumentHighlight:    interactiveWork,
		protocol.MethodTextDocumentDocumentSymbol:       interactiveWork,
		protocol.MethodWorkspaceSymbol:                  interactiveWork,
		protocol.MethodTextDocumentFoldingRange:         interactiveWork,
		protocol.MethodTextDocumentDocumentLink:         interactiveWork,
		protocol.MethodTextDocumentPrepareRename:        interactiveWork,
		protocol.MethodTextDocumentRename:               interactiveWork,
		protocol.MethodTextDocumentPrepareCallHierarchy: interactiveWork,
		protocol.MethodCallHierarchyIncomingCalls:       interactiveWork,
		protocol.MethodCallHierarchyOutgoingCalls:       interactiveWork,
		protocol.MethodWillRenameFiles:                  interactiveWork, // the editor renames once the edits are in
		methodInlayHint:                                 interactiveWork,
		protocol.MethodTextDocumentCodeLens:             interactiveWork,
		protocol.MethodTextDocumentCodeAction:           interactiveWork,
		methodCodeActionResolve:                         interactiveWork,
		// Waits for the client's workspace/applyEdit and
		// window/showDocument answers.
		protocol.MethodWorkspaceExecuteCommand: backgroundWork,
		// The benchmark's heap probe: no user waits for it.
		methodDebugMemory: backgroundWork,
	}
	s := New(Options{})
	var registered []string
	for method, route := range s.requests {
		registered = append(registered, method)
		class, ok := want[method]
		if !ok {
			t.Errorf("%s is registered but has no row in this table: say whether a user waits for it", method)
			continue
		}
		if route.class != class {
			t.Errorf("%s declares class %d, want %d", method, route.class, class)
		}
		if route.handler == nil {
			t.Errorf("%s has no handler", method)
		}
	}
	for method := range want {
		if !slices.Contains(registered, method) {
			t.Errorf("%s is in the table but not registered", method)
		}
	}
}

func TestRegisterRefusesAnUnclassifiedRequest(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a request registered without a class was accepted")
		}
	}()
	New(Options{extraRequests: map[string]requestRoute{"beeuni/test.unclassified": {handler: debugMemory}}})
}
