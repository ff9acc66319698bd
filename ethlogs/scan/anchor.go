package scan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	gethparams "github.com/ethereum/go-ethereum/params"
)

// Anchor chooses the block a scan verifies the header chain from, and who
// vouches for it. Every header of the range is linked to the anchor by
// parent hashes computed locally, so the scan's proof is exactly as good
// as the anchor:
//
//   - zero value: the node's finalized block, or its tip where it reports
//     none (a chain without a consensus client's finality): the node's
//     word;
//   - Block: a tag, a tag less N, a number (the node's word), a hash or a
//     number and hash (the caller's word);
//   - Beacon: the execution block of the newest finalized beacon block,
//     proven by the beacon chain's sync committee from a trusted
//     checkpoint ([beacon.Anchor]); the node only serves its header, which
//     must hash to it.
//
// Confirm adds independent witnesses to any of them: each endpoint must
// report the same block at the anchor's height (and, for the node's
// finalized block, have finalized it too).
//
// Blocks of the range after the anchor are verified as a chain linked
// forward to it; they are not finalized, and [Stats] says which they are.
type Anchor struct {
	Block  *Block
	Beacon *beacon.Config // with Chain nil, chosen by the node's chain id; with StatePath "", a file in the chain's index directory

	Confirm    []*Client
	ConfirmMin int // of Confirm that must answer and agree; 0: all
}

// AnchorSource says where a scan's anchor came from.
type AnchorSource int

const (
	NodeTip       AnchorSource = iota // no anchor given, and the node reports no finalized block
	NodeFinalized                     // the node's finalized block: no anchor given, or the tag finalized
	NodeBlock                         // Anchor.Block by another tag, a tag less N, or a number: the node's word
	GivenHash                         // Anchor.Block by hash: the caller's word
	BeaconChain                       // Anchor.Beacon: proven by the beacon chain's sync committee
)

// finalizes reports whether the anchor is a finalized block: then the
// range's "finalized" tag means the anchor itself.
func (a AnchorSource) finalizes() bool { return a == NodeFinalized || a == BeaconChain }

// validate refuses an anchor no scan can use, before any request.
func (a *Anchor) validate() error {
	switch {
	case a.Block != nil && a.Beacon != nil:
		return errors.New("scan: Anchor.Block and Anchor.Beacon exclude each other")
	case a.ConfirmMin < 0 || a.ConfirmMin > len(a.Confirm):
		return fmt.Errorf("scan: Anchor.ConfirmMin %d: there are %d confirming endpoints", a.ConfirmMin, len(a.Confirm))
	}
	for _, c := range a.Confirm {
		if c == nil {
			return errors.New("scan: Anchor.Confirm holds a nil Client")
		}
	}
	if a.Block != nil {
		if err := a.Block.validate(); err != nil {
			return fmt.Errorf("scan: Anchor.Block: %v", err)
		}
	}
	return nil
}

// anchor finds the anchor block and records where it came from.
func (s *scanner) anchor(ctx context.Context) (*block, error) {
	a := s.cfg.Anchor
	switch {
	case a.Beacon != nil:
		s.stats.AnchorSource = BeaconChain
		return s.beaconAnchor(ctx)
	case a.Block == nil:
		b, err := s.tagged(ctx, Finalized)
		if note := noFinality(err); note != "" {
			s.stats.AnchorSource, s.stats.AnchorNote = NodeTip, note
			return s.tagged(ctx, Latest)
		}
		s.stats.AnchorSource = NodeFinalized
		return b, err
	case a.Block.Hash != (common.Hash{}):
		s.stats.AnchorSource = GivenHash
		n := a.Block.Number
		if n == 0 {
			n = anyNumber // a hash alone
		}
		return s.blockByHash(ctx, a.Block.Hash, n)
	case a.Block.Tag == Finalized && a.Block.Number == 0:
		s.stats.AnchorSource = NodeFinalized
		return s.tagged(ctx, Finalized)
	default:
		s.stats.AnchorSource = NodeBlock
		return s.resolveBlock(ctx, a.Block)
	}
}

// noFinality tells a node that answered without a finalized block (a
// chain with no consensus client's finality: a dev chain, pre-merge
// history, a bare execution node) from one that did not answer, and
// returns its answer, escaped; "" when it is not that.
func noFinality(err error) string {
	var re *RPCError
	switch {
	case errors.Is(err, errNoBlock):
		return "it answers null for finalized"
	case errors.As(err, &re) && !isLimit(re):
		return "it answers finalized with " + re.Error() // its message escaped where it was read
	}
	return ""
}

