package scan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

func TestParseBlock(t *testing.T) {
	h := common.HexToHash("0x00000000000000000000000000000000000000000000000000000000000000ab")
	tests := []struct {
		in      string
		want    scan.Block
		str     string // String(), when not in
		wantErr string
	}{
		{in: "0", want: scan.Block{}},
		{in: "19000000", want: scan.Block{Number: 19_000_000}},
		{in: "0x10", want: scan.Block{Number: 16}, str: "16"},
		{in: "earliest", want: scan.Block{Tag: scan.Earliest}},
		{in: "latest", want: scan.Block{Tag: scan.Latest}},
		{in: "safe", want: scan.Block{Tag: scan.Safe}},
		{in: "finalized", want: scan.Block{Tag: scan.Finalized}},
		{in: "latest-10", want: scan.Block{Tag: scan.Latest, Number: 10}},
		{in: "finalized-0x20", want: scan.Block{Tag: scan.Finalized, Number: 32}, str: "finalized-32"},
		{in: "latest-0", want: scan.Block{Tag: scan.Latest}, str: "latest"},
		{in: h.Hex(), want: scan.Block{Hash: h}},
		{in: "12:" + h.Hex(), want: scan.Block{Number: 12, Hash: h}},
		{in: "0xc:" + h.Hex(), want: scan.Block{Number: 12, Hash: h}, str: "12:" + h.Hex()},
		{in: "", wantErr: "is not a number"},
		{in: "pending", wantErr: "is not a number"},
		{in: "Latest", wantErr: "is not a number"},
		{in: "-1", wantErr: "is not a number"},
		{in: "earliest-1", wantErr: "nothing comes before earliest"},
		{in: "latest-", wantErr: "not a number of blocks"},
		{in: "latest-x", wantErr: "not a number of blocks"},
		{in: "latest+1", wantErr: "is not a number"},
		{in: "18446744073709551616", wantErr: "is not a number"},
		{in: "0x" + strings.Repeat("0", 63) + "g", wantErr: "32-byte hash"},
		{in: "x:" + h.Hex(), wantErr: "not a block number"},
		{in: "12:0xab", wantErr: "32-byte hash"},
		{in: "12:", wantErr: "32-byte hash"},
	}
	for _, tt := range tests {
		got, err := scan.ParseBlock(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseBlock(%q) = %v, %v, want an error with %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || *got != tt.want {
			t.Errorf("ParseBlock(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
			continue
		}
		str := tt.str
		if str == "" {
			str = tt.in
		}
		if got.String() != str {
			t.Errorf("ParseBlock(%q).String() = %q, want %q", tt.in, got.String(), str)
		}
	}
}

// demoHash returns the demo node's hash of block n.
func demoHash(t *testing.T, c *demo.Chain, n uint64) common.Hash {
	t.Helper()
	var b struct {
		Hash common.Hash `json:"hash"`
	}
	if err := scan.NewClient(c.URL).Call(t.Context(), &b, "eth_getBlockByNumber", hexNumber(n), false); err != nil {
		t.Fatal(err)
	}
	return b.Hash
}

func mustParse(t *testing.T, s string) *scan.Block {
	t.Helper()
	b, err := scan.ParseBlock(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestScanAnchors runs the demo chain (head 300, finalized 268, safe 300)
// with every form of range and anchor, and requires the blocks each form
// names, the anchor's source, the blocks after it, and exactly
// eth_getLogs' answer for the range.
func TestScanAnchors(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token, c.Contracts.Pool}}
	dir := t.TempDir()
	h150 := demoHash(t, c, 150)
	tests := []struct {
		from, to, anchor string // "": not set
		wantFrom, wantTo uint64
		wantAnchor       uint64
		source           scan.AnchorSource
		wantErr          string
	}{
		{"", "", "", 0, c.Head, c.Finalized, scan.NodeFinalized, ""},
		{"", "finalized", "", 0, c.Finalized, c.Finalized, scan.NodeFinalized, ""},
		{"finalized-8", "finalized", "", c.Finalized - 8, c.Finalized, c.Finalized, scan.NodeFinalized, ""},
		{"latest-10", "", "", c.Head - 10, c.Head, c.Finalized, scan.NodeFinalized, ""},
		{"100", "earliest", "", 0, 0, 0, 0, "after its end"},
		{"earliest", "earliest", "", 0, 0, c.Finalized, scan.NodeFinalized, ""},
		{"", "", "safe", 0, c.Head, c.Head, scan.NodeBlock, ""},
		{"", "", "latest", 0, c.Head, c.Head, scan.NodeBlock, ""},
		{"200", "latest-20", "latest-10", 200, c.Head - 20, c.Head - 10, scan.NodeBlock, ""},
		{"200", "250", "finalized", 200, 250, c.Finalized, scan.NodeFinalized, ""},
		{"200", "finalized", "finalized-8", 200, c.Finalized, c.Finalized - 8, scan.NodeBlock, ""},
		{"0", "100", "150", 0, 100, 150, scan.NodeBlock, ""},
		{"160", "180", "150", 160, 180, 150, scan.NodeBlock, ""}, // the range after the anchor
		{"0", "latest", h150.Hex(), 0, c.Head, 150, scan.GivenHash, ""},
		{"140", "150", "150:" + h150.Hex(), 140, 150, 150, scan.GivenHash, ""},
		{"earliest", "safe", "", 0, c.Head, c.Finalized, scan.NodeFinalized, ""},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("--from %q --to %q --anchor %q", tt.from, tt.to, tt.anchor)
		cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: dir}
		if tt.from != "" {
			cfg.FromBlock = mustParse(t, tt.from)
		}
		if tt.to != "" {
			cfg.ToBlock = mustParse(t, tt.to)
		}
		if tt.anchor != "" {
			cfg.Anchor.Block = mustParse(t, tt.anchor)
		}
		got, st, err := collect(t.Context(), cfg)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want an error with %q", name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if st.From != tt.wantFrom || st.To != tt.wantTo || st.AnchorNumber != tt.wantAnchor || st.AnchorSource != tt.source ||
			st.AnchorHash != demoHash(t, c, tt.wantAnchor) || st.AnchorFromNode != (tt.source != scan.GivenHash) {
			t.Errorf("%s: blocks %d to %d, anchor %d %s (source %d, from node %t); want %d to %d, anchor %d (source %d)",
				name, st.From, st.To, st.AnchorNumber, st.AnchorHash, st.AnchorSource, st.AnchorFromNode, tt.wantFrom, tt.wantTo, tt.wantAnchor, tt.source)
		}
		want := getLogs(t, c.URL, withRange(q, tt.wantFrom, tt.wantTo))
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d logs, eth_getLogs %d", name, len(got), len(want))
		}
		after, afterLogs := uint64(0), uint64(0)
		if tt.wantTo > tt.wantAnchor {
			after = tt.wantTo - tt.wantAnchor
		}
		for _, l := range got {
			if blockOf(t, l) > tt.wantAnchor {
				afterLogs++
			}
		}
		if st.Unfinalized != after || st.UnfinalizedLogs != afterLogs {
			t.Errorf("%s: %d blocks and %d logs after the anchor, want %d and %d", name, st.Unfinalized, st.UnfinalizedLogs, after, afterLogs)
		}
	}
}

