package scan

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// growAfter is how many accepted requests in a row let a batch limit grow
// again after a provider refused a larger one.
const growAfter = 8

// limit is an adaptive cap on the calls per request, and on the calls
// (or blocks) per job of a scan: halved when a provider refuses a request
// as too large, grown by a quarter after growAfter accepted requests in a
// row, never above max. It also learns how large a call's result has been
// lately and keeps a job to a quarter of the client's budget at that
// size, so that jobs of large blocks are fetched a few at a time; before
// any answer it is 1, as the first answers may be as large as a call's
// limit.
type limit struct {
	max     int64
	ok      atomic.Int64 // accepted in a row
	v       atomic.Int64 // the cap
	perCall atomic.Int64 // a decaying maximum of the bytes of a call's result; 0: no answer yet
	budget  atomic.Int64 // the bytes a job may hold
}

func newLimit(start, max int) *limit {
	l := &limit{max: int64(max)}
	l.v.Store(int64(min(start, max)))
	l.budget.Store(DefaultBudget)
	return l
}

func (l *limit) get() int {
	v := max(1, l.v.Load())
	if per := l.perCall.Load(); per > 0 {
		return int(max(1, min(v, l.budget.Load()/4/per)))
	}
	return 1
}

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

// expect returns the room to set aside for the answers to n calls: twice
// what they have lately been, at least a chunk; all the job's own, when
// there is nothing to go by or grow asks for it.
func (l *limit) expect(n, own int, grow bool) int {
	per := l.perCall.Load()
	if grow || per == 0 {
		return own
	}
	return int(min(int64(own), max(chunkSize, 2*int64(n)*per)))
}

// observe records that n calls' results held bytes in all.
func (l *limit) observe(bytes, n int) {
	per := int64(bytes/max(1, n)) + 1
	for {
		old := l.perCall.Load()
		if l.perCall.CompareAndSwap(old, max(per, old-old/8)) {
			return
		}
	}
}

// accepted counts a request answered in full.
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

// send makes calls, part of a job of a scan, in requests of at most l
// calls. A request the provider refuses as too large, as a whole or in
// any of its answers, is split in halves and l shrinks; a single call
// refused so (a provider's rate limit, error -32005) is retried with
// backoff. Other errors are left in the calls, or returned for the
// request as a whole.
//
// The answers a job holds stay within the client's budget, and those of
// the jobs running at once within their [pool]: each request may bring
// what is left. A request whose answers outgrow that keeps the answers
// that came and asks the others again in smaller requests, waiting for
// room where other jobs hold it; a job whose answers do not fit its own
// budget fails with a [*TooLargeError] naming the calls.
func (s *scanner) send(ctx context.Context, calls []Call, l *limit) error {
	budget := s.client.budget()
	l.budget.Store(int64(budget))
	j := jobOf(ctx)
	if j == nil { // not in a pipeline: a job of its own
		j = &job{p: newPool()}
	}
	pending := make([]int, len(calls))
	for i := range pending {
		pending[i] = i
	}
	var sub []Call
	attempt, grow := 0, false
	for len(pending) > 0 {
		n := min(len(pending), l.get())
		own := budget - j.held
		room, err := j.reserve(ctx, budget, l.expect(n, own, grow), grow)
		if err != nil {
			return err
		}
		sub = sub[:0]
		for _, i := range pending[:n] {
			sub = append(sub, Call{Method: calls[i].Method, Params: calls[i].Params, Limit: calls[i].Limit})
		}
		err = s.client.batch(ctx, sub, room)
		if err == nil {
			err = refusal(sub)
		}
		var te *TooLargeError
		over := errors.As(err, &te) && te.Budget
		size := 0
		if err == nil || over {
			pending, size = keep(calls, sub, pending, n)
			l.observe(size, n)
		}
		j.settle(room, size)
		switch {
		case err == nil:
			l.accepted()
			attempt, grow = 0, false
		case over && room < own:
			grow = true // the room set aside was too small: ask with all the job's
		case over && n == 1:
			return &TooLargeError{Request: describe(calls), Limit: budget, Calls: len(calls), Budget: true}
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
			r := Retry{Request: describe(sub), Err: err, Attempt: attempt, Attempts: s.client.Retry.attempts(), Wait: wait}
			if err := s.client.pause(ctx, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// keep moves the answers sub brought for the first n pending calls into
// calls, and returns the calls still pending and the bytes of the
// results kept.
func keep(calls, sub []Call, pending []int, n int) ([]int, int) {
	rest := make([]int, 0, len(pending))
	size := 0
	for j, i := range pending[:n] {
		if sub[j].Result == nil && sub[j].Err == nil {
			rest = append(rest, i)
			continue
		}
		calls[i].Result, calls[i].Err = sub[j].Result, sub[j].Err
		size += len(sub[j].Result)
	}
	return append(rest, pending[n:]...), size
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
