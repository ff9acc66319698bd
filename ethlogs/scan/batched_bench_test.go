package scan_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// The batched client's shape: what a competent client on go-ethereum's
// types does without an index of its own.
const (
	batchedHeaders  = 200 // headers per request, geth's default batch limit is 1,000
	batchedInFlight = 4   // requests in flight, as the scan's default Concurrency
)

// gethPrefilter is go-ethereum's bloom prefilter (eth/filters) with each
// value hashed once per query: a one-value types.Bloom per value, whose set
// bytes are then tested on every header.
type gethPrefilter struct {
	addresses []types.Bloom
	topics    [][]types.Bloom
}

func newGethPrefilter(q *ethlogs.Query) *gethPrefilter {
	one := func(b []byte) types.Bloom {
		var bl types.Bloom
		bl.Add(b)
		return bl
	}
	p := &gethPrefilter{}
	for _, a := range q.Addresses {
		p.addresses = append(p.addresses, one(a.Bytes()))
	}
	for _, pos := range q.Topics {
		var vs []types.Bloom
		for _, t := range pos {
			vs = append(vs, one(t.Bytes()))
		}
		p.topics = append(p.topics, vs)
	}
	return p
}

// anyOf reports whether h holds every bit of one of vs; an empty vs matches.
func anyOf(h *types.Bloom, vs []types.Bloom) bool {
	if len(vs) == 0 {
		return true
	}
	for i := range vs {
		ok := true
		for j, m := range vs[i] {
			if m != 0 && h[j]&m != m {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (p *gethPrefilter) pass(h *types.Bloom) bool {
	if !anyOf(h, p.addresses) {
		return false
	}
	for _, vs := range p.topics {
		if !anyOf(h, vs) {
			return false
		}
	}
	return true
}

// batchedScan is the competent client of BenchmarkScan: go-ethereum's RPC
// client and types, headers in batches of batchedHeaders with
// batchedInFlight requests in flight, each batch's bloom candidates'
// receipts fetched in one more batch as soon as its headers are in,
// verified against their header (ethlogs.VerifyReceipts, as naive does)
// and matched; parent links checked over the whole range at the end. It
// returns the logs found and the candidate blocks.
func batchedScan(b *testing.B, url string, q *ethlogs.Query, head uint64) (int, []uint64) {
	ctx := context.Background()
	client, err := rpc.DialHTTP(url)
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	pre := newGethPrefilter(q)
	headers := make([]*types.Header, head+1)
	type result struct {
		logs  int
		cands []uint64
	}
	batches := int(head/batchedHeaders) + 1
	results := make([]result, batches)
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	fail := func(err error) {
		mu.Lock()
		if failed == nil {
			failed = err
		}
		mu.Unlock()
	}
	for range batchedInFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				lo := uint64(k) * batchedHeaders
				hi := min(lo+batchedHeaders-1, head)
				elems := make([]rpc.BatchElem, hi-lo+1)
				hs := make([]types.Header, len(elems))
				for i := range elems {
					elems[i] = rpc.BatchElem{Method: "eth_getHeaderByNumber", Args: []any{fmt.Sprintf("%#x", lo+uint64(i))}, Result: &hs[i]}
				}
				if err := client.BatchCallContext(ctx, elems); err != nil {
					fail(err)
					continue
				}
				var cands []*types.Header
				for i := range elems {
					if elems[i].Error != nil {
						fail(elems[i].Error)
						break
					}
					headers[lo+uint64(i)] = &hs[i]
					if pre.pass(&hs[i].Bloom) {
						cands = append(cands, &hs[i])
					}
				}
				if len(cands) == 0 {
					continue
				}
				relems := make([]rpc.BatchElem, len(cands))
				rss := make([]types.Receipts, len(cands))
				for i, h := range cands {
					relems[i] = rpc.BatchElem{Method: "eth_getBlockReceipts", Args: []any{h.Hash()}, Result: &rss[i]}
				}
				if err := client.BatchCallContext(ctx, relems); err != nil {
					fail(err)
					continue
				}
				r := result{}
				for i, h := range cands {
					if relems[i].Error != nil {
						fail(relems[i].Error)
						break
					}
					if err := ethlogs.VerifyReceipts(h, rss[i]); err != nil {
						fail(err)
						break
					}
					r.logs += len(q.Filter(nil, ethlogs.Logs(h, rss[i])))
					r.cands = append(r.cands, h.Number.Uint64())
				}
				results[k] = r
			}
		}()
	}
	for k := range batches {
		work <- k
	}
	close(work)
	wg.Wait()
	if failed != nil {
		b.Fatal(failed)
	}
	for n := uint64(1); n <= head; n++ {
		if headers[n].ParentHash != headers[n-1].Hash() {
			b.Fatalf("block %d does not link", n)
		}
	}
	logs := 0
	var cands []uint64
	for _, r := range results {
		logs += r.logs
		cands = append(cands, r.cands...)
	}
	return logs, cands
}

// boundBodies are the requests of a scan of blocks 0 to head whose bloom
// candidates are cands: headers in batches of batchedHeaders, then
// receipts in batches of 50. header and receipts name the methods:
// eth_getHeaderByNumber and eth_getBlockReceipts for JSON answers,
// debug_getRawHeader and debug_getRawReceipts for RLP.
func boundBodies(head uint64, cands []uint64, header, receipts string) [][]byte {
	var bodies [][]byte
	for lo := uint64(0); lo <= head; lo += batchedHeaders {
		bodies = append(bodies, batchBody(header, lo, min(lo+batchedHeaders-1, head)+1, nil))
	}
	const perReceipts = 50
	for i := 0; i < len(cands); i += perReceipts {
		bodies = append(bodies, batchBody(receipts, 0, 0, cands[i:min(i+perReceipts, len(cands))]))
	}
	return bodies
}

// boundScan is the node's side of a scan with nothing on the client's:
// bodies sent with batchedInFlight requests in flight, each answer read
// and thrown away undecoded. It returns the bytes received.
func boundScan(b *testing.B, client *http.Client, url string, bodies [][]byte) int64 {
	work := make(chan []byte)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	var received int64
	for range batchedInFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for body := range work {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err == nil {
					var n int64
					n, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("HTTP %d", resp.StatusCode)
					}
					mu.Lock()
					received += n
					mu.Unlock()
				}
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				}
			}
		}()
	}
	for _, body := range bodies {
		work <- body
	}
	close(work)
	wg.Wait()
	if failed != nil {
		b.Fatal(failed)
	}
	return received
}

// batchBody is a JSON-RPC batch calling method for blocks lo to hi−1, then
// for the blocks listed.
func batchBody(method string, lo, hi uint64, list []uint64) []byte {
	var buf bytes.Buffer
	buf.WriteByte('[')
	id := 0
	call := func(n uint64) {
		if id > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":["0x%s"]}`, id, method, strconv.FormatUint(n, 16))
		id++
	}
	for n := lo; n < hi; n++ {
		call(n)
	}
	for _, n := range list {
		call(n)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}
