package verify

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// checkEthBlocks checks each block with package ethlogs: the header RLP
// hashes to the block hash and carries its bloom and receipts root; the
// bloom's popcount; and, where the file has them, the receipts (decoded
// from their consensus bytes, root and blooms verified), the bloom rebuilt
// from the logs, the logs' derived fields, and every log's address and
// topics positive in the header bloom.
func checkEthBlocks(data []byte) ([]Result, error) {
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Blocks))
	for i, b := range f.Blocks {
		detail, err := checkEthBlock(&b)
		out[i] = result(fmt.Sprintf("block %d", b.Number), err, detail)
	}
	return out, nil
}

func checkEthBlock(b *testvectors.EthBlock) (string, error) {
	h, err := checkEthHeader(b)
	if err != nil {
		return "", err
	}
	bloom := ethlogs.FromGeth(&h.Bloom)
	detail := fmt.Sprintf("header hash, bloom %d bits", bloom.Count())
	if b.Logs == nil && b.Receipts == nil {
		return detail + " (header only)", nil
	}
	logs, err := ethLogs(b.Logs)
	if err != nil {
		return "", err
	}
	if got := ethlogs.LogsBloom(logs); got != *bloom {
		return "", fmt.Errorf("bloom of the %d logs has %d bits, the header's %d", len(logs), got.Count(), bloom.Count())
	}
	if err := checkEthReceipts(b, h, logs); err != nil {
		return "", err
	}
	if err := checkLogsInBloom(logs, bloom); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s; bloom from %d logs and from %d receipts, receipts root, derived log fields, every address and topic positive in the bloom", detail, len(logs), len(b.Receipts)), nil
}

func checkEthHeader(b *testvectors.EthBlock) (*types.Header, error) {
	h, hash, err := ethlogs.DecodeHeader(b.HeaderRLP)
	switch {
	case err != nil:
		return nil, err
	case !bytes.Equal(hash[:], b.Hash):
		return nil, fmt.Errorf("keccak256(headerRlp) = %s, want %x", hash, b.Hash)
	case h.Number.Uint64() != b.Number:
		return nil, fmt.Errorf("header number %v, want %d", h.Number, b.Number)
	case !bytes.Equal(h.ParentHash[:], b.ParentHash):
		return nil, fmt.Errorf("header parentHash %s, want %x", h.ParentHash, b.ParentHash)
	case !bytes.Equal(h.Bloom[:], b.LogsBloom):
		return nil, errors.New("header logsBloom differs from the file's logsBloom")
	case !bytes.Equal(h.ReceiptHash[:], b.ReceiptsRoot):
		return nil, fmt.Errorf("header receiptsRoot %s, want %x", h.ReceiptHash, b.ReceiptsRoot)
	case ethlogs.FromGeth(&h.Bloom).Count() != b.BloomBitsSet:
		return nil, fmt.Errorf("bloom has %d bits set, want %d", ethlogs.FromGeth(&h.Bloom).Count(), b.BloomBitsSet)
	}
	return h, nil
}

// checkEthReceipts decodes the raw receipts, compares them with the file's
// fields, verifies them against the header and compares the logs they
// yield, derived fields included, with the file's logs.
func checkEthReceipts(b *testvectors.EthBlock, h *types.Header, want []*types.Log) error {
	raws := make([][]byte, len(b.Receipts))
	for i, r := range b.Receipts {
		raws[i] = r.Raw
	}
	rs, err := ethlogs.DecodeReceipts(raws)
	if err != nil {
		return err
	}
	if len(rs) != b.TxCount {
		return fmt.Errorf("%d receipts, want %d", len(rs), b.TxCount)
	}
	for i, r := range rs {
		if err := compareReceipt(r, &b.Receipts[i]); err != nil {
			return fmt.Errorf("receipt %d: %w", i, err)
		}
		rs[i].TxHash = common.BytesToHash(b.Receipts[i].TransactionHash)
	}
	if err := ethlogs.VerifyReceipts(h, rs); err != nil {
		return err
	}
	got := ethlogs.Logs(h, rs)
	if len(got) != len(want) || len(got) != b.LogCount {
		return fmt.Errorf("receipts hold %d logs, the file lists %d, logCount %d", len(got), len(want), b.LogCount)
	}
	for i := range got {
		if err := compareLog(got[i], want[i]); err != nil {
			return fmt.Errorf("log %d: %w", i, err)
		}
	}
	return nil
}

