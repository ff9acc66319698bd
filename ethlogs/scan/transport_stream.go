package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/gorilla/websocket"
)

// maxIdle is how many connections a stream transport keeps for reuse: one
// per request in flight at the default concurrency, and some.
const maxIdle = 16

// conn is one connection of a stream transport: a WebSocket, whose
// messages each hold one answer, or an IPC socket, one JSON value after
// another. Each carries one request at a time, so an answer is always the
// next value on it.
type conn interface {
	send(body []byte) error
	// next returns the reader of the next answer, and whether the answer
	// must end with its message (WebSocket) or is followed by the next one
	// (IPC).
	next() (r *jsonReader, whole bool, err error)
	setDeadline(t time.Time)
	close() error
}

// streamTransport sends each request on a connection of its own, dialled
// when none is idle: answers cannot interleave, and each streams through
// the connection's reader.
type streamTransport struct {
	c    *Client
	dial func(ctx context.Context) (conn, error)

	mu   sync.Mutex
	idle []conn
}

func (t *streamTransport) exchange(ctx context.Context, body []byte, read func(*jsonReader) error) error {
	cn, err := t.get(ctx)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(t.c.timeout())
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	cn.setDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { cn.setDeadline(time.Unix(1, 0)) })
	reusable, err := t.roundTrip(cn, body, read)
	if !stop() || err != nil || !reusable { // cancelled, ended, or in an unknown state
		cn.close()
		return err
	}
	cn.setDeadline(time.Time{})
	t.put(cn)
	return nil
}

// roundTrip sends body on cn and reads the answer, and reports whether
// cn can carry another request.
func (t *streamTransport) roundTrip(cn conn, body []byte, read func(*jsonReader) error) (bool, error) {
	if err := cn.send(body); err != nil {
		return false, err
	}
	r, whole, err := cn.next()
	if err != nil {
		return false, err
	}
	before := r.offset()
	err = read(r)
	if err == nil && whole {
		err = r.atEnd()
	}
	t.c.bytes.Add(r.offset() - before)
	return whole || r.err == nil, err
}

// get returns an idle connection, or dials one.
func (t *streamTransport) get(ctx context.Context) (conn, error) {
	t.mu.Lock()
	if n := len(t.idle); n > 0 {
		cn := t.idle[n-1]
		t.idle = t.idle[:n-1]
		t.mu.Unlock()
		return cn, nil
	}
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, t.c.timeout())
	defer cancel()
	return t.dial(ctx)
}

func (t *streamTransport) put(cn conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.idle) < maxIdle {
		t.idle = append(t.idle, cn)
		return
	}
	cn.close()
}

func (t *streamTransport) close() error {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, cn := range idle {
		cn.close()
	}
	return nil
}

// wsConn is a WebSocket connection: each answer is one message.
type wsConn struct {
	ws *websocket.Conn
	r  *jsonReader
}

func (c *Client) dialWS(ctx context.Context) (conn, error) {
	d := websocket.Dialer{Proxy: http.ProxyFromEnvironment, HandshakeTimeout: c.timeout()}
	ws, resp, err := d.DialContext(ctx, c.URL, nil)
	if resp != nil {
		c.answered.Store(true)
	}
	if err == websocket.ErrBadHandshake && resp != nil {
		return nil, handshakeError(resp)
	}
	if err != nil {
		return nil, err
	}
	return &wsConn{ws: ws, r: newJSONReader()}, nil
}

// handshakeError is an HTTP answer refusing a WebSocket, whose body the
// dialer has cut to its first kilobyte.
func handshakeError(resp *http.Response) error {
	var head []byte
	if resp.Body != nil {
		head, _ = io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	}
	head = bytes.TrimSpace(head)
	return &HTTPError{Status: resp.StatusCode, Body: clipped(head, int64(len(head))), RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
}

func (w *wsConn) send(body []byte) error { return w.ws.WriteMessage(websocket.TextMessage, body) }

func (w *wsConn) next() (*jsonReader, bool, error) {
	_, msg, err := w.ws.NextReader()
	var ce *websocket.CloseError
	if errors.As(err, &ce) { // the node closed the connection: worth a retry
		return nil, false, fmt.Errorf("the WebSocket closed (%d %s): %w", ce.Code, untrusted.Text(ce.Text), io.ErrUnexpectedEOF)
	}
	if err != nil {
		return nil, false, err
	}
	w.r.reset(msg)
	return w.r, true, nil
}

func (w *wsConn) setDeadline(t time.Time) { w.ws.NetConn().SetDeadline(t) }
func (w *wsConn) close() error            { return w.ws.Close() }

// ipcConn is a connection to a node's IPC socket: answers follow one
// another on the stream, read by one reader for the connection's life.
type ipcConn struct {
	c net.Conn
	r *jsonReader
}

func (c *Client) dialIPC(ctx context.Context) (conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", c.URL)
	if err != nil {
		return nil, err
	}
	c.answered.Store(true)
	r := newJSONReader()
	r.reset(nc)
	return &ipcConn{c: nc, r: r}, nil
}

// send writes body and a newline, which servers that split their input
// into lines need.
func (i *ipcConn) send(body []byte) error {
	_, err := (&net.Buffers{body, []byte("\n")}).WriteTo(i.c)
	return err
}

func (i *ipcConn) next() (*jsonReader, bool, error) { return i.r, false, nil }
func (i *ipcConn) setDeadline(t time.Time)          { i.c.SetDeadline(t) }
func (i *ipcConn) close() error                     { return i.c.Close() }
