package beacontest

import (
	"strconv"

	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/beacon/params"
	bt "github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
)

// The beacon API's light-client objects (beacon-APIs
// apis/beacon/light_client), written here because go-ethereum's
// bt.Header marshals slots as numbers its own decoder refuses and
// merkle.Value marshals as an array of numbers.

type envelope struct {
	Version string `json:"version"`
	Data    any    `json:"data"`
}

type beaconHeaderJSON struct {
	Slot          string      `json:"slot"`
	ProposerIndex string      `json:"proposer_index"`
	ParentRoot    common.Hash `json:"parent_root"`
	StateRoot     common.Hash `json:"state_root"`
	BodyRoot      common.Hash `json:"body_root"`
}

type headerJSON struct {
	Beacon             beaconHeaderJSON              `json:"beacon"`
	Execution          *deneb.ExecutionPayloadHeader `json:"execution,omitempty"`
	ExecutionBlockHash *common.Hash                  `json:"execution_block_hash,omitempty"` // Gloas
	ExecutionBranch    []common.Hash                 `json:"execution_branch"`
}

type bootstrapJSON struct {
	Header          headerJSON                  `json:"header"`
	Committee       *bt.SerializedSyncCommittee `json:"current_sync_committee"`
	CommitteeBranch []common.Hash               `json:"current_sync_committee_branch"`
}

type updateJSON struct {
	Attested       headerJSON                  `json:"attested_header"`
	Next           *bt.SerializedSyncCommittee `json:"next_sync_committee,omitempty"`
	NextBranch     []common.Hash               `json:"next_sync_committee_branch,omitempty"`
	Finalized      *headerJSON                 `json:"finalized_header,omitempty"`
	FinalityBranch []common.Hash               `json:"finality_branch,omitempty"`
	Aggregate      bt.SyncAggregate            `json:"sync_aggregate"`
	SignatureSlot  string                      `json:"signature_slot"`
}

func decimal(n uint64) string { return strconv.FormatUint(n, 10) }

func hashes(v merkle.Values) []common.Hash {
	h := make([]common.Hash, len(v))
	for i := range v {
		h[i] = common.Hash(v[i])
	}
	return h
}

// corrupt returns a copy of a branch with one bit of its first node
// flipped.
func corrupt(b []common.Hash) []common.Hash {
	b = append([]common.Hash(nil), b...)
	b[0][0] ^= 1
	return b
}

func (b *block) json() headerJSON {
	h := b.header
	j := headerJSON{Beacon: beaconHeaderJSON{Slot: decimal(h.Slot), ProposerIndex: decimal(h.ProposerIndex),
		ParentRoot: h.ParentRoot, StateRoot: h.StateRoot, BodyRoot: h.BodyRoot}}
	if b.payload == nil {
		hash := b.elHash
		j.ExecutionBlockHash, j.ExecutionBranch = &hash, hashes(b.body.branch(params.BodyIndexExecBlockHashGloas))
	} else {
		j.Execution, j.ExecutionBranch = b.payload, hashes(b.body.branch(params.BodyIndexExecPayload))
	}
	return j
}

func (c *Chain) bootstrapJSON(b *block) envelope {
	fork := b.fork(c.config)
	p := b.header.Slot / params.SyncPeriodLength
	return envelope{Version: fork, Data: bootstrapJSON{Header: b.json(), Committee: c.committees[p].serialized,
		CommitteeBranch: hashes(b.state.branch(params.StateIndexSyncCommittee(fork)))}}
}

// updateJSON writes u as a LightClientUpdate (committee true) or a
// LightClientFinalityUpdate.
func (c *Chain) updateJSON(u *update, committee bool) (envelope, *updateJSON) {
	fork := u.attested.fork(c.config)
	fin := u.finalized.json()
	j := &updateJSON{Attested: u.attested.json(), Finalized: &fin,
		FinalityBranch: hashes(u.attested.state.branch(params.StateIndexFinalBlock(fork))),
		Aggregate:      u.aggregate, SignatureSlot: decimal(u.signatureSlot)}
	if committee {
		j.Next = c.committees[u.attested.header.Slot/params.SyncPeriodLength+1].serialized
		j.NextBranch = hashes(u.attested.state.branch(params.StateIndexNextSyncCommittee(fork)))
	}
	return envelope{Version: fork, Data: j}, j
}
