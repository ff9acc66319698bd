package main

import (
	"strings"
	"testing"
)

func TestPeerText(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"plain text, 100% ok", 100, "plain text, 100% ok"},
		{"title\x1b]0;owned\x07", 100, `title\x1b]0;owned\a`},
		{"bidi \u202eevil", 100, `bidi \u202eevil`},
		{"bad \xff\xfe utf-8", 100, `bad \xff\xfe utf-8`},
		{"tab\tcr\r", 100, `tab\tcr\r`},
		{"first error\nsecond error", 100, "first error; second error"},
		{`already escaped \x1b stays`, 100, `already escaped \x1b stays`},
		{"héllo wörld", 100, "héllo wörld"},
		{"abcdef", 3, "abc…(+3 bytes)"},
		{"ab\x1bcd", 4, `ab…(+3 bytes)`}, // an escape is not cut in two
		{strings.Repeat("x", 5000), maxPeerText, strings.Repeat("x", maxPeerText) + "…(+4000 bytes)"},
	}
	for _, tt := range tests {
		if got := peerTextN(tt.in, tt.n); got != tt.want {
			t.Errorf("peerTextN(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
