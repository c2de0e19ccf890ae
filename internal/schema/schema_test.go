package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite schema/beeuni.schema.json from the catalog")

// schemaFile is the committed schema, relative to this package.
var schemaFile = filepath.Join("..", "..", "schema", "beeuni.schema.json")

// TestSchemaFileIsUpToDate holds the committed schema to the catalog: a
// change of a name list, a pattern or a description in the engine's catalog
// or here fails until `go test ./internal/schema -update` rewrites it.
func TestSchemaFileIsUpToDate(t *testing.T) {
	want, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("%v (go test ./internal/schema -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what the catalog gives: run go test ./internal/schema -update and commit it", schemaFile)
	}
}

// compiled compiles the committed schema with its draft-07 metaschema
// checked, as SchemaStore's validators read it.
func compiled(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource(ID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ID)
	if err != nil {
		t.Fatalf("the schema does not compile as draft-07: %v", err)
	}
	return s
}

func TestSchemaCompilesAsDraft07(t *testing.T) { compiled(t) }

// TestSchemaHasSchemaStoreForm checks what SchemaStore asks of a schema:
// draft-07, its $id, a title, a description on every property and every
// definition, `type` never a list (anyOf instead), and no keyword outside
// draft-07.
func TestSchemaHasSchemaStoreForm(t *testing.T) {
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	if root["$schema"] != "http://json-schema.org/draft-07/schema#" || root["$id"] != ID || root["title"] == "" || root["description"] == "" {
		t.Errorf("want $schema draft-07, $id %s, a title and a description; got %v, %v, %q", ID, root["$schema"], root["$id"], root["title"])
	}
	known := map[string]bool{}
	for _, k := range strings.Fields(`$schema $id $ref title description type const enum pattern examples properties
		required propertyNames additionalProperties items uniqueItems anyOf not definitions`) {
		known[k] = true
	}
	var walk func(at string, n map[string]any, described bool)
	walk = func(at string, n map[string]any, described bool) {
		for k, v := range n {
			if !known[k] {
				t.Errorf("%s: keyword %q is not one this schema uses from draft-07", at, k)
			}
			if k == "type" {
				if _, ok := v.(string); !ok {
					t.Errorf("%s: type %v is not one name (SchemaStore wants anyOf)", at, v)
				}
			}
		}
		if described && n["description"] == nil && n["$ref"] == nil {
			t.Errorf("%s: no description", at)
		}
		for _, key := range []string{"properties", "definitions"} {
			if m, ok := n[key].(map[string]any); ok {
				for name, sub := range m {
					walk(at+"/"+key+"/"+name, sub.(map[string]any), true)
				}
			}
		}
		for _, key := range []string{"propertyNames", "additionalProperties", "items", "not"} {
			if sub, ok := n[key].(map[string]any); ok {
				walk(at+"/"+key, sub, false)
			}
		}
		if list, ok := n["anyOf"].([]any); ok {
			for _, sub := range list {
				walk(at+"/anyOf", sub.(map[string]any), n["description"] == nil)
			}
		}
	}
	walk("#", root, true)
}
