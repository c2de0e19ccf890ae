package lsp

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// marshalPublish encodes the params of a textDocument/publishDiagnostics
// into exactly the bytes json.Marshal gives, without reflection: every
// keystroke in a large manifest publishes its every diagnostic again (the
// version moves on), and encoding/json spent 0.45 ms of a keystroke's
// CPU on them at 10,000 tools. The bytes are made in *scratch (kept by
// the caller between calls, grown as needed) and returned there, valid
// until the next call: the publisher compares them with the last params
// of the file and keeps those the frame sent holds (publisher.send).
// What the server does not build (a code that is not a string, data that
// is not a map of strings, a severity or a tag that is not a whole number)
// goes to json.Marshal. TestMarshalPublishIsJSONMarshal and
// FuzzMarshalPublish hold the two equal.
func marshalPublish(params protocol.PublishDiagnosticsParams, scratch *[]byte) ([]byte, error) {
	if !fastPublish(params) {
		return json.Marshal(params)
	}
	b := append((*scratch)[:0], `{"uri":`...)
	b = appendJSONString(b, string(params.URI))
	if params.Version != 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendUint(b, uint64(params.Version), 10)
	}
	b = append(b, `,"diagnostics":`...)
	if params.Diagnostics == nil {
		b = append(b, "null}"...)
	} else {
		b = append(b, '[')
		for i, d := range params.Diagnostics {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendDiagnostic(b, d)
		}
		b = append(b, "]}"...)
	}
	*scratch = b
	return b, nil
}

// fastPublish reports whether every value of params has a type and value
// appendDiagnostic encodes.
func fastPublish(params protocol.PublishDiagnosticsParams) bool {
	for _, d := range params.Diagnostics {
		if !wholeNumber(float64(d.Severity)) {
			return false
		}
		switch d.Code.(type) {
		case nil, string:
		default:
			return false
		}
		switch d.Data.(type) {
		case nil, map[string]string:
		default:
			return false
		}
		for _, t := range d.Tags {
			if !wholeNumber(float64(t)) {
				return false
			}
		}
	}
	return true
}

// wholeNumber reports whether json.Marshal writes f as an integer.
func wholeNumber(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) < 1<<53 && !(f == 0 && math.Signbit(f))
}

func appendDiagnostic(b []byte, d protocol.Diagnostic) []byte {
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	if d.Severity != 0 {
		b = append(b, `,"severity":`...)
		b = strconv.AppendInt(b, int64(d.Severity), 10)
	}
	if code, ok := d.Code.(string); ok {
		b = append(b, `,"code":`...)
		b = appendJSONString(b, code)
	}
	if d.CodeDescription != nil {
		b = append(b, `,"codeDescription":{"href":`...)
		b = appendJSONString(b, string(d.CodeDescription.Href))
		b = append(b, '}')
	}
	if d.Source != "" {
		b = append(b, `,"source":`...)
		b = appendJSONString(b, d.Source)
	}
	b = append(b, `,"message":`...)
	b = appendJSONString(b, d.Message)
	if len(d.Tags) > 0 {
		b = append(b, `,"tags":[`...)
		for i, t := range d.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(t), 10)
		}
		b = append(b, ']')
	}
	if len(d.RelatedInformation) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.RelatedInformation {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":{"uri":`...)
			b = appendJSONString(b, string(r.Location.URI))
			b = append(b, `,"range":`...)
			b = appendRange(b, r.Location.Range)
			b = append(b, `},"message":`...)
			b = appendJSONString(b, r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if data, ok := d.Data.(map[string]string); ok {
		b = append(b, `,"data":`...)
		b = appendStringMap(b, data)
	}
	return append(b, '}')
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":`...)
	b = appendPosition(b, r.Start)
	b = append(b, `,"end":`...)
	b = appendPosition(b, r.End)
	return append(b, '}')
}

func appendPosition(b []byte, p protocol.Position) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, uint64(p.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(p.Character), 10)
	return append(b, '}')
}

// appendStringMap writes m as json.Marshal does: keys sorted, null for a
// nil map.
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes json.Marshal writes as they are.
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return safe
}()

// appendJSONString writes s quoted as json.Marshal does: '<', '>' and
// '&' escaped for HTML, control characters as \b \f \n \r \t or \u00XX,
// an invalid UTF-8 byte as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
