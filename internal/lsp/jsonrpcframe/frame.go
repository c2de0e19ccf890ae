// Package jsonrpcframe reads and writes the frames of the LSP base protocol
// (`Content-Length: N\r\n\r\n` then N bytes of JSON) the way a well-behaved
// peer does. It is for the clients that talk to the server from outside:
// the tests and the benchmark. Its reader is strict, so that a client built
// on it also checks that the server frames correctly; the server itself
// reads with the tolerant stream of internal/lsp, which survives a
// malformed peer.
package jsonrpcframe

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Append appends body, framed with its Content-Length header, to dst.
func Append(dst, body []byte) []byte {
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(len(body)), 10)
	dst = append(dst, "\r\n\r\n"...)
	return append(dst, body...)
}

// Read reads one framed message and returns its body. Every header line must
// be `Name: value` ended by CRLF, and one of them Content-Length (any case),
// a whole number. It returns io.EOF, unwrapped, when r ends before a frame
// starts, and an error that says what is wrong otherwise.
func Read(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && length < 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("read header: %w (line %q)", err, line)
		}
		line, ok := strings.CutSuffix(line, "\r\n")
		if !ok {
			return nil, fmt.Errorf("header line %q does not end in CRLF", line)
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header %q", line)
		}
		if strings.EqualFold(name, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("read body of %d bytes: %w", length, err)
	}
	return body, nil
}
