package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// requests measures completion, hover, definition, code action and rename
// at representative places, checking each answer is a real one.
func (r *runner) requests(ctx context.Context) error {
	m := r.ws.Marks
	doc := map[string]any{"uri": r.manifestURI}
	at := func(off int) map[string]any {
		return map[string]any{"textDocument": doc, "position": PositionAt(r.text, off)}
	}
	type probe struct {
		name   string
		method string
		params func(i int) any
		check  func(raw json.RawMessage) error
		into   *Stats
	}
	// The eject action as the code action list offers it, to resolve.
	var ejectAction json.RawMessage
	{
		p := PositionAt(r.text, m.BeeuniValue)
		wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
		var raw json.RawMessage
		_, err := r.c.Call(wctx, "textDocument/codeAction", map[string]any{"textDocument": doc, "range": Range{p, p}, "context": map[string]any{"diagnostics": []any{}}}, &raw)
		cancel()
		if err != nil {
			return fmt.Errorf("code action: %w", err)
		}
		if ejectAction, err = actionTitled(raw, "Eject web_search"); err != nil {
			return err
		}
	}
	probes := []probe{
		{"completion", "textDocument/completion", func(int) any {
			return at(m.AgentItem)
		}, checkCompletion(ToolName(0)), &r.res.Completion},
		{"hover", "textDocument/hover", func(i int) any {
			return at([]int{m.ToolKey, m.AgentItem}[i%2])
		}, checkHover, &r.res.Hover},
		{"definition", "textDocument/definition", func(i int) any {
			return at([]int{m.ModulePath, m.AgentItem}[i%2])
		}, checkNonEmpty("definition"), &r.res.Definition},
		{"code action", "textDocument/codeAction", func(int) any {
			p := PositionAt(r.text, m.BeeuniValue)
			return map[string]any{"textDocument": doc, "range": Range{p, p}, "context": map[string]any{"diagnostics": []any{}}}
		}, checkTitle("Eject web_search"), &r.res.CodeAction},
		{"code action resolve", "codeAction/resolve", func(int) any {
			return ejectAction
		}, checkResolvedEdit, &r.res.CodeActionResolve},
		{"rename", "textDocument/rename", func(int) any {
			p := at(m.ToolKey)
			p["newName"] = "renamed_order_tool"
			return p
		}, checkNonEmpty("rename"), &r.res.Rename},
	}
	for _, p := range probes {
		var samples []time.Duration
		for i := 0; i < r.opts.Requests; i++ {
			wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
			var raw json.RawMessage
			d, err := r.c.Call(wctx, p.method, p.params(i), &raw)
			cancel()
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			if err := p.check(raw); err != nil {
				return fmt.Errorf("%s (sample %d): %w", p.name, i, err)
			}
			samples = append(samples, d)
		}
		*p.into = Summarize(samples)
	}
	return nil
}

func checkCompletion(want string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var list struct {
			Items []struct {
				Label string `json:"label"`
			} `json:"items"`
		}
		var items []struct {
			Label string `json:"label"`
		}
		if json.Unmarshal(raw, &items) != nil || items == nil {
			if err := json.Unmarshal(raw, &list); err != nil {
				return fmt.Errorf("decode completion %.200s: %w", raw, err)
			}
			items = list.Items
		}
		for _, it := range items {
			if it.Label == want {
				return nil
			}
		}
		return fmt.Errorf("completion of %d items lacks %q", len(items), want)
	}
}

func checkHover(raw json.RawMessage) error {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &h); err != nil || len(h.Contents) < 3 {
		return fmt.Errorf("empty hover: %.200s", raw)
	}
	return nil
}

func checkNonEmpty(what string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		s := strings.TrimSpace(string(raw))
		if s == "" || s == "null" || s == "[]" || s == "{}" {
			return fmt.Errorf("empty %s answer: %s", what, s)
		}
		return nil
	}
}

func checkTitle(title string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var actions []struct {
			Title string `json:"title"`
		}
		if err := json.Unmarshal(raw, &actions); err != nil {
			return fmt.Errorf("decode code actions %.200s: %w", raw, err)
		}
		for _, a := range actions {
			if a.Title == title {
				return nil
			}
		}
		return fmt.Errorf("no code action titled %q among %d", title, len(actions))
	}
}

// actionTitled returns the code action titled title, as the server sent it.
func actionTitled(raw json.RawMessage, title string) (json.RawMessage, error) {
	var actions []json.RawMessage
	if err := json.Unmarshal(raw, &actions); err != nil {
		return nil, fmt.Errorf("decode code actions %.200s: %w", raw, err)
	}
	for _, a := range actions {
		var t struct {
			Title string `json:"title"`
		}
		if json.Unmarshal(a, &t) == nil && t.Title == title {
			return a, nil
		}
	}
	return nil, fmt.Errorf("no code action titled %q among %d", title, len(actions))
}

// checkResolvedEdit checks a resolved eject action creates the module.
func checkResolvedEdit(raw json.RawMessage) error {
	var a struct {
		Edit *struct {
			DocumentChanges []json.RawMessage `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.Edit == nil || len(a.Edit.DocumentChanges) == 0 {
		return fmt.Errorf("resolved eject action without an edit: %.300s", raw)
	}
	return nil
}
