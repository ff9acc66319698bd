package privacy

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/compactsize"
	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/testvectors"
)

// The embedded files the report measures.
const (
	fileBIP158Table  = "bip158/testnet-19.json"
	fileBIP158Blocks = "bip158/synthetic-blocks.json"
	fileGCSRaw       = "bip158/raw-gcs.json"
	fileMerkleBlocks = "bip37/merkle_blocks.json"
	fileEthHeaders   = "ethlogs/mainnet-headers-portal.json"
)

// basicBlock is one block with its BIP158 basic filter, rebuilt with
// package gcs and checked against the published bytes.
type basicBlock struct {
	name        string
	blockBytes  int
	n           int // distinct elements
	filterBytes int
}

// prefixBytes returns the length of the filter's CompactSize N.
func (b basicBlock) prefixBytes() int { return compactsize.Len(uint64(b.n)) }

// basicBlocks returns the official BIP158 testnet blocks (bip158/testnet-19.json).
func basicBlocks() ([]basicBlock, error) {
	data, err := testvectors.Read(fileBIP158Table)
	if err != nil {
		return nil, err
	}
	rows, err := testvectors.ParseBIP158Table(data)
	if err != nil {
		return nil, err
	}
	out := make([]basicBlock, len(rows))
	for i, r := range rows {
		if out[i], err = rebuildBasic(fmt.Sprintf("testnet %d", r.Height), r.Block, r.PrevOutputScripts, r.Filter); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rebuildBasic builds a block's basic filter and checks it against the
// published one.
func rebuildBasic(name string, raw testvectors.Hex, prev []testvectors.Hex, published []byte) (basicBlock, error) {
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(raw)); err != nil {
		return basicBlock{}, fmt.Errorf("privacy: %s: %w", name, err)
	}
	scripts := make([][]byte, len(prev))
	for i, s := range prev {
		scripts[i] = s
	}
	f, err := gcs.CheckBasic(&block, scripts, published)
	if err != nil {
		return basicBlock{}, fmt.Errorf("privacy: %s: %w", name, err)
	}
	return basicBlock{name: name, blockBytes: len(raw), n: f.Len(), filterBytes: len(f.Bytes())}, nil
}

// coreBenchFilter returns the size in bytes and N of the published
// 10,000-element Golomb-coded set of Bitcoin Core's GCS benchmark
// (bip158/raw-gcs.json), rebuilt with package gcs and checked against the
// published length.
func coreBenchFilter() (n, size int, err error) {
	data, err := testvectors.Read(fileGCSRaw)
	if err != nil {
		return 0, 0, err
	}
	f, err := testvectors.ParseGCSRaw(data)
	if err != nil {
		return 0, 0, err
	}
	for _, v := range f.GCS {
		if v.FilterLen == 0 || !strings.HasPrefix(v.Name, "core-bench") {
			continue
		}
		return rebuildRaw(v)
	}
	return 0, 0, fmt.Errorf("privacy: %s has no core-bench vector", fileGCSRaw)
}

func rebuildRaw(v testvectors.GCSRawVector) (n, size int, err error) {
	els, err := v.GenerateElements()
	if err != nil {
		return 0, 0, err
	}
	built, err := gcs.Build(gcs.Params{P: v.P, M: v.M}, gcs.Key(v.Key), els)
	if err != nil {
		return 0, 0, err
	}
	if len(built.Bytes()) != v.FilterLen {
		return 0, 0, fmt.Errorf("privacy: %s: rebuilt %d bytes, published %d", v.Name, len(built.Bytes()), v.FilterLen)
	}
	return built.Len(), v.FilterLen, nil
}

// merkleSizes are BIP37 message sizes measured on the real mainnet block of
// Bitcoin Core's merkle_block_1 test (bip37/merkle_blocks.json).
type merkleSizes struct {
	txs        int
	blockBytes int
	noMatch    int // merkleblock payload when nothing matches
	oneMatch   int // merkleblock payload proving one transaction
	oneTx      int // that transaction, serialised without witness
}

// measureMerkle builds merkle blocks over the vector's block with package
// bip37: with an empty filter of the wallet filter's shape, which matches
// nothing, and with the vector's first step, whose size is compared with
// the published derivation.
func measureMerkle(wallet *bip37.Filter) (merkleSizes, error) {
	data, err := testvectors.Read(fileMerkleBlocks)
	if err != nil {
		return merkleSizes{}, err
	}
	f, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil || len(f.Vectors) == 0 || len(f.Vectors[0].Steps) == 0 {
		return merkleSizes{}, fmt.Errorf("privacy: %s: no merkle block vector (%v)", fileMerkleBlocks, err)
	}
	v := f.Vectors[0]
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(v.Block)); err != nil {
		return merkleSizes{}, fmt.Errorf("privacy: %s: %w", v.Name, err)
	}
	s := merkleSizes{txs: len(block.Transactions), blockBytes: len(v.Block)}
	empty, err := bip37.Load(make([]byte, wallet.Size()), wallet.HashFuncs(), wallet.Tweak(), wallet.Flags())
	if err != nil {
		return merkleSizes{}, err
	}
	msg, matches := bip37.NewMerkleBlock(&block, empty)
	if len(matches) != 0 {
		return merkleSizes{}, fmt.Errorf("privacy: %s: an empty filter matches %d transactions", v.Name, len(matches))
	}
	s.noMatch = len(bip37.AppendMerkleBlock(nil, msg))
	return s, measureFirstStep(&s, &block, v)
}

