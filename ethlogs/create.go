package ethlogs

import "github.com/ethereum/go-ethereum/core/types"

// LogsBloom returns the bloom of logs: every address and topic added, data
// never.
func LogsBloom(logs []*types.Log) Bloom {
	var b Bloom
	for _, l := range logs {
		b.AddLog(l)
	}
	return b
}

// ReceiptBloom returns the bloom receipt r must carry, rebuilt from its logs;
// r.Bloom is not read. It equals go-ethereum's types.CreateBloom(r).
func ReceiptBloom(r *types.Receipt) Bloom { return LogsBloom(r.Logs) }

// BlockBloom returns the header logsBloom of a block whose receipts are rs:
// the union of the blooms rebuilt from their logs. No receipt's Bloom field
// is trusted, unlike go-ethereum's types.MergeBloom, which ORs them as given.
func BlockBloom(rs types.Receipts) Bloom {
	var b Bloom
	for _, r := range rs {
		for _, l := range r.Logs {
			b.AddLog(l)
		}
	}
	return b
}
