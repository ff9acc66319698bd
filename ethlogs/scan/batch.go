package scan

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// growAfter is how many accepted requests in a row let a batch limit grow
// again after a provider refused a larger one.
const growAfter = 8

// limit is an adaptive cap on the calls per request: halved when a provider
// refuses a request as too large, grown by a quarter after growAfter
// accepted requests in a row, never above max.
type limit struct {
	max int64
	ok  atomic.Int64 // accepted in a row
	v   atomic.Int64 // the cap
}

func newLimit(start, max int) *limit {
	l := &limit{max: int64(max)}
	l.v.Store(int64(min(start, max)))
	return l
}

func (l *limit) get() int { return int(max(1, l.v.Load())) }

func (l *limit) shrink(refused int) {
	l.ok.Store(0)
	for {
		v := l.v.Load()
		next := max(1, min(v, int64(refused)/2))
		if l.v.CompareAndSwap(v, next) {
			return
		}
	}
}

func (l *limit) accepted() {
	if l.ok.Add(1) < growAfter {
		return
	}
	l.ok.Store(0)
	for {
		v := l.v.Load()
		next := min(l.max, v+max(1, v/4))
		if l.v.CompareAndSwap(v, next) {
			return
		}
	}
}

// send makes calls in requests of at most l calls. A request the provider
// refuses as too large, as a whole or in any of its answers, is split in
// halves and l shrinks; a single call refused so (a provider's rate limit,
// error -32005) is retried with backoff. Other errors are left in the
// calls, or returned for the request as a whole.
func (s *scanner) send(ctx context.Context, calls []Call, l *limit) error {
	return s.sendDecoded(ctx, calls, l, decodeBatch)
}

// sendDecoded is send with the answers decoded by decode.
func (s *scanner) sendDecoded(ctx context.Context, calls []Call, l *limit, decode func([]byte, []Call) error) error {
	attempt := 0
	for start := 0; start < len(calls); {
		n := min(len(calls)-start, l.get())
		chunk := calls[start : start+n]
		err := s.client.batch(ctx, chunk, decode)
		if err == nil {
			err = refusal(chunk)
		}
		switch {
		case err == nil:
			l.accepted()
			start, attempt = start+n, 0
			continue
		case !isLimit(err):
			return err
		case n > 1:
			l.shrink(n)
			s.splits.Add(1)
		default:
			attempt++
			wait, ok := s.client.Retry.next(attempt, &HTTPError{Status: 429})
			if !ok {
				return fmt.Errorf("refused %d times: %w", attempt, err)
			}
			s.client.retries.Add(1)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		for i := range chunk {
			chunk[i].Result, chunk[i].Value, chunk[i].Err = nil, nil, nil
		}
	}
	return nil
}

// refusal returns the first answer in calls that refuses a limit.
func refusal(calls []Call) error {
	for _, c := range calls {
		if c.Err != nil && isLimit(c.Err) {
			return c.Err
		}
	}
	return nil
}