// measureFirstStep builds the merkle block of the vector's first step.
func measureFirstStep(s *merkleSizes, block *wire.MsgBlock, v testvectors.BIP37MerkleBlockVector) error {
	fl, err := bip37.New(v.Filter.Elements, v.Filter.FPRate, v.Filter.Tweak, bip37.Flags(v.Filter.Flags))
	if err != nil {
		return err
	}
	step := v.Steps[0]
	for _, in := range step.Insert {
		fl.Add(in.Element)
	}
	msg, matches := bip37.NewMerkleBlock(block, fl)
	enc := bip37.AppendMerkleBlock(nil, msg)
	if want := step.DerivedMerkleBlock; len(want) > 0 && !bytes.Equal(enc, want) {
		return fmt.Errorf("privacy: %s: merkle block differs from the vector's", v.Name)
	}
	if len(matches) != 1 {
		return fmt.Errorf("privacy: %s: %d matches, want 1", v.Name, len(matches))
	}
	var tx bytes.Buffer
	block.Transactions[matches[0].Index].SerializeNoWitness(&tx)
	s.oneMatch, s.oneTx = len(enc), tx.Len()
	return nil
}

// ethBlock is one real Ethereum mainnet block: its header bloom, and the
// header and receipt sizes where the files hold them.
type ethBlock struct {
	number       uint64
	logs         int
	bloom        ethlogs.Bloom
	headerBytes  int
	receiptBytes int // 0 when only the header is embedded
	distinct     int // distinct addresses and topics of its logs; 0 when unknown
}

// ethBlocks returns every embedded mainnet block once, by number: the
// header-only summary, completed with receipts and logs from the full files.
func ethBlocks() ([]ethBlock, error) {
	byNumber := map[uint64]*ethBlock{}
	for _, name := range testvectors.Files() {
		if !strings.HasPrefix(name, "ethlogs/mainnet-") {
			continue
		}
		if err := readEthFile(name, byNumber); err != nil {
			return nil, err
		}
	}
	out := make([]ethBlock, 0, len(byNumber))
	for _, b := range byNumber {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b ethBlock) int { return int(a.number) - int(b.number) })
	return out, nil
}

func readEthFile(name string, byNumber map[uint64]*ethBlock) error {
	data, err := testvectors.Read(name)
	if err != nil {
		return err
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		return fmt.Errorf("privacy: %s: %w", name, err)
	}
	for _, b := range f.Blocks {
		e := byNumber[b.Number]
		if e == nil {
			e = &ethBlock{number: b.Number, logs: b.LogCount, headerBytes: len(b.HeaderRLP)}
			copy(e.bloom[:], b.LogsBloom)
			byNumber[b.Number] = e
		}
		if len(b.Receipts) > 0 {
			e.receiptBytes, e.distinct = receiptBytes(b.Receipts), distinctValues(b.Logs)
		}
	}
	return nil
}

func receiptBytes(rs []testvectors.EthReceipt) int {
	n := 0
	for _, r := range rs {
		n += len(r.Raw)
	}
	return n
}

// distinctValues counts the distinct byte strings a block's logs add to its
// bloom: every log's address and topics.
func distinctValues(logs []testvectors.EthLog) int {
	seen := map[string]bool{}
	for _, l := range logs {
		seen[string(l.Address)] = true
		for _, t := range l.Topics {
			seen[string(t)] = true
		}
	}
	return len(seen)
}
