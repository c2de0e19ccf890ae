package jsfront

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// sourcemap.go decodes the source map esbuild writes for one file (version
// 3, one source): for each line of the JavaScript, its segments, each a
// column of the JavaScript and the position in the file's text it comes
// from. Columns count UTF-16 units, as the format says.
//
// It is written here rather than taken from a library: the Go source map
// readers on the module proxy are unmaintained, and the one tried
// (go-sourcemap/sourcemap v2.1.3) drops the first segment when all its
// fields are zero, the most common segment of all. The format is small
// (base64 VLQ numbers, relative to the previous segment).

// segment maps a column of a line of the JavaScript to a 0-based line and
// UTF-16 column of the file's text.
type segment struct {
	genCol, srcLine, srcCol int32
}

// sourceMap holds the segments of each line of the JavaScript, by column.
type sourceMap struct {
	lines [][]segment
}

// parseSourceMap decodes esbuild's JSON source map.
func parseSourceMap(data []byte) (*sourceMap, error) {
	var raw struct {
		Version  int    `json:"version"`
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("read the source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map version %d, want 3", raw.Version)
	}
	m := &sourceMap{lines: [][]segment{nil}}
	var srcLine, srcCol, genCol, source int32
	var fields [5]int32
	for i := 0; i < len(raw.Mappings); {
		switch raw.Mappings[i] {
		case ';':
			m.lines = append(m.lines, nil)
			genCol = 0
			i++
			continue
		case ',':
			i++
			continue
		}
		n := 0
		for i < len(raw.Mappings) && raw.Mappings[i] != ',' && raw.Mappings[i] != ';' {
			v, next, err := decodeVLQ(raw.Mappings, i)
			if err != nil {
				return nil, err
			}
			if n < len(fields) {
				fields[n] = v
			}
			n++
			i = next
		}
		genCol += fields[0]
		if n < 4 {
			continue // a segment with no source position
		}
		source += fields[1]
		srcLine += fields[2]
		srcCol += fields[3]
		if source != 0 {
			continue // esbuild writes one source per map
		}
		last := len(m.lines) - 1
		m.lines[last] = append(m.lines[last], segment{genCol: genCol, srcLine: srcLine, srcCol: srcCol})
	}
	for _, segs := range m.lines {
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
	}
	return m, nil
}

// lookup is the segment of the JavaScript's 0-based line and UTF-16
// column: the last one at or before the column on that line.
func (m *sourceMap) lookup(line, col int) (segment, bool) {
	if m == nil || line < 0 || line >= len(m.lines) {
		return segment{}, false
	}
	segs := m.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return int(segs[i].genCol) > col })
	if i == 0 {
		return segment{}, false
	}
	return segs[i-1], true
}

var errVLQ = errors.New("source map: a bad base64 VLQ number")

// decodeVLQ reads one base64 VLQ number of s at i; it returns the number
// and where the next starts.
func decodeVLQ(s string, i int) (int32, int, error) {
	var v int64
	shift := uint(0)
	for {
		if i >= len(s) || shift > 31 {
			return 0, i, errVLQ
		}
		d := base64Digit(s[i])
		if d < 0 {
			return 0, i, errVLQ
		}
		i++
		v |= int64(d&31) << shift
		shift += 5
		if d&32 == 0 {
			break
		}
	}
	if v&1 == 1 {
		return int32(-(v >> 1)), i, nil
	}
	return int32(v >> 1), i, nil
}

func base64Digit(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}
