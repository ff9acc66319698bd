package ethlogs

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Limits of a query, as go-ethereum's node enforces them when decoding.
const (
	MaxTopics       = 4    // topic positions
	MaxAlternatives = 1000 // values in one topic position
)

// Query selects logs with exactly the semantics of eth_getLogs:
//
//   - Addresses is an OR-list; empty means any address.
//   - Topics is positional: Topics[i] is an OR-list for the log's topic i,
//     and an empty or nil position is a wildcard. A query with more positions
//     than a log has topics rejects that log, even when the extra positions
//     are wildcards. At most [MaxTopics] positions.
//   - BlockHash selects one block; otherwise FromBlock and ToBlock bound the
//     range (nil: omitted, which the node reads as latest). Not both.
//
// A Query is plain data; [Query.Compile] turns it into a [Matcher] for
// header blooms. JSON encoding is the eth_getLogs parameter object.
type Query struct {
	BlockHash *common.Hash
	FromBlock *BlockNumber
	ToBlock   *BlockNumber
	Addresses []common.Address
	Topics    [][]common.Hash
}

// Validate reports the first rule q breaks: too many topic positions or
// alternatives, a block hash with a range, a named-block value out of range,
// or a numeric range that ends before it starts.
func (q *Query) Validate() error {
	if len(q.Topics) > MaxTopics {
		return fmt.Errorf("ethlogs: %d topic positions, at most %d", len(q.Topics), MaxTopics)
	}
	for i, pos := range q.Topics {
		if len(pos) > MaxAlternatives {
			return fmt.Errorf("ethlogs: topic position %d has %d alternatives, at most %d", i, len(pos), MaxAlternatives)
		}
	}
	if q.BlockHash != nil && (q.FromBlock != nil || q.ToBlock != nil) {
		return errors.New("ethlogs: blockHash together with fromBlock/toBlock")
	}
	for _, n := range []*BlockNumber{q.FromBlock, q.ToBlock} {
		if n != nil && *n < Earliest {
			return fmt.Errorf("ethlogs: invalid block number %d", int64(*n))
		}
	}
	if q.FromBlock != nil && q.ToBlock != nil && !q.FromBlock.IsNamed() && !q.ToBlock.IsNamed() && *q.FromBlock > *q.ToBlock {
		return fmt.Errorf("ethlogs: fromBlock %d after toBlock %d", *q.FromBlock, *q.ToBlock)
	}
	return nil
}

// Match reports whether log l matches q exactly: its address, its topics by
// position, and, when q gives numeric bounds, its BlockNumber. Named bounds
// and BlockHash are not checked here: resolving them is the caller's job.
func (q *Query) Match(l *types.Log) bool {
	if q.FromBlock != nil && !q.FromBlock.IsNamed() && uint64(*q.FromBlock) > l.BlockNumber {
		return false
	}
	if q.ToBlock != nil && !q.ToBlock.IsNamed() && uint64(*q.ToBlock) < l.BlockNumber {
		return false
	}
	return q.MatchEvent(l.Address, l.Topics)
}

// MatchEvent reports whether an event with this address and these topics
// matches q's address and topic rules.
func (q *Query) MatchEvent(address common.Address, topics []common.Hash) bool {
	if len(q.Addresses) > 0 && !slices.Contains(q.Addresses, address) {
		return false
	}
	if len(q.Topics) > len(topics) {
		return false // eth_getLogs rejects a log shorter than the filter, wildcards or not
	}
	for i, pos := range q.Topics {
		if len(pos) > 0 && !slices.Contains(pos, topics[i]) {
			return false
		}
	}
	return true
}

// FilterQuery converts q to go-ethereum's form, as ethclient.FilterLogs
// takes it. Named blocks become their negative values.
func (q *Query) FilterQuery() ethereum.FilterQuery {
	fq := ethereum.FilterQuery{BlockHash: q.BlockHash, Addresses: q.Addresses, Topics: q.Topics}
	if q.FromBlock != nil {
		fq.FromBlock = q.FromBlock.Big()
	}
	if q.ToBlock != nil {
		fq.ToBlock = q.ToBlock.Big()
	}
	return fq
}

// QueryOf converts go-ethereum's filter query; block numbers must fit in an
// int64 (negative values are the named blocks).
func QueryOf(fq ethereum.FilterQuery) (Query, error) {
	q := Query{BlockHash: fq.BlockHash, Addresses: fq.Addresses, Topics: fq.Topics}
	var err error
	if q.FromBlock, err = blockOf(fq.FromBlock); err != nil {
		return Query{}, err
	}
	if q.ToBlock, err = blockOf(fq.ToBlock); err != nil {
		return Query{}, err
	}
	return q, q.Validate()
}

func blockOf(b *big.Int) (*BlockNumber, error) {
	if b == nil {
		return nil, nil
	}
	if !b.IsInt64() {
		return nil, fmt.Errorf("ethlogs: block number %v out of range", b)
	}
	n := BlockNumber(b.Int64())
	return &n, nil
}