// resolveBlock asks the node for a block given by number, tag or tag less
// N.
func (s *scanner) resolveBlock(ctx context.Context, b *Block) (*block, error) {
	if b.Tag == "" {
		return s.fetchBlock(ctx, hexutil.Uint64(b.Number), b.Number)
	}
	t, err := s.tagged(ctx, b.Tag)
	if err != nil || b.Number == 0 {
		return t, err
	}
	top := t.header.Number.Uint64()
	if b.Number > top {
		return nil, fmt.Errorf("scan: %s: the node's %s block is %d", b, b.Tag, top)
	}
	return s.fetchBlock(ctx, hexutil.Uint64(top-b.Number), top-b.Number)
}

// tagged returns the node's block for a tag, asked once per run so that
// every use of a tag in one scan means the same block.
func (s *scanner) tagged(ctx context.Context, t Tag) (*block, error) {
	if b := s.tags[t]; b != nil {
		return b, nil
	}
	b, err := s.fetchBlock(ctx, string(t), anyNumber)
	if err != nil {
		return nil, err
	}
	if s.tags == nil {
		s.tags = map[Tag]*block{}
	}
	s.tags[t] = b
	return b, nil
}

// errNoBlock is a node answering null: it has no such block.
var errNoBlock = errors.New("the node has no such block")

// fetchBlock asks the node for one block header by tag, number or hash;
// want is its number, or anyNumber.
func (s *scanner) fetchBlock(ctx context.Context, ref any, want uint64) (*block, error) {
	method := "eth_getBlockByNumber"
	if _, ok := ref.(common.Hash); ok {
		method = "eth_getBlockByHash"
	}
	calls := []Call{{Method: method, Params: []any{ref, false}}}
	err := s.send(ctx, calls, s.headerBatch)
	if err == nil {
		err = calls[0].Err
	}
	if err == nil {
		var b *block
		if b, err = decodeAnyBlock(calls[0].Result, want); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("scan: %s(%v): %w", method, ref, err)
}

// blockByHash fetches the anchor by its hash; it must be block n, unless n
// is anyNumber.
func (s *scanner) blockByHash(ctx context.Context, h common.Hash, n uint64) (*block, error) {
	b, err := s.fetchBlock(ctx, h, anyNumber)
	if errors.Is(err, errNoBlock) {
		return nil, fmt.Errorf("scan: the anchor: the node does not know block %s (not synced to it, or another chain)", h)
	}
	if err != nil {
		return nil, err
	}
	if got := b.header.Number.Uint64(); n != anyNumber && got != n {
		return nil, fmt.Errorf("scan: %w", blockError(got, b.hash, ethlogs.ErrHeaderHash, "the anchor %s is block %d, not %d", b.hash, got, n))
	}
	return b, nil
}

// decodeAnyBlock decodes a block object and checks that its fields hash
// to the hash it claims; want is its number, or anyNumber to take the one
// it gives.
func decodeAnyBlock(raw json.RawMessage, want uint64) (*block, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errNoBlock
	}
	if want == anyNumber {
		var n struct {
			Number *hexutil.Uint64 `json:"number"`
		}
		if json.Unmarshal(raw, &n) != nil || n.Number == nil {
			return nil, fmt.Errorf("no block number in the answer %s", untrusted.Quote(raw))
		}
		want = uint64(*n.Number)
	}
	return decodeBlock(raw, want)
}

// resolveRange sets the range from From and To or FromBlock and ToBlock,
// and, when it ends after the anchor, the node's block at its end: the
// blocks between are linked forward from the anchor and must lead to it.
func (s *scanner) resolveRange(ctx context.Context, anchor uint64) error {
	from, err := s.rangeEnd(ctx, s.cfg.FromBlock, s.cfg.From, anchor)
	if err != nil {
		return err
	}
	var to uint64
	toBlock := s.cfg.ToBlock
	switch {
	case s.cfg.To != nil:
		to = *s.cfg.To
	case toBlock == nil:
		toBlock = &Block{Tag: Latest}
	}
	if to, err = s.rangeEnd(ctx, toBlock, to, anchor); err != nil {
		return err
	}
	if from > to {
		return fmt.Errorf("scan: the range starts at block %d, after its end, block %d", from, to)
	}
	if to <= anchor {
		s.stats.From, s.stats.To = from, to
		return nil
	}
	if b := s.tags[Latest]; b != nil && b.header.Number.Uint64() == to {
		s.tip = b
	} else if s.tip, err = s.fetchBlock(ctx, hexutil.Uint64(to), to); err != nil {
		return err
	}
	s.stats.From, s.stats.To, s.stats.Unfinalized = from, to, to-anchor
	return nil
}

