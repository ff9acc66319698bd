package scan

import (
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
	"sync"
	"sync/atomic"
	"time"
)

// Call is one JSON-RPC call of a batch: the method and parameters going
// out, the result or the error coming back.
type Call struct {
	Method string
	Params []any
	// Limit is the most bytes the result may have, compact; 0: the
	// method's own (1 MiB for a header, 4 MiB for a block without its
	// transactions, else the client's Budget). A larger result fails the
	// request with a [*TooLargeError].
	Limit  int
	Result json.RawMessage // compact JSON, at most Limit bytes
	Err    error           // an *RPCError from the node, or a malformed answer
}

// RPCError is an error object a node answered with. Message is the
// node's text made safe to print ([untrusted.Text]): clipped, escaped.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// HTTPError is an HTTP answer other than 200 OK.
type HTTPError struct {
	Status     int
	Body       string        // the start of the body, made safe to print
	RetryAfter time.Duration // from a Retry-After header, 0 if none
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, http.StatusText(e.Status), e.Body)
}

// Client is a JSON-RPC 2.0 client that sends calls in batches over HTTP,
// WebSocket or a node's IPC socket ([NewClient]), and retries what a node
// or provider answers when it is busy: timeouts, broken connections, HTTP
// 429 (honouring Retry-After) and 5xx. An endpoint that refuses the
// connection or does not resolve before it ever answered fails at once
// ([*UnreachableError]). Every answer streams through a reader that holds
// no whitespace and keeps each result compact under its call's limit and
// all of a request's under Budget, so that what a node sends cannot
// exhaust memory. It counts bytes and requests. It is safe for concurrent
// use.
type Client struct {
	URL     string        // http(s)://, ws(s):// or the path of an IPC socket
	HTTP    *http.Client  // for http(s) URLs; nil: http.DefaultClient
	Timeout time.Duration // per request, answer included; 0: 30 s
	Retry   Backoff
	// Budget is the most bytes of results one request, or one job of a
	// scan, may bring, compact; 0: [DefaultBudget]. A batch over it is
	// refused with a [*TooLargeError], which a scan treats as a
	// provider's "too large". It also bounds any call without a smaller
	// limit of its own ([Call.Limit]).
	Budget int
	// OnRetry, if set, is called before each wait to repeat a failed
	// request, from the goroutine that sent it.
	OnRetry func(Retry)

	once     sync.Once
	tr       transport
	trErr    error
	answered atomic.Bool // the endpoint has answered once: failures from now on are worth retrying

	bytes, requests, calls, retries atomic.Int64
}

// NewClient returns a client for url (see [CheckEndpoint] for the forms
// it takes) with the default timeout and backoff; nothing is dialled
// before the first call. Over HTTP it asks for gzip-compressed answers
// unless the host is a loopback address, where compressing costs both
// ends CPU and saves nothing.
func NewClient(rawURL string) *Client {
	c := &Client{URL: rawURL}
	if u, err := url.Parse(rawURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		ip := net.ParseIP(u.Hostname())
		t := &http.Transport{MaxIdleConnsPerHost: 16, Proxy: http.ProxyFromEnvironment}
		t.DisableCompression = u.Hostname() == "localhost" || ip != nil && ip.IsLoopback()
		c.HTTP = &http.Client{Transport: t}
	}
	return c
}

// Counters returns the bytes received (whitespace included), requests
// sent, calls made and requests retried so far.
func (c *Client) Counters() (bytes, requests, calls, retries int64) {
	return c.bytes.Load(), c.requests.Load(), c.calls.Load(), c.retries.Load()
}

// Close closes the connections the client keeps open for later requests.
func (c *Client) Close() error {
	if tr, err := c.transport(); err == nil {
		return tr.close()
	}
	return nil
}

// Batch sends calls in one request and fills in each call's Result or Err.
// The error is for the batch as a whole, after retries: a transport or HTTP
// failure, an answer that is malformed or too large ([*TooLargeError]), an
// error object answering the whole batch, or ctx's error.
func (c *Client) Batch(ctx context.Context, calls []Call) error {
	return c.batch(ctx, calls, c.budget())
}

// batch is Batch with the results taking at most room bytes.
func (c *Client) batch(ctx context.Context, calls []Call, room int) error {
	body, err := encodeBatch(calls)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		err := c.exchange(ctx, body, calls, room)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !c.answered.Load() {
			if u := unreachable(c.URL, err); u != nil {
				return u
			}
		}
		wait, retry := c.Retry.next(attempt, err)
		if !retry {
			return err
		}
		r := Retry{Request: describe(calls), Err: err, Attempt: attempt, Attempts: c.Retry.attempts(), Wait: wait}
		if err := c.pause(ctx, r); err != nil {
			return err
		}
	}
}

// pause counts a retry, reports it to OnRetry and waits for it.
func (c *Client) pause(ctx context.Context, r Retry) error {
	c.retries.Add(1)
	if c.OnRetry != nil {
		c.OnRetry(r)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(r.Wait):
		return nil
	}
}

// exchange makes one attempt at a request.
func (c *Client) exchange(ctx context.Context, body []byte, calls []Call, room int) error {
	tr, err := c.transport()
	if err != nil {
		return err
	}
	c.requests.Add(1)
	c.calls.Add(int64(len(calls)))
	budget := c.budget()
	return tr.exchange(ctx, body, func(r *jsonReader) error { return readAnswer(r, calls, room, budget) })
}

func (c *Client) budget() int {
	if c.Budget > 0 {
		return c.Budget
	}
	return DefaultBudget
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
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

// readWhole reads the answer to calls, the whole of src, under budget.
func readWhole(src io.Reader, calls []Call, budget int) error {
	r := newJSONReader()
	r.reset(src)
	err := readAnswer(r, calls, budget, budget)
	if err == nil {
		err = r.atEnd()
	}
	return err
}

func retryAfter(v string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// isLimit reports whether err is a provider refusing a request as too
// large: error -32005 (limit exceeded), HTTP 413, a message about a
// limit, a range or a batch size, or a batch's answer over the client's
// budget. The remedy is a smaller request.
func isLimit(err error) bool {
	var re *RPCError
	var he *HTTPError
	var te *TooLargeError
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
	case errors.As(err, &te):
		return te.Budget && te.Calls > 1
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
