package beacontest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
	blsu "github.com/protolambda/bls12-381-util"
)

// blsOrder is r, the order of the BLS12-381 groups: secret keys are
// integers modulo r (IETF draft-irtf-cfrg-bls-signature).
var blsOrder, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

// committee is a sync committee whose secret keys are known: 512 keys
// drawn from a seed and the period, the same on every run.
type committee struct {
	secrets    [params.SyncCommitteeSize]*big.Int
	serialized *types.SerializedSyncCommittee
	root       common.Hash
}

// drawn holds the committees drawn in this process, never changed once
// drawn: drawing one's 512 keys takes about 57 ms (docs/beacon.md), and
// the tests build many chains of one seed.
var drawn struct {
	sync.Mutex
	committees map[committeeKey]func() (*committee, error)
}

type committeeKey struct {
	seed   string
	period uint64
}

// newCommittee returns the committee of seed and period, drawing it the
// first time it is asked for.
func newCommittee(seed string, period uint64) (*committee, error) {
	k := committeeKey{seed, period}
	drawn.Lock()
	if drawn.committees == nil {
		drawn.committees = make(map[committeeKey]func() (*committee, error))
	}
	draw, ok := drawn.committees[k]
	if !ok {
		draw = sync.OnceValues(func() (*committee, error) { return drawCommittee(seed, period) })
		drawn.committees[k] = draw
	}
	drawn.Unlock()
	return draw()
}

func drawCommittee(seed string, period uint64) (*committee, error) {
	c := &committee{serialized: new(types.SerializedSyncCommittee)}
	pubkeys := make([]*blsu.Pubkey, params.SyncCommitteeSize)
	for i := range c.secrets {
		h := sha256.New()
		h.Write([]byte(seed))
		binary.Write(h, binary.BigEndian, period)
		binary.Write(h, binary.BigEndian, uint32(i))
		s := new(big.Int).SetBytes(h.Sum(nil))
		s.Mod(s, blsOrder)
		if s.Sign() == 0 {
			s.SetInt64(1)
		}
		c.secrets[i] = s
		sk, err := secretKey(s)
		if err != nil {
			return nil, err
		}
		if pubkeys[i], err = blsu.SkToPk(sk); err != nil {
			return nil, fmt.Errorf("beacontest: %w", err)
		}
		pk := pubkeys[i].Serialize()
		copy(c.serialized[i*params.BLSPubkeySize:], pk[:])
	}
	agg, err := blsu.AggregatePubkeys(pubkeys)
	if err != nil {
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	pk := agg.Serialize()
	copy(c.serialized[params.SyncCommitteeSize*params.BLSPubkeySize:], pk[:])
	c.root = c.serialized.Root()
	return c, nil
}

func secretKey(s *big.Int) (*blsu.SecretKey, error) {
	var b [32]byte
	s.FillBytes(b[:])
	sk := new(blsu.SecretKey)
	if err := sk.Deserialize(&b); err != nil {
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	return sk, nil
}

// sign returns the aggregate signature of the first n members over msg.
// BLS signatures add up like their keys, so it signs once with the sum of
// the n secret keys instead of n times: the same signature as
// blsu.Aggregate of theirs, in a millisecond.
func (c *committee) sign(n int, msg common.Hash) (types.SyncAggregate, error) {
	var agg types.SyncAggregate
	sum := new(big.Int)
	for i := range n {
		sum.Add(sum, c.secrets[i])
		agg.Signers[i/8] |= 1 << (i % 8)
	}
	sk, err := secretKey(sum.Mod(sum, blsOrder))
	if err != nil {
		return agg, err
	}
	agg.Signature = blsu.Sign(sk, msg[:]).Serialize()
	return agg, nil
}
