package jsvalue

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
func dataValue(path string, content []byte) (*Value, bool) {
	if strings.EqualFold(filepath.Ext(path), ".txt") {
		return &Value{Kind: VString, File: path, Start: 0, End: len(content), Str: string(content)}, true
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

func (p *jsonReader) value(depth int) (*Value, bool) {
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
		v := &Value{Kind: VObject, File: p.file, Start: start, Complete: true}
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
			v.Props = append(v.Props, &Prop{Key: key, File: p.file, Start: keyStart, End: keyEnd, Val: val})
		}
		v.End = p.at
		return v, true
	case c == '[':
		v := &Value{Kind: VArray, File: p.file, Start: start, Complete: true}
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
			v.Items = append(v.Items, it)
		}
		v.End = p.at
		return v, true
	case c == '"':
		s, ok := p.str()
		return &Value{Kind: VString, File: p.file, Start: start, End: p.at, Str: s}, ok
	case c == 't' || c == 'f':
		word := "true"
		if c == 'f' {
			word = "false"
		}
		p.at += len(word)
		return &Value{Kind: VBool, File: p.file, Start: start, End: p.at, Str: word}, true
	case c == 'n':
		p.at += len("null")
		return &Value{Kind: VNull, File: p.file, Start: start, End: p.at}, true
	default:
		for p.at < len(p.src) && strings.IndexByte("+-0123456789.eE", p.src[p.at]) >= 0 {
			p.at++
		}
		return &Value{Kind: VNumber, File: p.file, Start: start, End: p.at, Str: string(p.src[start:p.at])}, true
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
func (e *Reader) dataImport(m *File, b importBinding, file string, start, end int) *Value {
	src, err := e.res.Files.ReadFile(file)
	if err != nil {
		return unknown(m, start, end, fmt.Sprintf("'%s' cannot be read", b.Spec))
	}
	e.Data[file] = src
	v, ok := dataValue(file, src)
	if !ok {
		return unknown(m, start, end, fmt.Sprintf("'%s' is not valid JSON", b.Spec))
	}
	switch b.Name {
	case "default":
		return v
	case "*":
		return &Value{Kind: VObject, File: m.path, Start: start, End: end, Complete: true,
			Props: []*Prop{{Key: "default", File: m.path, Start: start, End: end, Val: v}}}
	}
	if p := v.Get(b.Name); p != nil {
		return p.Val
	}
	return unknown(m, start, end, fmt.Sprintf("'%s' has no top-level key `%s`", b.Spec, b.Name))
}
