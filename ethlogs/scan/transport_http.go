package scan

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

// errorBodyLimit is how much of an HTTP error's body is read: the start
// of it is all an error message shows.
const errorBodyLimit = 4 << 10

// readers recycles the readers of answers over HTTP.
var readers = sync.Pool{New: func() any { return newJSONReader() }}

// httpTransport posts each request, with its own HTTP client's
// connection reuse.
type httpTransport struct{ c *Client }

func (t *httpTransport) exchange(ctx context.Context, body []byte, read func(*jsonReader) error) error {
	ctx, cancel := context.WithTimeout(ctx, t.c.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.c.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	hc := t.c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	t.c.answered.Store(true)
	if resp.StatusCode != http.StatusOK {
		return t.httpError(resp)
	}
	r := readers.Get().(*jsonReader)
	defer readers.Put(r)
	r.reset(resp.Body)
	err = read(r)
	if err == nil {
		err = r.atEnd()
	}
	t.c.bytes.Add(r.read)
	r.reset(nil)
	return err
}

// httpError reads the start of an error's body.
func (t *httpTransport) httpError(resp *http.Response) error {
	head, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit+1))
	t.c.bytes.Add(int64(len(head)))
	n := int64(len(head))
	if n > errorBodyLimit {
		head, n = head[:errorBodyLimit], -1
		if resp.ContentLength > errorBodyLimit {
			n = resp.ContentLength
		}
	}
	trimmed := bytes.TrimSpace(head)
	if n == int64(len(head)) {
		n = int64(len(trimmed))
	}
	return &HTTPError{Status: resp.StatusCode, Body: clipped(trimmed, n), RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
}

func (t *httpTransport) close() error {
	if t.c.HTTP != nil {
		t.c.HTTP.CloseIdleConnections()
	}
	return nil
}
