package tsinspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// data.go gives the values of the data files a module imports, as Bun
// loads them: a `.json` file is its parsed value (its default export, and
// its top-level keys as named exports), a `.txt` file its text.

// dataFile reports whether Bun loads path as data, not as a script.
func dataFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".txt":
		return true
	}
	return false
}

// dataValue is the value of the data file at path (content read), with
// positions in it; ok is false when the file is not valid.
func dataValue(path string, content []byte) (*value, bool) {
	if strings.EqualFold(filepath.Ext(path), ".txt") {
		return &value{kind: vString, file: path, start: 0, end: len(content), str: string(content)}, true
	}
	body := bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	if !json.Valid(body) {
		return nil, false
	}
	p := &jsonReader{file: path, src: content, at: len(content) - len(body)}
	v, ok := p.value(0)
	return v, ok
}

// jsonReader builds values from valid JSON text, keeping each value's byte
// range. One pass; the input is known to be valid.
type jsonReader struct {
	file string
	src  []byte
	at   int
}

func (p *jsonReader) skipSpace() {
	for p.at < len(p.src) {
		switch p.src[p.at] {
		case ' ', '\t', '\n', '\r':
			p.at++
		default:
			return
		}
	}
}

func (p *jsonReader) value(depth int) (*value, bool) {
	if depth > maxEvalDepth {
		return nil, false
	}
	p.skipSpace()
	if p.at >= len(p.src) {
		return nil, false
	}
	start := p.at
	switch c := p.src[p.at]; {
	case c == '{':
		v := &value{kind: vObject, file: p.file, start: start, complete: true}
		p.at++
		for {
			p.skipSpace()
			if p.src[p.at] == '}' {
				p.at++
				break
			}
			if p.src[p.at] == ',' {
				p.at++
				continue
			}
			keyStart := p.at
			key, ok := p.str()
			if !ok {
				return nil, false
			}
			keyEnd := p.at
			p.skipSpace()
			p.at++ // ':'
			val, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			v.props = append(v.props, &prop{key: key, file: p.file, start: keyStart, end: keyEnd, val: val})
		}
		v.end = p.at
		return v, true
	case c == '[':
		v := &value{kind: vArray, file: p.file, start: start, complete: true}
		p.at++
		for {
			p.skipSpace()
			if p.src[p.at] == ']' {
				p.at++
				break
			}
			if p.src[p.at] == ',' {
				p.at++
				continue
			}
			it, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			v.items = append(v.items, it)
		}
		v.end = p.at
		return v, true
	case c == '"':
		s, ok := p.str()
		return &value{kind: vString, file: p.file, start: start, end: p.at, str: s}, ok
	case c == 't' || c == 'f':
		word := "true"
		if c == 'f' {
			word = "false"
		}
		p.at += len(word)
		return &value{kind: vBool, file: p.file, start: start, end: p.at, str: word}, true
	case c == 'n':
		p.at += len("null")
		return &value{kind: vNull, file: p.file, start: start, end: p.at}, true
	default:
		for p.at < len(p.src) && strings.IndexByte("+-0123456789.eE", p.src[p.at]) >= 0 {
			p.at++
		}
		return &value{kind: vNumber, file: p.file, start: start, end: p.at, str: string(p.src[start:p.at])}, true
	}
}

// str reads a JSON string at p.at.
func (p *jsonReader) str() (string, bool) {
	start := p.at
	p.at++
	for p.at < len(p.src) {
		switch p.src[p.at] {
		case '\\':
			p.at += 2
			continue
		case '"':
			p.at++
			var s string
			if err := json.Unmarshal(p.src[start:p.at], &s); err != nil {
				return "", false
			}
			return s, true
		}
		p.at++
	}
	return "", false
}

// dataImport follows a binding of a data file a module imports: the whole
// value for a default import, a top-level key for a named one.
func (e *evaluator) dataImport(m *modFile, b importBinding, file string, start, end int) *value {
	src, err := e.res.Files.ReadFile(file)
	if err != nil {
		return unknown(m, start, end, fmt.Sprintf("'%s' cannot be read", b.spec))
	}
	e.data[file] = src
	v, ok := dataValue(file, src)
	if !ok {
		return unknown(m, start, end, fmt.Sprintf("'%s' is not valid JSON", b.spec))
	}
	switch b.name {
	case "default":
		return v
	case "*":
		return &value{kind: vObject, file: m.path, start: start, end: end, complete: true,
			props: []*prop{{key: "default", file: m.path, start: start, end: end, val: v}}}
	}
	if p := v.get(b.name); p != nil {
		return p.val
	}
	return unknown(m, start, end, fmt.Sprintf("'%s' has no top-level key `%s`", b.spec, b.name))
}
