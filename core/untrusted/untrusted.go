// Package untrusted makes text that came from the network safe to print.
//
// A node or peer chooses its error messages, reject reasons, user agents
// and HTTP bodies, and a hostile one sends megabytes of them with terminal
// escape sequences (a title change, colours, a cursor move) or
// bidirectional overrides that reorder what a reader sees. Such text
// reaches a terminal, a log or a report only through this package:
// clipped to a bounded number of characters, on one line, with every
// character that is not printable escaped in Go's notation.
//
// Apply [Text] or [Quote] where the text enters an error or a record, so
// that every later consumer receives it harmless; [Line] is for the last
// step, a message of ours printed as one line.
package untrusted

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is how many characters of a node's or peer's text [Text] and
// [Quote] keep: enough for any honest error message, little enough that a
// megabyte of reason is one short line.
const Max = 200

// Text returns s, text a node or peer sent, safe to print: at most [Max]
// characters and then a marker of the bytes cut ("…(+N bytes)"); control,
// format and other non-printing characters, line breaks, invalid UTF-8 and
// backslashes escaped in Go's notation, so that every escape in the
// result was written here.
func Text(s string) string { return clip(s, Max, true, false) }

// Escape returns s escaped as [Text] escapes it, but whole: for text that
// must arrive complete and stay on its line, such as a contract's string
// in a CSV cell.
func Escape(s string) string { return clip(s, math.MaxInt, true, false) }

// Quote returns b, an answer that did not decode, as a Go-quoted string
// of at most [Max] of its bytes, followed by "…" if it was longer.
func Quote(b []byte) string {
	if len(b) > Max {
		return strconv.Quote(string(b[:Max])) + "…"
	}
	return strconv.Quote(string(b))
}

// Line returns msg, a message of ours that may carry a node's text
// already made safe by [Text], as one line of at most n characters: line
// breaks (errors.Join puts them between errors) become "; ", other
// non-printing characters and invalid UTF-8 are escaped. Backslashes are
// left alone, so that text escaped where it came in is not escaped twice.
func Line(msg string, n int) string { return clip(msg, n, false, true) }

// clip escapes s and cuts it after n characters of output; an escape is
// never cut in two.
func clip(s string, n int, backslash, joinLines bool) string {
	var b strings.Builder
	shown := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		out := escape(s[i:i+size], r, size, backslash, joinLines)
		w := utf8.RuneCountInString(out)
		if shown+w > n {
			b.WriteString("…(+" + strconv.Itoa(len(s)-i) + " bytes)")
			break
		}
		b.WriteString(out)
		shown += w
		i += size
	}
	return b.String()
}

// escape returns how one rune of s prints.
func escape(raw string, r rune, size int, backslash, joinLines bool) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return `\x` + strconv.FormatUint(uint64(raw[0])|0x100, 16)[1:]
	case r == '\n' && joinLines:
		return "; "
	case r == '\\' && backslash:
		return `\\`
	case r == ' ' || unicode.IsPrint(r):
		return raw
	}
	q := strconv.QuoteRuneToASCII(r)
	return q[1 : len(q)-1]
}
