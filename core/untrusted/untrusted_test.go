package untrusted

import (
	"fmt"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"plain text, 100% ok", "plain text, 100% ok"},
		{"title\x1b]0;owned\x07", `title\x1b]0;owned\a`},
		{"colour \x1b[31mred\x1b[0m", `colour \x1b[31mred\x1b[0m`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
		{"tab\tcr\rlf\n", `tab\tcr\rlf\n`},
		{`a fake \x1b escape`, `a fake \\x1b escape`},
		{"héllo wörld", "héllo wörld"},
		{"", ""},
		{strings.Repeat("x", 5000), strings.Repeat("x", Max) + "…(+4800 bytes)"},
		{strings.Repeat("é", 300), strings.Repeat("é", Max) + "…(+200 bytes)"},
		{strings.Repeat("x", Max-2) + "\x1b", strings.Repeat("x", Max-2) + "…(+1 bytes)"}, // an escape is not cut in two
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"first error\nsecond error", 100, "first error; second error"},
		{"title\x1b]0;owned\x07", 100, `title\x1b]0;owned\a`},
		{`already escaped \x1b stays`, 100, `already escaped \x1b stays`},
		{"abcdef", 3, "abc…(+3 bytes)"},
		{"ab\x1bcd", 4, `ab…(+3 bytes)`},
	}
	for _, tt := range tests {
		if got := Line(tt.in, tt.n); got != tt.want {
			t.Errorf("Line(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		in   []byte
		want string
	}{
		{[]byte("null"), `"null"`},
		{[]byte("\x1b[2J\xff"), `"\x1b[2J\xff"`},
		{[]byte(strings.Repeat("a", Max+1)), `"` + strings.Repeat("a", Max) + `"…`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzText checks that no input yields a control character, a line break
// or more than Max characters before the clip marker.
func FuzzText(f *testing.F) {
	f.Add("title\x1b]0;owned\x07")
	f.Add("\xff\u202e\n")
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		body, _, _ := strings.Cut(got, "…(+")
		if n := len([]rune(body)); n > Max {
			t.Fatalf("Text(%q) kept %d characters", s, n)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' {
				t.Fatalf("Text(%q) = %q holds %U", s, got, r)
			}
		}
	})
}

func ExampleText() {
	reason := "bad-txns\x1b]0;you have been owned\x07\nsee http://evil"
	fmt.Println(Text(reason))
	// Output: bad-txns\x1b]0;you have been owned\a\nsee http://evil
}

func TestEscape(t *testing.T) {
	long := strings.Repeat("é", 3*Max) + "\x1b"
	if got, want := Escape(long), strings.Repeat("é", 3*Max)+`\x1b`; got != want {
		t.Errorf("Escape(%d runes) = %d runes, want %d: unclipped, escaped", 3*Max+1, len([]rune(got)), len([]rune(want)))
	}
	if got, want := Escape("a\\b\nc"), `a\\b\nc`; got != want {
		t.Errorf("Escape(%q) = %q, want %q", "a\\b\nc", got, want)
	}
}