func compareReceipt(r *types.Receipt, want *testvectors.EthReceipt) error {
	bloom := ethlogs.ReceiptBloom(r)
	switch {
	case r.Type != want.Type:
		return fmt.Errorf("type %d, want %d", r.Type, want.Type)
	case want.Status != nil && (r.PostState != nil || r.Status != *want.Status):
		return fmt.Errorf("status %d, want %d", r.Status, *want.Status)
	case want.Status == nil && !bytes.Equal(r.PostState, want.PostState):
		return fmt.Errorf("postState %x, want %x", r.PostState, want.PostState)
	case r.CumulativeGasUsed != want.CumulativeGasUsed:
		return fmt.Errorf("cumulativeGasUsed %d, want %d", r.CumulativeGasUsed, want.CumulativeGasUsed)
	case len(r.Logs) != want.LogCount:
		return fmt.Errorf("%d logs, want %d", len(r.Logs), want.LogCount)
	case !bytes.Equal(bloom[:], want.LogsBloom):
		return fmt.Errorf("bloom rebuilt from its logs (%d bits) differs from its logsBloom", bloom.Count())
	}
	return nil
}

func compareLog(got, want *types.Log) error {
	switch {
	case got.Address != want.Address || !equalTopics(got.Topics, want.Topics) || !bytes.Equal(got.Data, want.Data):
		return errors.New("address, topics or data differ from the file's")
	case got.TxIndex != want.TxIndex || got.Index != want.Index || got.TxHash != want.TxHash:
		return fmt.Errorf("transactionIndex %d logIndex %d transactionHash %s, want %d %d %s",
			got.TxIndex, got.Index, got.TxHash, want.TxIndex, want.Index, want.TxHash)
	}
	return nil
}