// rangeEnd resolves one end of the range: b if set, else n. Where the
// anchor is finalized, "finalized" is the anchor itself, whatever the node
// now says.
func (s *scanner) rangeEnd(ctx context.Context, b *Block, n, anchor uint64) (uint64, error) {
	switch {
	case b == nil:
		return n, nil
	case b.Hash != (common.Hash{}):
		return 0, fmt.Errorf("scan: a range ends at a number or a tag, not a hash (%s)", b)
	case b.Tag == "":
		return b.Number, nil
	case b.Tag == Finalized && s.stats.AnchorSource.finalizes():
		if b.Number > anchor {
			return 0, fmt.Errorf("scan: %s: the finalized block is %d", b, anchor)
		}
		return anchor - b.Number, nil
	}
	r, err := s.resolveBlock(ctx, b)
	if err != nil {
		return 0, err
	}
	return r.header.Number.Uint64(), nil
}

// beaconAnchor runs the beacon light client and fetches the block it
// proves finalized from the node: by hash, and checked against every field
// of the proven execution payload. A failure of either is an error: the
// node's word is never taken instead.
func (s *scanner) beaconAnchor(ctx context.Context) (*block, error) {
	cfg := *s.cfg.Anchor.Beacon
	if cfg.Chain == nil {
		var err error
		if cfg.Chain, err = s.beaconChain(ctx); err != nil {
			return nil, err
		}
	}
	if cfg.StatePath == "" {
		cfg.StatePath = filepath.Join(s.chainDirOf(s.stats.Genesis), BeaconStateFile)
	}
	f, err := beacon.Anchor(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("scan: anchor: %w", err)
	}
	s.stats.Beacon = &f
	b, err := s.fetchBlock(ctx, f.BlockHash, anyNumber)
	if err != nil {
		return nil, fmt.Errorf("scan: the beacon chain finalized execution block %s; the node does not serve it (not synced to it, or another chain): %w", f.BlockHash, err)
	}
	if err := f.VerifyHeader(b.header); err != nil {
		return nil, fmt.Errorf("scan: %w", blockError(b.header.Number.Uint64(), b.hash, ethlogs.ErrHeaderHash, "%v", err))
	}
	return b, nil
}

// BeaconStateFile is the name of the beacon light client's state file in
// a chain's index directory, when [beacon.Config.StatePath] is not set:
// the newest finalized header accepted and the checkpoint for the next
// run.
const BeaconStateFile = "beacon-state.json"

// beaconChainOf returns the beacon configuration go-ethereum ships for an
// execution chain id (mainnet, sepolia, hoodi), or nil.
func beaconChainOf(id *big.Int) *params.ChainConfig {
	switch {
	case id.Cmp(gethparams.MainnetChainConfig.ChainID) == 0:
		return beacon.Mainnet()
	case id.Cmp(gethparams.SepoliaChainConfig.ChainID) == 0:
		return beacon.Sepolia()
	case id.Cmp(gethparams.HoodiChainConfig.ChainID) == 0:
		return beacon.Hoodi()
	}
	return nil
}

// beaconChain picks the beacon configuration by the node's chain id. The
// node cannot mislead with it: a wrong configuration fails every
// signature.
func (s *scanner) beaconChain(ctx context.Context) (*params.ChainConfig, error) {
	var id hexutil.Big
	calls := []Call{{Method: "eth_chainId"}}
	err := s.send(ctx, calls, s.headerBatch)
	if err == nil {
		err = calls[0].Err
	}
	if err == nil {
		err = json.Unmarshal(calls[0].Result, &id)
	}
	if err != nil {
		return nil, fmt.Errorf("scan: eth_chainId: %s", untrusted.Text(err.Error()))
	}
	n := (*big.Int)(&id)
	if c := beaconChainOf(n); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("scan: no beacon chain configuration is known for execution chain id %s (mainnet, sepolia and hoodi are): set beacon.Config.Chain", n)
}
