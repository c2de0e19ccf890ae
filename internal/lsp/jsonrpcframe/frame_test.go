package jsonrpcframe

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"plain", "Content-Length: 2\r\n\r\n{}", "{}", ""},
		{"extra header and case", "content-length: 4\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\nnull", "null", ""},
		{"missing length", "Content-Type: x\r\n\r\n{}", "", "without Content-Length"},
		{"bad length", "Content-Length: -3\r\n\r\n", "", "bad Content-Length"},
		{"length not a number", "Content-Length: ten\r\n\r\n", "", "bad Content-Length"},
		{"malformed header", "Content-Length 2\r\n\r\n{}", "", "malformed header"},
		{"LF only", "Content-Length: 2\n\n{}", "", "does not end in CRLF"},
		{"header cut short", "Content-Length: 2\r\n", "", "read header"},
		{"short body", "Content-Length: 10\r\n\r\n{}", "", "read body"},
		{"eof", "", "", "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(bufio.NewReader(strings.NewReader(tt.in)))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("Read = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// Frames written by Append read back one after the other, and the end of
// the stream after the last is io.EOF itself.
func TestAppendReadsBack(t *testing.T) {
	bodies := []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}`, "", "null", "é\r\n"}
	var stream []byte
	for _, b := range bodies {
		stream = Append(stream, []byte(b))
	}
	if want := "Content-Length: 4\r\n\r\nnull"; !strings.Contains(string(stream), want) {
		t.Fatalf("stream %q lacks %q", stream, want)
	}
	r := bufio.NewReader(strings.NewReader(string(stream)))
	for _, want := range bodies {
		got, err := Read(r)
		if err != nil || string(got) != want {
			t.Fatalf("Read = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := Read(r); err != io.EOF {
		t.Fatalf("after the last frame: err = %v, want io.EOF itself", err)
	}
}
