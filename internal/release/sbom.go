package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// NPMPurl is the package URL of an npm package (a scope's @ escaped).
func NPMPurl(p JSPackage) string {
	name := p.Name
	if scope, rest, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(scope, "@") {
		name = "%40" + scope[1:] + "/" + rest
	}
	return "pkg:npm/" + name + "@" + p.Version
}

// AddNPMComponents adds the JavaScript packages bundled into the
// extension to a CycloneDX SBOM (JSON) as library components with their
// package URLs and licenses, so that the SBOM covers every artifact of
// the release, not only the Go modules cyclonedx-gomod reads. The result
// is the same bytes for the same input.
func AddNPMComponents(sbom []byte, js []JSPackage) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(sbom, &doc); err != nil {
		return nil, fmt.Errorf("the SBOM: %w", err)
	}
	components, _ := doc["components"].([]any)
	for _, p := range js {
		c := map[string]any{
			"bom-ref": NPMPurl(p), "type": "library", "name": p.Name, "version": p.Version, "purl": NPMPurl(p),
		}
		switch {
		case p.License == "":
		case strings.ContainsAny(p.License, " ()"):
			c["licenses"] = []any{map[string]any{"expression": p.License}}
		default:
			c["licenses"] = []any{map[string]any{"license": map[string]any{"id": p.License}}}
		}
		components = append(components, c)
	}
	doc["components"] = components
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("the SBOM: %w", err)
	}
	return b.Bytes(), nil
}
