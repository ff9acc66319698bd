package scan

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from an endpoint (an error message, an answer that does not decode)
// reaches a terminal only through these: clipped to maxQuoted bytes, with
// control characters and invalid UTF-8 escaped as Go quotes them.
//
// TODO: fold into core/untrusted once it is on main (it is being written
// on another branch); ethlogs/beacon has the same two helpers.

// maxQuoted is how many bytes of an endpoint's text a message quotes.
const maxQuoted = 200

// quote clips an endpoint's bytes and quotes them.
func quote(b []byte) string {
	if len(b) > maxQuoted {
		return strconv.Quote(string(b[:maxQuoted])) + "…"
	}
	return strconv.Quote(string(b))
}

// clean returns an error message that may echo an endpoint's text, safe
// to print: clipped, control characters and invalid UTF-8 escaped, the
// rest left as it is.
func clean(err error) string {
	msg := err.Error()
	var b strings.Builder
	for i := 0; i < len(msg); {
		if i >= maxQuoted {
			b.WriteString("…")
			break
		}
		r, n := utf8.DecodeRuneInString(msg[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(msg[i])>>4, 16) + strconv.FormatUint(uint64(msg[i])&15, 16))
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(msg[i : i+n])
		}
		i += n
	}
	return b.String()
}

// redact names an endpoint without its password (a provider's key in the
// user part of the URL); the path, where providers also put keys, is the
// user's own and says which endpoint it is.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return quote([]byte(rawURL))
	}
	return u.Redacted()
}