func equalTopics(a, b []common.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkLogsInBloom requires every log to pass the header bloom through a
// compiled query for exactly its address and topics, and each of its values
// to test positive alone: a bloom has no false negatives.
func checkLogsInBloom(logs []*types.Log, bloom *ethlogs.Bloom) error {
	for i, l := range logs {
		q := ethlogs.Query{Addresses: []common.Address{l.Address}}
		for _, t := range l.Topics {
			q.Topics = append(q.Topics, []common.Hash{t})
		}
		if !q.Match(l) {
			return fmt.Errorf("log %d does not match the query built from it", i)
		}
		if !q.Compile().Test(bloom) || !bloom.Test(l.Address[:]) {
			return fmt.Errorf("log %d: address %s not in the header bloom", i, l.Address)
		}
		for j, t := range l.Topics {
			if !bloom.Test(t[:]) {
				return fmt.Errorf("log %d: topic %d %s not in the header bloom", i, j, t)
			}
		}
	}
	return nil
}

func ethLogs(in []testvectors.EthLog) ([]*types.Log, error) {
	logs := make([]*types.Log, len(in))
	for i, l := range in {
		if len(l.Address) != common.AddressLength {
			return nil, fmt.Errorf("log %d: address of %d bytes", i, len(l.Address))
		}
		out := &types.Log{Address: common.BytesToAddress(l.Address), Data: l.Data, TxIndex: l.TransactionIndex,
			TxHash: common.BytesToHash(l.TransactionHash), Index: l.LogIndex}
		for j, t := range l.Topics {
			if len(t) != common.HashLength {
				return nil, fmt.Errorf("log %d: topic %d of %d bytes", i, j, len(t))
			}
			out.Topics = append(out.Topics, common.BytesToHash(t))
		}
		logs[i] = out
	}
	return logs, nil
}

// checkEthBloom9 checks go-ethereum's bloom9 expectations and the bit
// positions of each listed value with ethlogs.Bloom and ethlogs.ValueOf.
func checkEthBloom9(data []byte) ([]Result, error) {
	f, err := testvectors.ParseEthBloom9(data)
	if err != nil {
		return nil, err
	}
	var out []Result
	if f.TestBloom != nil {
		out = append(out, result("TestBloom", checkBloomBasic(f.TestBloom), "added values test true, others false, bloom equal"))
	}
	if f.Extensive != nil {
		out = append(out, result("TestBloomExtensively", checkBloomExtensive(f.Extensive), "keccak256 of the bloom, bits set, bloom equal"))
	}
	if f.CreateBloom != nil {
		out = append(out, result("BenchmarkCreateBloom_rSmall", checkCreateBloom(f.CreateBloom), "receipt blooms, merged bloom and its keccak256"))
	}
	for _, p := range f.BitPositions {
		name := fmt.Sprintf("bits of %s 0x%s", p.Label, clipHex(p.Input))
		out = append(out, result(name, checkBitPositions(&p), "keccak256, three bits with byte and mask, bloom of the value alone"))
	}
	return out, nil
}

func checkBloomBasic(v *testvectors.Bloom9Basic) error {
	var b ethlogs.Bloom
	for _, s := range v.Add {
		b.Add([]byte(s))
	}
	for _, s := range v.ExpectTrue {
		if !b.Test([]byte(s)) {
			return fmt.Errorf("Test(%q) = false, want true", s)
		}
	}
	for _, s := range v.ExpectFalse {
		if b.Test([]byte(s)) {
			return fmt.Errorf("Test(%q) = true, want false", s)
		}
	}
	return equalBloom("bloom", &b, v.ComputedBloom)
}

func checkBloomExtensive(v *testvectors.Bloom9Extensive) error {
	inputs, err := v.Inputs()
	if err != nil {
		return err
	}
	var b ethlogs.Bloom
	for _, in := range inputs {
		b.Add(in)
	}
	if got := crypto.Keccak256(b[:]); !bytes.Equal(got, v.ExpectedKeccak) {
		return fmt.Errorf("keccak256(bloom) = %x, want %x", got, v.ExpectedKeccak)
	}
	if v.ComputedBits != 0 && b.Count() != v.ComputedBits {
		return fmt.Errorf("%d bits set, want %d", b.Count(), v.ComputedBits)
	}
	return equalBloom("bloom", &b, v.ComputedBloom)
}

func checkCreateBloom(v *testvectors.Bloom9CreateBloom) error {
	rs := make(types.Receipts, len(v.Receipts))
	for i, addrs := range v.Receipts {
		rs[i] = &types.Receipt{}
		for _, a := range addrs {
			rs[i].Logs = append(rs[i].Logs, &types.Log{Address: common.BytesToAddress(a)})
		}
		if i < len(v.ComputedReceiptBlooms) {
			b := ethlogs.ReceiptBloom(rs[i])
			if err := equalBloom(fmt.Sprintf("receipt %d bloom", i), &b, v.ComputedReceiptBlooms[i]); err != nil {
				return err
			}
		}
	}
	merged := ethlogs.BlockBloom(rs)
	if got := crypto.Keccak256(merged[:]); !bytes.Equal(got, v.ExpectedKeccak) {
		return fmt.Errorf("keccak256(merged bloom) = %x, want %x", got, v.ExpectedKeccak)
	}
	return equalBloom("merged bloom", &merged, v.ComputedMergedBloom)
}

func checkBitPositions(p *testvectors.Bloom9BitPositions) error {
	if got := crypto.Keccak256(p.Input); !bytes.Equal(got, p.Keccak) {
		return fmt.Errorf("keccak256 = %x, want %x", got, p.Keccak)
	}
	v := ethlogs.ValueOf(p.Input)
	var alone ethlogs.Bloom
	alone.AddValue(v)
	for i, bit := range v.Bits() {
		want := p.Bits[i]
		byteIndex, mask := ethlogs.BloomLength-1-int(bit/8), uint32(1)<<(bit%8)
		if bit != want.Bit || byteIndex != want.ByteIndex || mask != uint32(want.Mask) || alone[byteIndex]&byte(mask) == 0 {
			return fmt.Errorf("bit %d = %d (byte %d mask %#02x), want %d (byte %d mask %#02x)",
				i, bit, byteIndex, mask, want.Bit, want.ByteIndex, uint32(want.Mask))
		}
	}
	return equalBloom("bloom of the value alone", &alone, p.Bloom)
}

// equalBloom compares with an expected bloom; an absent one is skipped.
func equalBloom(what string, got *ethlogs.Bloom, want []byte) error {
	if want != nil && !bytes.Equal(got[:], want) {
		return fmt.Errorf("%s has %d bits, differs from the expected one", what, got.Count())
	}
	return nil
}

func clipHex(b []byte) string {
	s := hex.EncodeToString(b)
	if len(s) > 16 {
		return s[:8] + "…" + s[len(s)-8:]
	}
	return s
}
