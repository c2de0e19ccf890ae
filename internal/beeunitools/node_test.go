package beeunitools

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// The tests below prove that each embedded source runs as is: transpiled by
// esbuild (as the sandbox's TypeScript loader strips types) and executed by
// Node against a fake Beeuni API on loopback.

// nodeOrSkip returns the node binary. Without it these tests cannot say
// anything: they skip with the reason on a developer's machine, and fail in
// CI (CI=true), which must never skip them.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not on PATH: CI must install Node 20+ to run the Beeuni tool sources")
		}
		t.Skip("node is not on PATH: install Node 20+ to run the Beeuni tool sources")
	}
	return node
}

// transpile turns a tool's TypeScript into an ES module file in dir.
func transpile(t *testing.T, dir, name string) string {
	t.Helper()
	src, ok := Source(name)
	if !ok {
		t.Fatalf("no source for %s", name)
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader:     api.LoaderTS,
		Format:     api.FormatESModule,
		Target:     api.ES2022,
		Sourcefile: name + ".ts",
	})
	if len(res.Errors) > 0 {
		t.Fatalf("esbuild cannot transpile %s.ts: %s at line %d", name, res.Errors[0].Text, res.Errors[0].Location.Line)
	}
	out := filepath.Join(dir, name+".mjs")
	if err := os.WriteFile(out, res.Code, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

type callResult struct {
	OK      bool            `json:"ok"`
	Value   json.RawMessage `json:"value"`
	Name    string          `json:"name"`
	Message string          `json:"message"`
}

type callSpec struct {
	Mode       string            `json:"mode"`
	Args       map[string]any    `json:"args,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	Directory  string            `json:"directory,omitempty"`
	Abort      string            `json:"abort,omitempty"`
	ArrivedURL string            `json:"arrivedURL,omitempty"`
}

// runNode runs one call of a transpiled module through testdata/runner.mjs.
func runNode(t *testing.T, node, module string, spec callSpec) callResult {
	t.Helper()
	runner, err := filepath.Abs("testdata/runner.mjs")
	if err != nil {
		t.Fatal(err)
	}
	specData, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(t.TempDir(), "case.json")
	if err := os.WriteFile(specPath, specData, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, runner, module, specPath)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstderr: %s", filepath.Base(module), err, stderr.String())
	}
	var res callResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &res); err != nil {
		t.Fatalf("runner printed %q: %v (stderr %s)", stdout.String(), err, stderr.String())
	}
	return res
}

// fakeAPI is a Beeuni API on loopback. In blocking mode it holds every tool
// request until the client goes away, and records that it did.
type fakeAPI struct {
	*httptest.Server
	block     bool
	status    int // non-zero: answer tool requests with this status
	arrived   chan struct{}
	cancelled chan struct{}

	mu       sync.Mutex
	requests []apiRequest
}

type apiRequest struct {
	Path        string
	Auth        string
	ProviderKey string
	Body        map[string]any
}

func newFakeAPI(t *testing.T, block bool, status int) *fakeAPI {
	t.Helper()
	f := &fakeAPI{block: block, status: status, arrived: make(chan struct{}, 1), cancelled: make(chan struct{}, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /test/arrived", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-f.arrived:
			w.WriteHeader(http.StatusOK)
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("POST /v1/", f.serveTool)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAPI) serveTool(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(data, &body)
	f.mu.Lock()
	f.requests = append(f.requests, apiRequest{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), ProviderKey: r.Header.Get("X-Provider-Key"), Body: body})
	f.mu.Unlock()
	if f.block {
		f.arrived <- struct{}{}
		<-r.Context().Done()
		f.cancelled <- struct{}{}
		return
	}
	if f.status != 0 {
		http.Error(w, "provider quota exceeded", f.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/search/web":
		q, _ := body["query"].(string)
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{
			{"title": "About " + q, "url": "https://example.com/" + q, "snippet": "All about " + q, "published": "2026-01-02"},
			{"title": "More " + q, "url": "https://example.org/" + q, "description": "desc"},
		}})
	case "/v1/search/images":
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{
			{"title": "Panda", "url": "https://img.example.com/p.jpg", "thumbnail_url": "https://img.example.com/p_t.jpg", "source_url": "https://example.com/pandas", "width": 640, "height": "480"},
			{"title": "No size", "url": "https://img.example.com/q.jpg"},
		}})
	case "/v1/scrape":
		u, _ := body["url"].(string)
		json.NewEncoder(w).Encode(map[string]any{"url": u, "title": "Pricing", "markdown": strings.Repeat("x", 1500)})
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeAPI) seen() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.requests...)
}

func apiEnv(url string) map[string]string {
	return map[string]string{"BEEUNI_API_URL": url + "/", "BEEUNI_TOKEN": "tok_test"}
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("output %s does not have the documented shape: %v", raw, err)
	}
	return v
}

func wantError(t *testing.T, res callResult, fragment string) {
	t.Helper()
	if res.OK {
		t.Fatalf("call succeeded with %s, want an error containing %q", res.Value, fragment)
	}
	if !strings.Contains(res.Message, fragment) {
		t.Fatalf("error %q (%s) does not contain %q", res.Message, res.Name, fragment)
	}
}

func wantOK(t *testing.T, res callResult) {
	t.Helper()
	if !res.OK {
		t.Fatalf("call failed: %s: %s", res.Name, res.Message)
	}
}

func TestEachSourceExportsTheModuleContract(t *testing.T) {
	node := nodeOrSkip(t)
	dir := t.TempDir()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			res := runNode(t, node, transpile(t, dir, name), callSpec{Mode: "describe"})
			wantOK(t, res)
			got := decode[struct {
				Description string `json:"description"`
				ExecuteType string `json:"executeType"`
				Parameters  struct {
					Type       string                    `json:"type"`
					Properties map[string]map[string]any `json:"properties"`
					Required   []string                  `json:"required"`
				} `json:"parameters"`
			}](t, res.Value)
			if strings.TrimSpace(got.Description) == "" {
				t.Error("description is empty")
			}
			if got.ExecuteType != "function" {
				t.Errorf("execute is %s, want function", got.ExecuteType)
			}
			if got.Parameters.Type != "object" {
				t.Errorf("parameters.type = %q, want object", got.Parameters.Type)
			}
			if len(got.Parameters.Required) == 0 {
				t.Error("parameters.required is empty")
			}
			for _, r := range got.Parameters.Required {
				if _, ok := got.Parameters.Properties[r]; !ok {
					t.Errorf("required names %q, which properties lacks", r)
				}
			}
			for prop, schema := range got.Parameters.Properties {
				if d, _ := schema["description"].(string); d == "" {
					t.Errorf("property %q has no description", prop)
				}
			}
		})
	}
}

// TestArgumentNamesTheWebUIReads pins the argument names SPEC section 10
// says the views read.
func TestArgumentNamesTheWebUIReads(t *testing.T) {
	node := nodeOrSkip(t)
	dir := t.TempDir()
	want := map[string][]string{
		"web_search":     {"query"},
		"image_search":   {"query"},
		"scrape_webpage": {"url"},
		"memory":         {"command", "path"},
		"show":           {"type", "path", "url", "content", "items"},
	}
	for name, props := range want {
		res := runNode(t, node, transpile(t, dir, name), callSpec{Mode: "describe"})
		wantOK(t, res)
		got := decode[struct {
			Parameters struct {
				Properties map[string]any `json:"properties"`
			} `json:"parameters"`
		}](t, res.Value)
		for _, p := range props {
			if _, ok := got.Parameters.Properties[p]; !ok {
				t.Errorf("%s: parameters lack %q", name, p)
			}
		}
	}
}

func TestWebSearch(t *testing.T) {
	node := nodeOrSkip(t)
	module := transpile(t, t.TempDir(), "web_search")

	t.Run("queries joined with |||", func(t *testing.T) {
		f := newFakeAPI(t, false, 0)
		env := apiEnv(f.URL)
		env["BRAVE_SEARCH_API_KEY"] = "brave_key"
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: env, Args: map[string]any{"query": " bun ||| deno|||", "count": 1}})
		wantOK(t, res)
		out := decode[struct {
			Results []struct {
				Query string `json:"query"`
				Items []struct {
					Title, URL, Snippet string
					Published           *string
				} `json:"items"`
			} `json:"results"`
		}](t, res.Value)
		if len(out.Results) != 2 || out.Results[0].Query != "bun" || out.Results[1].Query != "deno" {
			t.Fatalf("results = %+v, want one entry per query in order", out.Results)
		}
		if len(out.Results[0].Items) != 1 || out.Results[0].Items[0].URL != "https://example.com/bun" || out.Results[0].Items[0].Published == nil {
			t.Fatalf("items = %+v, want the first result only (count 1)", out.Results[0].Items)
		}
		reqs := f.seen()
		if len(reqs) != 2 {
			t.Fatalf("API got %d requests, want 2", len(reqs))
		}
		for _, r := range reqs {
			if r.Path != "/v1/search/web" || r.Auth != "Bearer tok_test" || r.ProviderKey != "brave_key" {
				t.Errorf("request %+v: want POST /v1/search/web with the token and the provider key", r)
			}
		}
	})
	t.Run("API error names the status", func(t *testing.T) {
		f := newFakeAPI(t, false, http.StatusTooManyRequests)
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"query": "x"}})
		wantError(t, res, "answered 429")
	})
	t.Run("missing token says what to set", func(t *testing.T) {
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: map[string]string{"BEEUNI_API_URL": "http://127.0.0.1:1"}, Args: map[string]any{"query": "x"}})
		wantError(t, res, "BEEUNI_TOKEN is not set")
	})
	t.Run("empty query", func(t *testing.T) {
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv("http://127.0.0.1:1"), Args: map[string]any{"query": " ||| "}})
		wantError(t, res, "query is empty")
	})
	testSignal(t, node, module, map[string]any{"query": "x"})
}

func TestImageSearch(t *testing.T) {
	node := nodeOrSkip(t)
	module := transpile(t, t.TempDir(), "image_search")
	f := newFakeAPI(t, false, 0)
	res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"query": "red panda"}})
	wantOK(t, res)
	out := decode[struct {
		Query  string `json:"query"`
		Images []struct {
			Title        string `json:"title"`
			URL          string `json:"url"`
			ThumbnailURL string `json:"thumbnail_url"`
			SourceURL    string `json:"source_url"`
			Width        *int   `json:"width"`
			Height       *int   `json:"height"`
		} `json:"images"`
	}](t, res.Value)
	if out.Query != "red panda" || len(out.Images) != 2 {
		t.Fatalf("output = %+v", out)
	}
	first, second := out.Images[0], out.Images[1]
	if first.Width == nil || *first.Width != 640 || first.Height == nil || *first.Height != 480 || first.ThumbnailURL != "https://img.example.com/p_t.jpg" {
		t.Errorf("first image = %+v", first)
	}
	if second.Width != nil || second.ThumbnailURL != second.URL {
		t.Errorf("an image without size or thumbnail = %+v, want null size and the image as thumbnail", second)
	}
	wantError(t, runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"query": "x", "count": 99}}), "count must be an integer from 1 to 30")
	testSignal(t, node, module, map[string]any{"query": "x"})
}

func TestScrapeWebpage(t *testing.T) {
	node := nodeOrSkip(t)
	module := transpile(t, t.TempDir(), "scrape_webpage")
	f := newFakeAPI(t, false, 0)
	res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"url": "https://example.com/pricing", "max_chars": 1000}})
	wantOK(t, res)
	out := decode[struct {
		URL       string `json:"url"`
		Title     string `json:"title"`
		Content   string `json:"content"`
		Truncated bool   `json:"truncated"`
		Length    int    `json:"length"`
	}](t, res.Value)
	if out.URL != "https://example.com/pricing" || out.Title != "Pricing" || len(out.Content) != 1000 || !out.Truncated || out.Length != 1500 {
		t.Fatalf("output = %+v", out)
	}
	wantError(t, runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"url": "file:///etc/passwd"}}), "url must use http or https")
	wantError(t, runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: map[string]any{"url": "pricing"}}), "absolute http or https URL")
	testSignal(t, node, module, map[string]any{"url": "https://example.com/"})
}

// testSignal proves a tool passes context.signal to fetch: stopping the turn
// while the API holds the request aborts the call and the connection.
func testSignal(t *testing.T, node, module string, args map[string]any) {
	t.Run("abort while the request is in flight", func(t *testing.T) {
		f := newFakeAPI(t, true, 0)
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: args, Abort: "after-arrival", ArrivedURL: f.URL + "/test/arrived"})
		if res.OK || res.Name != "AbortError" {
			t.Fatalf("got %+v, want an AbortError", res)
		}
		<-f.cancelled // the API saw the client go away
	})
	t.Run("signal already aborted", func(t *testing.T) {
		f := newFakeAPI(t, false, 0)
		res := runNode(t, node, module, callSpec{Mode: "execute", Env: apiEnv(f.URL), Args: args, Abort: "before"})
		if res.OK || res.Name != "AbortError" {
			t.Fatalf("got %+v, want an AbortError", res)
		}
		if n := len(f.seen()); n != 0 {
			t.Fatalf("API got %d requests after the turn was stopped", n)
		}
	})
}

func TestMemory(t *testing.T) {
	node := nodeOrSkip(t)
	module := transpile(t, t.TempDir(), "memory")
	project := t.TempDir()
	outside := t.TempDir()
	call := func(args map[string]any) callResult {
		return runNode(t, node, module, callSpec{Mode: "execute", Directory: project, Args: args})
	}
	text := func(res callResult) string {
		wantOK(t, res)
		return decode[string](t, res.Value)
	}

	if got := text(call(map[string]any{"command": "view", "path": "memory"})); got != "memory/ is empty." {
		t.Errorf("view of a missing memory/ = %q", got)
	}
	text(call(map[string]any{"command": "create", "path": "memory/notes/todo.md", "file_text": "one\ntwo\n"}))
	if data, err := os.ReadFile(filepath.Join(project, "memory", "notes", "todo.md")); err != nil || string(data) != "one\ntwo\n" {
		t.Fatalf("create wrote %q, %v", data, err)
	}
	text(call(map[string]any{"command": "str_replace", "path": "memory/notes/todo.md", "old_str": "two", "new_str": "2"}))
	text(call(map[string]any{"command": "insert", "path": "memory/notes/todo.md", "insert_line": 0, "insert_text": "zero"}))
	if got := text(call(map[string]any{"command": "view", "path": "memory/notes/todo.md"})); got != "     1\tzero\n     2\tone\n     3\t2\n     4\t" {
		t.Errorf("view of a file = %q", got)
	}
	if got := text(call(map[string]any{"command": "view", "path": "memory"})); got != "memory/notes/\nmemory/notes/todo.md" {
		t.Errorf("view of the folder = %q", got)
	}
	text(call(map[string]any{"command": "rename", "path": "memory/notes/todo.md", "new_path": "memory/done.md"}))
	text(call(map[string]any{"command": "delete", "path": "memory/done.md"}))
	if _, err := os.Stat(filepath.Join(project, "memory", "done.md")); !os.IsNotExist(err) {
		t.Errorf("delete left the file: %v", err)
	}

	if err := os.Symlink(outside, filepath.Join(project, "memory", "out")); err != nil {
		t.Fatal(err)
	}
	refusals := []struct {
		args     map[string]any
		fragment string
	}{
		{map[string]any{"command": "create", "path": "memory/../beeuni.yaml", "file_text": "x"}, "outside memory/"},
		{map[string]any{"command": "view", "path": "/etc/passwd"}, "is absolute"},
		{map[string]any{"command": "create", "path": "memory/out/stolen.md", "file_text": "x"}, "through a symbolic link"},
		{map[string]any{"command": "rename", "path": "memory/notes", "new_path": "notes"}, "outside memory/"},
		{map[string]any{"command": "delete", "path": "memory"}, "refuses to remove memory/ itself"},
		{map[string]any{"command": "str_replace", "path": "memory/missing.md", "old_str": "a", "new_str": "b"}, "memory/missing.md does not exist: create it first"},
		{map[string]any{"command": "format", "path": "memory"}, "command must be one of"},
	}
	for _, r := range refusals {
		wantError(t, call(r.args), r.fragment)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("memory wrote outside memory/: %v", entries)
	}

	res := runNode(t, node, module, callSpec{Mode: "execute", Directory: project, Abort: "before", Args: map[string]any{"command": "create", "path": "memory/late.md", "file_text": "x"}})
	if res.OK || res.Name != "AbortError" {
		t.Fatalf("aborted call = %+v, want an AbortError", res)
	}
	if _, err := os.Stat(filepath.Join(project, "memory", "late.md")); !os.IsNotExist(err) {
		t.Errorf("an aborted create wrote the file: %v", err)
	}
}

func TestShow(t *testing.T) {
	node := nodeOrSkip(t)
	module := transpile(t, t.TempDir(), "show")
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "report.md"), []byte("# hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(args map[string]any) callResult {
		return runNode(t, node, module, callSpec{Mode: "execute", Directory: project, Args: args})
	}
	oks := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"type": "file", "path": "report.md"}, "Showing report.md to the user."},
		{map[string]any{"type": "image", "url": "https://example.com/a.png"}, "Showing the image https://example.com/a.png to the user."},
		{map[string]any{"type": "url", "url": "https://example.com"}, "Showing https://example.com/ to the user."},
		{map[string]any{"type": "markdown", "content": "**done**"}, "Showing 8 characters of Markdown to the user."},
		{map[string]any{"type": "list", "items": []any{map[string]any{"title": "Report", "path": "report.md"}, map[string]any{"title": "Site", "url": "https://example.com"}}}, "Showing a list of 2 item(s) to the user."},
	}
	for _, c := range oks {
		res := call(c.args)
		wantOK(t, res)
		if got := decode[string](t, res.Value); got != c.want {
			t.Errorf("show %v = %q, want %q", c.args, got, c.want)
		}
	}
	refusals := []struct {
		args     map[string]any
		fragment string
	}{
		{map[string]any{"type": "file", "path": "missing.md"}, "does not exist"},
		{map[string]any{"type": "file", "path": "../etc/passwd"}, "outside the project"},
		{map[string]any{"type": "url", "url": "javascript:alert(1)"}, "must use http or https"},
		{map[string]any{"type": "list", "items": []any{map[string]any{"title": "x"}}}, "needs a path or a url"},
		{map[string]any{"type": "video"}, "type must be one of"},
	}
	for _, r := range refusals {
		wantError(t, call(r.args), r.fragment)
	}
	res := runNode(t, node, module, callSpec{Mode: "execute", Directory: project, Abort: "before", Args: map[string]any{"type": "markdown", "content": "x"}})
	if res.OK || res.Name != "AbortError" {
		t.Fatalf("aborted call = %+v, want an AbortError", res)
	}
}
