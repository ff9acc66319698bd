package scan

import (
	"context"
	"sync"
)

// pool is the budget that the jobs of one run of [ordered] share for the
// answers they hold. A job holds its answers until it returns, while it
// decodes and verifies them, and up to four run at once: each job alone
// may hold a client's budget, but together they hold one budget more,
// not four. Each request reserves room for its answer before it is sent.
// The oldest job, whose result the pipeline waits for, may always use its
// own budget in full, so it never waits for the others and the pipeline
// cannot stall; the others wait while the pool is short.
type pool struct {
	mu     sync.Mutex
	wake   sync.Cond
	size   int // bytes: the client's budget, known from the first job's first request
	used   int
	oldest uint64          // the lowest job still running
	ended  map[uint64]bool // jobs that ended after a running older one
}

func newPool() *pool {
	p := &pool{ended: map[uint64]bool{}}
	p.wake.L = &p.mu
	return p
}

// job is one job's share of its pool.
type job struct {
	p    *pool
	seq  uint64
	held int
}

type jobKey struct{}

// start returns ctx carrying job seq of p; jobs are numbered from 0 in
// the order the pipeline waits for them.
func (p *pool) start(ctx context.Context, seq uint64) context.Context {
	return context.WithValue(ctx, jobKey{}, &job{p: p, seq: seq})
}

// end returns the job's share to the pool.
func (p *pool) end(ctx context.Context) {
	j := jobOf(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.used -= j.held
	p.ended[j.seq] = true
	for p.ended[p.oldest] {
		delete(p.ended, p.oldest)
		p.oldest++
	}
	p.wake.Broadcast()
}

// jobOf returns the job ctx carries, nil outside a pipeline.
func jobOf(ctx context.Context) *job {
	j, _ := ctx.Value(jobKey{}).(*job)
	return j
}

// reserve sets aside up to want bytes (at most what the job's budget has
// left) for the job's next request and returns how many: want for the
// oldest job; for another, waiting while the pool has less than that free,
// or, with all, until it is the oldest.
func (j *job) reserve(ctx context.Context, budget, want int, all bool) (int, error) {
	p := j.p
	stop := context.AfterFunc(ctx, func() {
		p.mu.Lock()
		p.wake.Broadcast()
		p.mu.Unlock()
	})
	defer stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.size == 0 {
		p.size = budget
	}
	want = min(want, budget-j.held)
	for {
		switch {
		case ctx.Err() != nil:
			return 0, ctx.Err()
		case j.seq == p.oldest || !all && p.size-p.used >= want:
			p.used += want
			return want, nil
		}
		p.wake.Wait()
	}
}

// settle ends a reservation, of which the job keeps kept bytes.
func (j *job) settle(reserved, kept int) {
	p := j.p
	p.mu.Lock()
	defer p.mu.Unlock()
	j.held += kept
	p.used += kept - reserved
	p.wake.Broadcast()
}
