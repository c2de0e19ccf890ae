package analysis

import "bytes"

// ForYAMLv3 returns content as yaml.v3 should read it. yaml.v3 refuses a
// `%YAML 1.2` directive ("found incompatible YAML document") although 1.2 is
// the current YAML and the semantics yaml.v3 implements; the directive of
// the first document is rewritten to 1.1, byte for byte in place (a copy;
// every offset, line and column stays), when it says 1.2. Other content is
// returned as is.
func ForYAMLv3(content []byte) []byte {
	var out []byte
	for off := 0; off < len(content); {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off
		}
		line := bytes.TrimRight(content[off:end], "\r")
		switch {
		case bytes.HasPrefix(line, []byte("%YAML")):
			rest := line[len("%YAML"):]
			i := len(rest) - len(bytes.TrimLeft(rest, " \t"))
			if i > 0 && bytes.HasPrefix(rest[i:], []byte("1.2")) &&
				(len(rest) == i+3 || rest[i+3] == ' ' || rest[i+3] == '\t') {
				if out == nil {
					out = bytes.Clone(content)
				}
				out[off+len("%YAML")+i+2] = '1'
			}
		case len(line) == 0 || line[0] == '#' || line[0] == '%':
			// blank lines, comments and other directives before the document
		default:
			// The document starts (`---` or content): directives end here.
			if out == nil {
				return content
			}
			return out
		}
		off = end + 1
	}
	if out == nil {
		return content
	}
	return out
}
