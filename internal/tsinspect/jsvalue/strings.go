package jsvalue

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// strings.go follows strings a careful reader sees beyond literals:
// template literals whose substitutions are known, and `+` over known
// strings and numbers, left to right as JavaScript.

// substRE matches a substitution that names a binding or a property chain.
var substRE = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)((?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*$`)

// templateValue is a template literal whose substitutions are known
// strings, numbers or booleans; its text parts must be free of escapes.
func (e *Reader) templateValue(m *File, t jsfront.Token) *Value {
	raw := string(m.Src[t.Start+1 : t.End-1])
	var b strings.Builder
	for raw != "" {
		i := strings.Index(raw, "${")
		lit := raw
		if i >= 0 {
			lit = raw[:i]
		}
		cooked, ok := cookTemplate(lit)
		if !ok {
			return unknown(m, t.Start, t.End, "a template literal with an escape this inspector does not read")
		}
		b.WriteString(cooked)
		if i < 0 {
			break
		}
		rest := raw[i+2:]
		close := strings.IndexByte(rest, '}')
		if close < 0 {
			return unknown(m, t.Start, t.End, "a template literal with substitutions")
		}
		sm := substRE.FindStringSubmatch(rest[:close])
		if sm == nil {
			return unknown(m, t.Start, t.End, "a template literal with substitutions computed when the module runs")
		}
		at := t.Start + 1 + i + 2 + strings.Index(rest[:close], sm[1])
		v := e.ref(m, sm[1], at, at+len(sm[1]))
		for _, name := range strings.Split(sm[2], ".")[1:] {
			v = e.member(m, v, strings.TrimSpace(name), at, at+len(rest[:close]))
		}
		s, ok := jsString(v)
		if tooLargeAmong([]*Value{v}) {
			return unknown(m, t.Start, t.End, tooLarge)
		}
		if !ok {
			return unknown(m, t.Start, t.End, fmt.Sprintf("a template literal whose substitution `${%s}` is computed when the module runs", strings.TrimSpace(rest[:close])))
		}
		if !e.fits(len(s)) {
			return unknown(m, t.Start, t.End, tooLarge)
		}
		b.WriteString(s)
		raw = rest[close+1:]
	}
	return &Value{Kind: VString, File: m.path, Start: t.Start, End: t.End, Str: b.String()}
}

// cookTemplate gives the value of a template's text part: line ends
// normalised, the simple escapes decoded (others: ok false).
func cookTemplate(raw string) (string, bool) {
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
	if !strings.ContainsRune(raw, '\\') {
		return raw, true
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			b.WriteByte(raw[i])
			continue
		}
		i++
		if i == len(raw) {
			return "", false
		}
		switch c := raw[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\', '`', '$', '\'', '"':
			b.WriteByte(c)
		case '\n': // a line continuation
		default:
			return "", false
		}
	}
	return b.String(), true
}

// jsString converts a known primitive as String(v) does.
func jsString(v *Value) (string, bool) {
	switch v.Kind {
	case VString:
		return v.Str, true
	case VBool:
		return v.Str, true
	case VNull:
		return "null", true
	case VUndefined:
		return "undefined", true
	case VNumber:
		n, ok := jsonNumber(v.Str)
		return n, ok
	}
	return "", false
}

// concat folds `a + b + ...` of known strings and numbers left to right,
// as JavaScript does (numbers add until a string is met); ok is false when
// a term is not known.
func concat(terms []*Value) (*Value, bool) {
	acc := terms[0]
	i := 1
	for ; i < len(terms) && acc.Kind != VString; i++ {
		t := terms[i]
		switch {
		case acc.Kind == VNumber && t.Kind == VNumber:
			a, err1 := strconv.ParseFloat(strings.ReplaceAll(acc.Str, "_", ""), 64)
			b, err2 := strconv.ParseFloat(strings.ReplaceAll(t.Str, "_", ""), 64)
			if err1 != nil || err2 != nil {
				return nil, false
			}
			acc = &Value{Kind: VNumber, Str: strconv.FormatFloat(a+b, 'g', -1, 64)}
		case t.Kind == VString:
			x, ok := jsString(acc)
			if !ok {
				return nil, false
			}
			acc = &Value{Kind: VString, Str: x + t.Str}
		default:
			return nil, false
		}
	}
	if i == len(terms) {
		return acc, true
	}
	// a string from here on: one builder, linear in the result
	var b strings.Builder
	b.WriteString(acc.Str)
	for _, t := range terms[i:] {
		s, ok := jsString(t)
		if !ok {
			return nil, false
		}
		b.WriteString(s)
	}
	return &Value{Kind: VString, Str: b.String()}, true
}