// TestScanAnchorErrors: anchors the node cannot serve or that are not
// what the caller said.
func TestScanAnchorErrors(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	h150 := demoHash(t, c, 150)
	tests := []struct {
		name    string
		cfg     func(*scan.Config)
		wantErr string
	}{
		{"number and hash disagree", func(cfg *scan.Config) { cfg.Anchor.Block = &scan.Block{Number: 151, Hash: h150} }, "is block 150, not 151"},
		{"unknown hash", func(cfg *scan.Config) { cfg.Anchor.Block = scan.BlockHash(common.Hash{0xab}) }, "the node does not know block"},
		{"above the head", func(cfg *scan.Config) { cfg.Anchor.Block = scan.BlockNumber(c.Head + 1) }, "has no such block"},
		{"below genesis", func(cfg *scan.Config) { cfg.Anchor.Block = &scan.Block{Tag: scan.Latest, Number: c.Head + 1} }, "latest block is 300"},
		{"range past the head", func(cfg *scan.Config) { cfg.ToBlock = scan.BlockNumber(c.Head + 5) }, "has no such block"},
		{"range ends at a hash", func(cfg *scan.Config) { cfg.ToBlock = scan.BlockHash(h150) }, "not a hash"},
		{"tag and hash", func(cfg *scan.Config) { cfg.Anchor.Block = &scan.Block{Tag: scan.Safe, Hash: h150} }, "a tag and a hash"},
		{"unknown tag", func(cfg *scan.Config) { cfg.Anchor.Block = &scan.Block{Tag: "pending"} }, "unknown tag"},
		{"block and beacon", func(cfg *scan.Config) { cfg.Anchor.Block, cfg.Anchor.Beacon = scan.BlockNumber(1), new(beacon.Config) }, "exclude each other"},
		{"confirm-min above the endpoints", func(cfg *scan.Config) { cfg.Anchor.ConfirmMin = 1 }, "ConfirmMin 1"},
	}
	for _, tt := range tests {
		cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir()}
		tt.cfg(&cfg)
		got, _, err := collect(t.Context(), cfg)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || len(got) > 0 {
			t.Errorf("%s: %v, %d logs; want an error with %q and none", tt.name, err, len(got), tt.wantErr)
		}
	}
}

