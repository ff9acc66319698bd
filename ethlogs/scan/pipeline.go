package scan

import "context"

// ordered runs fetch on the jobs next yields, at most n at once, and hands
// the results to consume one at a time in job order, so that fetching runs
// ahead while results are verified, indexed and written in block order. It
// stops at the first error, cancelling the fetches in flight, and returns
// only when all of them have returned.
func ordered[J, R any](ctx context.Context, n int, next func() (J, bool),
	fetch func(context.Context, J) (R, error), consume func(R) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type slot struct {
		r    R
		err  error
		done chan struct{}
	}
	queue := make(chan *slot, n-1) // with the one being consumed, n in flight
	p := newPool()                 // the jobs share a budget for the answers they hold
	go func() {
		defer close(queue)
		for seq := uint64(0); ; seq++ {
			j, ok := next()
			if !ok {
				return
			}
			s := &slot{done: make(chan struct{})}
			select {
			case queue <- s:
			case <-ctx.Done():
				return
			}
			go func() {
				jctx := p.start(ctx, seq)
				s.r, s.err = fetch(jctx, j)
				p.end(jctx)
				close(s.done)
			}()
		}
	}()
	var err error
	for s := range queue {
		<-s.done
		if err == nil {
			err = s.err
			if err == nil {
				err = consume(s.r)
			}
			if err != nil {
				cancel() // the rest of the queue drains as its fetches return
			}
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}
