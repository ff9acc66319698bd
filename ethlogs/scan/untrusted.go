package scan

import (
	"net/url"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// redact names an endpoint without its password (a provider's key in the
// user part of the URL); the path, where providers also put keys, is the
// user's own and says which endpoint it is.
func redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return untrusted.Quote([]byte(rawURL))
	}
	return u.Redacted()
}