// TestScanNoFinality: a node without finality (a dev chain, a bare
// execution node) answers finalized with an error or null; the scan then
// anchors at its tip and says why.
func TestScanNoFinality(t *testing.T) {
	c := startDemo(t)
	for _, tt := range []struct{ answer, note string }{
		{`{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"finalized block not found\u001b[2J"}}`, `finalized block not found\x1b[2J`},
		{`{"jsonrpc":"2.0","id":0,"result":null}`, "null"},
	} {
		p := scantest.NewProxy(c.URL)
		p.Intercept(func(calls []scantest.Request) *scantest.Fault {
			if len(calls) == 1 && calls[0].Method == "eth_getBlockByNumber" && string(calls[0].Params[0]) == `"finalized"` {
				return &scantest.Fault{Body: tt.answer}
			}
			return nil
		})
		_, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), IndexDir: t.TempDir(), Query: ethlogs.Query{Addresses: []common.Address{c.Contracts.Anon}}})
		p.Close()
		if err != nil || st.AnchorSource != scan.NodeTip || st.AnchorNumber != c.Head || st.Unfinalized != 0 || !strings.Contains(st.AnchorNote, tt.note) || strings.ContainsRune(st.AnchorNote, 0x1b) {
			t.Errorf("finalized answered %s: %v, anchor %d (source %d), note %q; want the tip %d and a note with %q, escaped", tt.answer, err, st.AnchorNumber, st.AnchorSource, st.AnchorNote, c.Head, tt.note)
		}
	}
}

// TestScanTailReorg: an index holding blocks after the anchor that the
// node has since replaced (a reorganisation of its unfinalized tail) is
// cut back to the anchor and only the tail is fetched again; the logs are
// the node's current ones.
func TestScanTailReorg(t *testing.T) {
	c := startDemo(t)
	dir := t.TempDir()
	q := ethlogs.Query{Addresses: []common.Address{{0xee}}} // no candidates: the forged tail's receipts are never asked for
	// A proxy serving another tail: blocks from 290 on with other extra
	// data, each linked to the one before.
	const fork = 290
	forged, forgedRaw := map[uint64]json.RawMessage{}, map[uint64]json.RawMessage{}
	var parent common.Hash
	for n := uint64(fork - 1); n <= c.Head; n++ {
		var h types.Header
		if err := scan.NewClient(c.URL).Call(t.Context(), &h, "eth_getBlockByNumber", hexNumber(n), false); err != nil {
			t.Fatal(err)
		}
		if n >= fork {
			h.ParentHash, h.Extra = parent, []byte("reorganised")
			forged[n], _ = json.Marshal(&h) // with the new hash
			enc, _ := rlp.EncodeToBytes(&h)
			forgedRaw[n], _ = json.Marshal(hexutil.Bytes(enc))
		}
		parent = h.Hash()
	}
	p := scantest.NewProxy(c.URL)
	defer p.Close()
	p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if f := forgedRaw[uint64(call.Block())]; f != nil && call.Method == "debug_getRawHeader" {
			return f
		}
		if f := forged[uint64(call.Block())]; f != nil && call.Block() >= fork {
			return f
		}
		if call.Method == "eth_getBlockByNumber" && string(call.Params[0]) == `"latest"` {
			return forged[c.Head]
		}
		return result
	})
	_, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: dir})
	if err != nil || st.HeadersFetched != c.Head+1 {
		t.Fatalf("scan of the forged tail: %v, %d headers", err, st.HeadersFetched)
	}
	q = ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	got, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: dir})
	if err != nil || st.HeadersFetched != c.Head-c.Finalized || st.AnchorNumber != c.Finalized {
		t.Fatalf("rescan: %v, %d headers fetched, anchor %d; want the %d after the anchor %d fetched again", err, st.HeadersFetched, st.AnchorNumber, c.Head-c.Finalized, c.Finalized)
	}
	if want := getLogs(t, c.URL, withRange(q, 0, c.Head)); !slices.Equal(got, want) {
		t.Errorf("rescan: %d logs, eth_getLogs %d", len(got), len(want))
	}
}

