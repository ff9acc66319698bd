package beacon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// The light-client endpoints (beacon-APIs apis/beacon/light_client).
const (
	bootstrapPath = "/eth/v1/beacon/light_client/bootstrap/"
	updatesPath   = "/eth/v1/beacon/light_client/updates"
	finalityPath  = "/eth/v1/beacon/light_client/finality_update"
)

// Size limits of the answers, each several times the largest a server
// sends: a committee of 513 keys in JSON is 52 KB, a finality update 4 KB.
const (
	objectLimit          = 256 << 10 // a bootstrap or one update
	finalityLimit        = 128 << 10
	maxUpdatesPerRequest = 16 // of the 128 the spec allows (MAX_REQUEST_LIGHT_CLIENT_UPDATES): 4 MiB at most
)

// fetcher makes the GET requests of one run and counts them.
type fetcher struct {
	base     *url.URL
	client   *http.Client
	timeout  time.Duration // of one request; the caller's context bounds the run
	requests int
	bytes    int64
}

// get fetches path with the query and returns the body, at most limit
// bytes, or an [*Error] naming the endpoint.
func (f *fetcher) get(ctx context.Context, path string, query url.Values, limit int64) ([]byte, error) {
	u := f.base.JoinPath(path)
	u.RawQuery = query.Encode()
	endpoint := "GET " + path
	if u.RawQuery != "" {
		endpoint += "?" + u.RawQuery
	}
	fail := func(check Check, format string, args ...any) error {
		return &Error{Endpoint: endpoint, Check: check, Err: fmt.Errorf(format, args...)}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fail(CheckTransport, "%v", err)
	}
	req.Header.Set("Accept", "application/json")
	f.requests++
	resp, err := f.client.Do(req)
	if err != nil {
		// The URL may carry an API key: report the cause, not the *url.Error.
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fail(CheckTransport, "%s", untrusted.Text(err.Error()))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	f.bytes += int64(len(body))
	switch {
	case resp.StatusCode != http.StatusOK:
		return nil, fail(CheckTransport, "HTTP %s: %s", status(resp), untrusted.Quote(body))
	case err != nil:
		return nil, fail(CheckTransport, "reading the answer: %s", untrusted.Text(err.Error()))
	case int64(len(body)) > limit:
		return nil, fail(CheckSize, "the answer is larger than %d bytes, the limit for this request", limit)
	}
	return body, nil
}

func status(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return strconv.Itoa(resp.StatusCode) + " " + t
	}
	return strconv.Itoa(resp.StatusCode)
}
