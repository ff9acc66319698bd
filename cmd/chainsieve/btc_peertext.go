package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPeerText bounds what one printed message shows of text that may
// quote a peer: a ban reason, an error, a user agent. Our own messages
// are far shorter; a peer's reject reason can be megabytes.
const maxPeerText = 1000

// peerText makes a message that may quote a peer safe for a terminal, on
// one line: at most maxPeerText characters (then a marker of the bytes
// cut), control, format (bidirectional overrides) and other non-printing
// characters and invalid UTF-8 escaped in Go's notation, and line breaks
// (errors.Join puts them between errors) turned into "; ". Backslashes are
// left alone, so that text the libraries escaped where it came in
// (gcs/spv's reject reasons) is not escaped twice; a backslash a peer sent
// can then look like an escape, but can do nothing to the terminal.
//
// TODO: core/untrusted, once on main, is the one home for a peer's text
// where it enters an error; this stays as the CLI's last line.
func peerText(s string) string { return peerTextN(s, maxPeerText) }

// peerTextN is peerText with at most n characters.
func peerTextN(s string, n int) string {
	var b strings.Builder
	shown := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var out string
		switch {
		case r == utf8.RuneError && size == 1:
			out = `\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:]
		case r == '\n':
			out = "; "
		case !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteRuneToASCII(r)
			out = q[1 : len(q)-1]
		default:
			out = s[i : i+size]
		}
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