// TestConfirm asks other endpoints to confirm the anchor: the same node
// twice agrees; a node with another block at the anchor's height, or
// another finalized block, is an error naming both hashes; one that does
// not answer, or has not finalized the anchor, counts against ConfirmMin.
func TestConfirm(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	anchor := demoHash(t, c, c.Finalized)
	forgedAt := func(n uint64, edit func(*types.Header)) *scantest.Proxy {
		p := scantest.NewProxy(c.URL)
		p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
			if call.Block() == int64(n) || call.Method == "eth_getBlockByNumber" && string(call.Params[0]) == `"finalized"` && n == c.Finalized {
				return scantest.Edit(result, edit)
			}
			return result
		})
		return p
	}
	other := forgedAt(c.Finalized, func(h *types.Header) { h.Extra = []byte("another chain") })
	defer other.Close()
	behind := scantest.NewProxy(c.URL) // finalized two epochs back
	behind.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if call.Method == "eth_getBlockByNumber" && string(call.Params[0]) == `"finalized"` {
			var raw json.RawMessage
			scan.NewClient(c.URL).Call(t.Context(), &raw, "eth_getBlockByNumber", hexNumber(c.Finalized-64), false)
			return raw
		}
		return result
	})
	defer behind.Close()
	liar := scantest.NewProxy(c.URL) // a block that does not hash to its hash
	liar.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if call.Block() == int64(c.Finalized) {
			return scantest.Edit(result, func(b *map[string]json.RawMessage) { (*b)["gasUsed"] = json.RawMessage(`"0x1"`) })
		}
		return result
	})
	defer liar.Close()
	down := "http://127.0.0.1:1"
	client := func(url string) *scan.Client {
		cl := scan.NewClient(url)
		cl.Retry = fastRetry
		cl.Retry.Attempts = 1
		return cl
	}
	tests := []struct {
		name      string
		endpoints []string
		min       int
		anchor    *scan.Block
		wantErr   []string // "": success
		agree     int
	}{
		{"the same node twice", []string{c.URL, c.URL}, 0, nil, nil, 2},
		{"another chain", []string{c.URL, other.URL}, 0, nil, []string{"contradicted", other.URL, anchor.Hex()}, 0},
		{"another chain, pinned anchor", []string{other.URL}, 0, scan.BlockHash(anchor), []string{"contradicted", other.URL, anchor.Hex()}, 0},
		{"unreachable", []string{c.URL, down}, 0, nil, []string{"confirmed by 1 of 2 endpoints, fewer than the 2 required", down, "no answer"}, 0},
		{"unreachable, one required", []string{c.URL, down}, 1, nil, nil, 1},
		{"not finalized there", []string{behind.URL}, 0, nil, []string{"has not finalized block 268 yet"}, 0},
		{"not finalized there, anchor finalized", []string{behind.URL}, 0, &scan.Block{Tag: scan.Finalized}, []string{"has not finalized block 268 yet"}, 0},
		{"not finalized there, anchor latest-10", []string{behind.URL}, 0, &scan.Block{Tag: scan.Latest, Number: 10}, nil, 1}, // finality is asked only of a finalized anchor
		{"a header that does not hash", []string{liar.URL, c.URL}, 1, nil, nil, 1},
	}
	for _, tt := range tests {
		cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir()}
		for _, u := range tt.endpoints {
			cfg.Anchor.Confirm = append(cfg.Anchor.Confirm, client(u))
		}
		cfg.Anchor.ConfirmMin, cfg.Anchor.Block = tt.min, tt.anchor
		got, st, err := collect(t.Context(), cfg)
		if tt.wantErr != nil {
			if err == nil || len(got) > 0 {
				t.Errorf("%s: %v, %d logs; want an error", tt.name, err, len(got))
				continue
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: %v; want it to name %q", tt.name, err, s)
				}
			}
			var ce *scan.ConfirmError
			if strings.Contains(tt.wantErr[0], "contradicted") && (!errors.As(err, &ce) || ce.Anchor != anchor || ce.Hash == anchor || !strings.Contains(err.Error(), ce.Hash.Hex())) {
				t.Errorf("%s: %v; want a ConfirmError with both hashes", tt.name, err)
			}
			continue
		}
		agree := 0
		for _, r := range st.Confirmations {
			if r.Err == nil && r.Hash == st.AnchorHash {
				agree++
			}
		}
		if err != nil || agree != tt.agree || len(st.Confirmations) != len(tt.endpoints) || len(got) == 0 {
			t.Errorf("%s: %v, %d of %d agree (%+v); want %d", tt.name, err, agree, len(st.Confirmations), st.Confirmations, tt.agree)
		}
	}
}
