package scan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// ErrNoSubscriptions is a subscription asked of an HTTP endpoint: only a
// WebSocket or an IPC socket carries notifications.
var ErrNoSubscriptions = errors.New("scan: subscriptions need a ws://, wss:// or IPC endpoint")

// notificationQueue is how many notifications wait for the reader of
// [Subscription.C] before the subscription stops reading the connection.
const notificationQueue = 16

// Subscription is a stream of notifications from eth_subscribe. Each
// arrives on C as the compact JSON of its result, at most the limit of
// the subscription's kind (a header's for newHeads); C holds at most 16
// waiting, so a subscription holds at most 16 of them in memory. It is
// safe for concurrent use.
type Subscription struct {
	// ID is the node's id for the subscription, made safe to print.
	ID string
	// C delivers the notifications in the order the node sent them. It is
	// closed when the subscription ends: after Close, or when the
	// connection fails or a notification is malformed or too large, which
	// Err then says.
	C <-chan []byte

	cn     conn
	c      chan []byte
	stop   chan struct{}
	exited chan struct{}
	once   sync.Once
	err    error // set before exited closes
}

// SubscribeNewHeads subscribes to eth_subscribe("newHeads") on a
// connection of its own: each new head of the node's chain arrives on C
// as its header's JSON (the fields of eth_getHeaderByNumber's answer),
// reorganisations included, at most 1 MiB each. It needs a ws://, wss://
// or IPC endpoint ([ErrNoSubscriptions] otherwise).
func (c *Client) SubscribeNewHeads(ctx context.Context) (*Subscription, error) {
	return c.subscribe(ctx, headerLimit, "newHeads")
}

// subscribe makes a subscription whose notifications are at most limit
// bytes.
func (c *Client) subscribe(ctx context.Context, limit int, params ...any) (*Subscription, error) {
	tr, err := c.transport()
	if err != nil {
		return nil, err
	}
	st, ok := tr.(*streamTransport)
	if !ok {
		return nil, ErrNoSubscriptions
	}
	dctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	cn, err := st.dial(dctx)
	if err != nil {
		if u := unreachable(c.URL, err); u != nil && !c.answered.Load() {
			err = u
		}
		return nil, fmt.Errorf("scan: eth_subscribe: %w", err)
	}
	calls := []Call{{Method: "eth_subscribe", Params: params, Limit: 1 << 10}}
	id, err := c.subscribed(ctx, st, cn, calls)
	if err != nil {
		cn.close()
		return nil, fmt.Errorf("scan: %s: %w", calls[0].String(), err)
	}
	ch := make(chan []byte, notificationQueue)
	s := &Subscription{ID: untrusted.Text(id), C: ch, cn: cn, c: ch, stop: make(chan struct{}), exited: make(chan struct{})}
	go s.run(c, id, limit)
	return s, nil
}

// subscribed sends eth_subscribe on cn and returns the subscription's id.
func (c *Client) subscribed(ctx context.Context, st *streamTransport, cn conn, calls []Call) (string, error) {
	body, err := encodeBatch(calls)
	if err != nil {
		return "", err
	}
	deadline := time.Now().Add(c.timeout())
	cn.setDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { cn.setDeadline(time.Unix(1, 0)) })
	_, err = st.roundTrip(cn, body, func(r *jsonReader) error { return readAnswer(r, calls, headerLimit, headerLimit) })
	if !stop() {
		return "", ctx.Err()
	}
	cn.setDeadline(time.Time{})
	if err == nil {
		err = calls[0].Err
	}
	if err != nil {
		return "", err
	}
	var id string
	if json.Unmarshal(calls[0].Result, &id) != nil || id == "" {
		return "", fmt.Errorf("the subscription id is %s, not a string", untrusted.Quote(calls[0].Result))
	}
	return id, nil
}

// run reads notifications until the connection ends or Close.
func (s *Subscription) run(c *Client, id string, limit int) {
	defer close(s.exited)
	defer close(s.c)
	for {
		r, whole, err := s.cn.next()
		var result []byte
		if err == nil {
			before := r.offset()
			result, err = readNotification(r, id, limit)
			if err == nil && whole {
				err = r.atEnd()
			}
			c.bytes.Add(r.offset() - before)
		}
		if err != nil {
			select {
			case <-s.stop: // closed by Close: not a failure
			default:
				s.err = fmt.Errorf("scan: subscription %s: %w", s.ID, err)
			}
			return
		}
		select {
		case s.c <- result:
		case <-s.stop:
			return
		}
	}
}

// Err returns why C was closed: nil while the subscription runs and after
// Close.
func (s *Subscription) Err() error {
	select {
	case <-s.exited:
		return s.err
	default:
		return nil
	}
}

// Close ends the subscription by closing its connection, and returns once
// C is closed.
func (s *Subscription) Close() error {
	var err error
	s.once.Do(func() {
		close(s.stop)
		err = s.cn.close()
		<-s.exited
	})
	return err
}

// readNotification reads one eth_subscription notification for the
// subscription id and returns its result, compact, at most limit bytes.
// Members other than method and params are skipped.
func readNotification(r *jsonReader, id string, limit int) ([]byte, error) {
	var result []byte
	method := false
	err := r.members(1, notificationMembers, func(i int) error {
		var err error
		switch i {
		case 0:
			method, err = true, r.want("eth_subscription")
		case 1:
			result, err = r.notificationParams(id, limit)
		default:
			err = r.value(1)
		}
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case !method || result == nil:
		return nil, errors.New("a message that is not an eth_subscription notification")
	}
	return result, nil
}

var (
	notificationMembers = []string{"method", "params"}
	paramsMembers       = []string{"subscription", "result"}
)

// notificationParams reads the params of a notification: the
// subscription id, which must be id, and the result.
func (r *jsonReader) notificationParams(id string, limit int) ([]byte, error) {
	var result []byte
	sub := false
	err := r.members(2, paramsMembers, func(i int) error {
		switch i {
		case 0:
			sub = true
			return r.want(id)
		case 1:
			var c capture
			err := r.keep(&c, limit, 2)
			if errors.Is(err, errTooLarge) {
				return fmt.Errorf("a notification larger than its limit of %s", size(limit))
			}
			if err == nil {
				result = c.appendTo(make([]byte, 0, c.n))
			}
			return err
		}
		return r.value(2)
	})
	if err == nil && (!sub || result == nil) {
		err = errors.New("a notification without a subscription id or a result")
	}
	return result, err
}

// want reads a string that must be s.
func (r *jsonReader) want(s string) error {
	c, err := r.peek()
	if err != nil {
		return err
	}
	if c != '"' {
		return r.bad("%q where the string %q belongs", c, s)
	}
	got, n, err := r.text(nil, len(s)+1)
	if err != nil {
		return err
	}
	if n != int64(len(s)) || string(got) != s {
		return fmt.Errorf("%s where %q belongs", untrusted.Quote(got), s)
	}
	return nil
}
