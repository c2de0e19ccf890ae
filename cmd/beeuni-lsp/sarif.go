package main

import (
	"fmt"
	"net/url"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
	"github.com/beeuni/beeuni-lsp/internal/version"
)

// The SARIF 2.1.0 log `validate --format sarif` prints, as GitHub code
// scanning reads it: the tool with one rule per code reported (its summary,
// its section of docs/rules.md, its default level), one result per
// finding, paths relative to the working folder under the base %SRCROOT%
// (the checkout, where a workflow runs the command).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	} `json:"artifactLocation"`
	Region sarifRegion `json:"region"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifBaseID  = "%SRCROOT%"
	projectHome  = "https://github.com/beeuni/beeuni-lsp"
	sarifVersion = "2.1.0"
)

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// formatSARIFLog is `validate --format sarif`.
func formatSARIFLog(fs []finding) (string, error) {
	driver := sarifDriver{Name: "beeuni-lsp", Version: version.String(), InformationURI: projectHome, Rules: []sarifRule{}}
	// One rule per code reported, in the catalog's order.
	reported := map[string]bool{}
	for _, f := range fs {
		reported[f.Code] = true
	}
	index := map[string]int{}
	for _, r := range ruledoc.All() {
		if !reported[r.Code] {
			continue
		}
		index[r.Code] = len(driver.Rules)
		rule := sarifRule{ID: r.Code, ShortDescription: sarifMessage{Text: r.Summary}, HelpURI: ruledoc.HelpURI(r.Code)}
		rule.DefaultConfiguration.Level = sarifLevel(r.Level)
		driver.Rules = append(driver.Rules, rule)
	}
	results := make([]sarifResult, 0, len(fs))
	for _, f := range fs {
		i, ok := index[f.Code]
		if !ok {
			return "", fmt.Errorf("code %s has no entry in the rule catalog", f.Code)
		}
		res := sarifResult{
			RuleID: f.Code, RuleIndex: i, Level: sarifLevel(f.sev),
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: physical(f.File, f.Line, f.Column, f.EndLine, f.EndColumn)}},
		}
		for j, r := range f.Related {
			id := j
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: physical(r.File, r.Line, r.Column, r.EndLine, r.EndColumn),
				Message:          &sarifMessage{Text: r.Message},
			})
		}
		results = append(results, res)
	}
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: results,
	}}}
	return encodeJSON(log)
}

// physical is a SARIF location: the path as a relative URI reference
// (escaped: a space is %20), the region 1-based with an exclusive end.
func physical(file string, line, col, endLine, endCol int) sarifPhysicalLocation {
	var p sarifPhysicalLocation
	p.ArtifactLocation.URI = (&url.URL{Path: file}).EscapedPath()
	p.ArtifactLocation.URIBaseID = sarifBaseID
	p.Region = sarifRegion{StartLine: line, StartColumn: col, EndLine: endLine, EndColumn: endCol}
	return p
}
