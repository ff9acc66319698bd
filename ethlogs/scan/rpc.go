package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// MaxResponse bounds one HTTP response read into memory. A mainnet block's
// receipts are a few megabytes of JSON; batches are sized well below this.
const MaxResponse = 256 << 20

// Call is one JSON-RPC call of a batch: the method and parameters going
// out, the raw result or the error coming back.
type Call struct {
	Method string
	Params []any
	Result json.RawMessage
	Value  any   // the result decoded by a typed batch decoder, instead of Result
	Err    error // an *RPCError from the node, or a malformed answer
}

// RPCError is an error object a node answered with.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// HTTPError is an HTTP answer other than 200 OK.
type HTTPError struct {
	Status     int
	Body       string        // the start of the body
	RetryAfter time.Duration // from a Retry-After header, 0 if none
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, http.StatusText(e.Status), e.Body)
}

// Client is a JSON-RPC 2.0 client over HTTP that sends calls in batches and
// retries what a node or provider answers when it is busy: timeouts, broken
// connections, HTTP 429 (honouring Retry-After) and 5xx. It counts bytes
// and requests. It is safe for concurrent use.
type Client struct {
	URL     string
	HTTP    *http.Client  // nil: a client of its own
	Timeout time.Duration // per HTTP request; 0: 30 s
	Retry   Backoff

	bytes, requests, calls, retries atomic.Int64
}

// NewClient returns a client for url with the default timeout and backoff.
// It asks for gzip-compressed answers unless the host is a loopback
// address, where compressing costs both ends CPU and saves nothing.
func NewClient(rawURL string) *Client {
	t := &http.Transport{MaxIdleConnsPerHost: 16, Proxy: http.ProxyFromEnvironment}
	if u, err := url.Parse(rawURL); err == nil {
		ip := net.ParseIP(u.Hostname())
		t.DisableCompression = u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
	}
	return &Client{URL: rawURL, HTTP: &http.Client{Transport: t}}
}

// Counters returns the bytes received, HTTP requests sent, calls made and
// requests retried so far.
func (c *Client) Counters() (bytes, requests, calls, retries int64) {
	return c.bytes.Load(), c.requests.Load(), c.calls.Load(), c.retries.Load()
}

// Batch sends calls in one request and fills in each call's Result or Err.
// The error is for the batch as a whole, after retries: a transport or HTTP
// failure, an error object answering the whole batch, or ctx's error.
func (c *Client) Batch(ctx context.Context, calls []Call) error {
	return c.batch(ctx, calls, decodeBatch)
}

// batch is Batch with the answer decoded by decode.
func (c *Client) batch(ctx context.Context, calls []Call, decode func([]byte, []Call) error) error {
	body, err := encodeBatch(calls)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		raw, err := c.post(ctx, body)
		if err == nil {
			return decode(raw, calls)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait, retry := c.Retry.next(attempt, err)
		if !retry {
			return err
		}
		c.retries.Add(1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Call sends one call and decodes its result into result.
func (c *Client) Call(ctx context.Context, result any, method string, params ...any) error {
	calls := []Call{{Method: method, Params: params}}
	if err := c.Batch(ctx, calls); err != nil {
		return err
	}
	if calls[0].Err != nil {
		return fmt.Errorf("%s: %w", method, calls[0].Err)
	}
	if err := json.Unmarshal(calls[0].Result, result); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

type request struct {
	Version string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type response struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// encodeBatch writes one call as a plain request (some servers refuse
// batches) and several as an array; ids are the calls' indexes.
func encodeBatch(calls []Call) ([]byte, error) {
	reqs := make([]request, len(calls))
	for i, c := range calls {
		params := c.Params
		if params == nil {
			params = []any{}
		}
		reqs[i] = request{"2.0", i, c.Method, params}
	}
	if len(reqs) == 1 {
		return json.Marshal(reqs[0])
	}
	return json.Marshal(reqs)
}

// decodeBatch matches answers to calls by id; the order of a batch answer
// is the server's choice.
func decodeBatch(raw []byte, calls []Call) error {
	raw = bytes.TrimSpace(raw)
	var resps []response
	if len(raw) > 0 && raw[0] == '{' {
		var r response
		if err := json.Unmarshal(raw, &r); err != nil {
			return fmt.Errorf("malformed JSON-RPC answer: %v", err)
		}
		if len(calls) > 1 || r.ID == nil {
			if r.Error != nil {
				return r.Error // the server refused the batch as a whole
			}
			return fmt.Errorf("JSON-RPC answer to a batch of %d is a single object", len(calls))
		}
		resps = []response{r}
	} else if err := json.Unmarshal(raw, &resps); err != nil {
		return fmt.Errorf("malformed JSON-RPC answer: %v", err)
	}
	seen := make([]bool, len(calls))
	for _, r := range resps {
		if r.ID == nil || *r.ID < 0 || *r.ID >= len(calls) || seen[*r.ID] {
			return fmt.Errorf("JSON-RPC answer with an unknown or repeated id")
		}
		i := *r.ID
		seen[i] = true
		switch {
		case r.Error != nil:
			calls[i].Err = r.Error
		case r.Result == nil:
			calls[i].Err = fmt.Errorf("%s: answer has neither result nor error", calls[i].Method)
		default:
			calls[i].Result = r.Result
		}
	}
	for i, ok := range seen {
		if !ok {
			calls[i].Err = fmt.Errorf("%s: no answer in the batch", calls[i].Method)
		}
	}
	return nil
}

func (c *Client) post(ctx context.Context, body []byte) ([]byte, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	c.requests.Add(1)
	c.calls.Add(int64(bytes.Count(body, []byte(`"method"`))))
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponse+1))
	c.bytes.Add(int64(len(raw)))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &HTTPError{Status: resp.StatusCode, Body: untrusted.Text(strings.TrimSpace(string(raw[:min(len(raw), 4*untrusted.Max)]))), RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	}
	if len(raw) > MaxResponse {
		return nil, fmt.Errorf("answer larger than %d bytes", MaxResponse)
	}
	return raw, nil
}

func retryAfter(v string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// isLimit reports whether err is a provider refusing a request as too
// large: error -32005 (limit exceeded), HTTP 413, or a message about a
// limit, a range or a batch size. The remedy is a smaller request.
func isLimit(err error) bool {
	var re *RPCError
	var he *HTTPError
	switch {
	case errors.As(err, &re):
		if re.Code == -32005 {
			return true
		}
		m := strings.ToLower(re.Message)
		for _, w := range []string{"limit", "too large", "too many", "too big", "exceed", "range", "batch"} {
			if strings.Contains(m, w) {
				return true
			}
		}
	case errors.As(err, &he):
		return he.Status == http.StatusRequestEntityTooLarge
	}
	return false
}

// isUnsupported reports whether err says the method does not exist.
func isUnsupported(err error) bool {
	var re *RPCError
	if !errors.As(err, &re) {
		return false
	}
	m := strings.ToLower(re.Message)
	return re.Code == -32601 || strings.Contains(m, "not found") && strings.Contains(m, "method") ||
		strings.Contains(m, "does not exist") || strings.Contains(m, "not supported") || strings.Contains(m, "unsupported")
}
