package scan

import "sync"

// chunkSize is the piece a kept value grows by, and the largest result
// kept in a shared block; arenaBlock is the largest such block.
const (
	chunkSize  = 256 << 10
	arenaBlock = 1 << 20
)

// chunks recycles the pieces of values being kept.
var chunks = sync.Pool{New: func() any { b := make([]byte, 0, chunkSize); return &b }}

// capture keeps a value as it streams in, under a limit: in pooled chunks,
// so that a value of megabytes grows without being copied as it grows
// (each copy would be garbage the size of the value), and is copied once,
// whole, when it ends.
type capture struct {
	full  []*[]byte // filled chunks
	cur   *[]byte   // the chunk being filled; nil before the first byte
	n     int       // bytes kept
	limit int
}

// reset starts a value of at most limit bytes.
func (c *capture) reset(limit int) {
	c.release()
	c.n, c.limit = 0, limit
}

func (c *capture) write(b []byte) error {
	if c.n+len(b) > c.limit {
		return errTooLarge
	}
	c.n += len(b)
	for len(b) > 0 {
		if c.cur == nil || len(*c.cur) == cap(*c.cur) {
			c.next()
		}
		k := copy((*c.cur)[len(*c.cur):cap(*c.cur)], b)
		*c.cur = (*c.cur)[:len(*c.cur)+k]
		b = b[k:]
	}
	return nil
}

func (c *capture) writeByte(b byte) error {
	if c.n >= c.limit {
		return errTooLarge
	}
	c.n++
	if c.cur == nil || len(*c.cur) == cap(*c.cur) {
		c.next()
	}
	*c.cur = append(*c.cur, b)
	return nil
}

// next starts a new chunk.
func (c *capture) next() {
	if c.cur != nil {
		c.full = append(c.full, c.cur)
	}
	c.cur = chunks.Get().(*[]byte)
	*c.cur = (*c.cur)[:0]
}

// appendTo appends the value to dst and recycles its chunks.
func (c *capture) appendTo(dst []byte) []byte {
	for _, b := range c.full {
		dst = append(dst, *b...)
	}
	if c.cur != nil {
		dst = append(dst, *c.cur...)
	}
	c.release()
	return dst
}

// pooled is how many chunks of a value are recycled; the chunks of a
// larger value are left to the collector, so that a megabyte answer does
// not keep megabytes of pooled chunks alive.
const pooled = 4

// release recycles the chunks.
func (c *capture) release() {
	for i, b := range c.full {
		if i < pooled {
			chunks.Put(b)
		}
	}
	if c.cur != nil && len(c.full) < pooled {
		chunks.Put(c.cur)
	}
	clear(c.full)
	c.full, c.cur, c.n = c.full[:0], nil, 0
}

// arena holds the results of one answer: small ones side by side in
// blocks (one allocation for hundreds of headers), each larger one in an
// allocation of its own size.
type arena struct{ block []byte }

// keep returns the value c holds, as a slice of its own capacity.
func (a *arena) keep(c *capture) []byte {
	n := c.n
	if n > chunkSize {
		return c.appendTo(make([]byte, 0, n))
	}
	if cap(a.block)-len(a.block) < n {
		// Blocks double from 64 KiB: most answers are small, and a block
		// is zeroed when made, so a large one half used costs its size.
		size := min(max(2*cap(a.block), 64<<10), arenaBlock)
		a.block = make([]byte, 0, max(size, n))
	}
	start := len(a.block)
	a.block = c.appendTo(a.block)
	return a.block[start:len(a.block):len(a.block)]
}
