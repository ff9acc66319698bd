package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

// Backoff is how long to wait between attempts of a request that failed in
// a way worth retrying. The zero value is 8 attempts, waits doubling from
// 200 ms to at most 5 s (about 20 s in all), jittered by up to a quarter.
type Backoff struct {
	Attempts int           // tries in all, including the first
	Base     time.Duration // first wait
	Max      time.Duration // longest wait, also the cap on Retry-After
}

// Retry is a failed request about to be repeated, as [Client.OnRetry]
// sees it.
type Retry struct {
	Request  string        // the call, or the first and last calls of a batch
	Err      error         // why the attempt failed; a node's text in it is escaped
	Attempt  int           // the attempt that failed, from 1
	Attempts int           // attempts in all
	Wait     time.Duration // before the next attempt
}

// String writes r as one line: what failed, attempt n of m, the wait.
func (r Retry) String() string {
	return fmt.Sprintf("%s failed (attempt %d of %d): %v; retrying in %v",
		r.Request, r.Attempt, r.Attempts, r.Err, r.Wait.Round(time.Millisecond))
}

// attempts is the number of tries in all.
func (b Backoff) attempts() int {
	if b.Attempts <= 0 {
		return 8
	}
	return b.Attempts
}

// next returns the wait after a failed attempt (1 for the first), and
// false when err is not worth retrying or the attempts are used up.
func (b Backoff) next(attempt int, err error) (time.Duration, bool) {
	attempts, base, most := b.attempts(), b.Base, b.Max
	if base == 0 {
		base = 200 * time.Millisecond
	}
	if most == 0 {
		most = 5 * time.Second
	}
	if attempt >= attempts || !transient(err) {
		return 0, false
	}
	wait := base << min(attempt-1, 20)
	wait += time.Duration(rand.Int64N(int64(wait)/4 + 1))
	var he *HTTPError
	if errors.As(err, &he) && he.RetryAfter > wait {
		wait = he.RetryAfter
	}
	return min(wait, most), true
}

// transient reports whether a failed request may succeed when repeated: a
// timeout, a refused or broken connection (a node restarting), HTTP 429 or
// a 5xx answer. Every transport error from net/http is a net.Error.
func transient(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Status == http.StatusTooManyRequests || he.Status >= 500
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF)
}
