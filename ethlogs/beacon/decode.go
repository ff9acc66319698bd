package beacon

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/attestantio/go-eth2-client/spec/capella"
	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
	ctypes "github.com/ethereum/go-ethereum/core/types"
)

// The light-client objects of the beacon API (beacon-APIs
// apis/beacon/light_client/*.yaml), as JSON. go-ethereum's beacon/light/api
// decodes the same shapes, but unexported and by the response's version
// alone; these decode each header by its own slot's fork, as the spec's
// get_lc_execution_root does, and keep the execution payload's fields.

type envelope struct {
	Version string          `json:"version"`
	Data    json.RawMessage `json:"data"`
}

type headerJSON struct {
	Beacon             *types.Header   `json:"beacon"`
	Execution          json.RawMessage `json:"execution"`
	ExecutionBlockHash *common.Hash    `json:"execution_block_hash"` // Gloas on
	ExecutionBranch    merkle.Values   `json:"execution_branch"`
}

type bootstrapJSON struct {
	Header          *headerJSON                    `json:"header"`
	Committee       *types.SerializedSyncCommittee `json:"current_sync_committee"`
	CommitteeBranch merkle.Values                  `json:"current_sync_committee_branch"`
}

// updateJSON is a LightClientUpdate or, without the next committee, a
// LightClientFinalityUpdate.
type updateJSON struct {
	Attested       *headerJSON                    `json:"attested_header"`
	Next           *types.SerializedSyncCommittee `json:"next_sync_committee"`
	NextBranch     merkle.Values                  `json:"next_sync_committee_branch"`
	Finalized      *headerJSON                    `json:"finalized_header"`
	FinalityBranch merkle.Values                  `json:"finality_branch"`
	Aggregate      *types.SyncAggregate           `json:"sync_aggregate"`
	SignatureSlot  *common.Decimal                `json:"signature_slot"`
}

// header is a light-client header: a beacon header and, from Capella on,
// the proof of the execution block it carries.
type header struct {
	types.Header
	fork    string               // of its own slot, in lower case
	proof   types.ExecutionProof // nil before Capella
	payload *Payload             // nil before Capella and from Gloas on
}

type bootstrap struct {
	header    header
	committee *types.SerializedSyncCommittee
	branch    merkle.Values
}

// update is a LightClientUpdate (next set) or a LightClientFinalityUpdate.
type update struct {
	attested       header
	next           *types.SerializedSyncCommittee
	nextBranch     merkle.Values
	finalized      *header // nil: the update proves no finality
	finalityBranch merkle.Values
	aggregate      types.SyncAggregate
	signatureSlot  uint64
}

func decodeBootstrap(body []byte, chain *params.ChainConfig) (*bootstrap, error) {
	var env envelope
	var data bootstrapJSON
	if err := unmarshal(body, &env, &data); err != nil {
		return nil, err
	}
	if data.Header == nil || data.Committee == nil {
		return nil, errors.New("header or current_sync_committee missing")
	}
	h, err := decodeHeader(chain, env.Version, data.Header)
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	return &bootstrap{header: h, committee: data.Committee, branch: data.CommitteeBranch}, nil
}

func decodeUpdates(body []byte, chain *params.ChainConfig) ([]*update, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, err
	}
	updates := make([]*update, len(list))
	for i, raw := range list {
		u, err := decodeUpdate(raw, chain, true)
		if err != nil {
			return nil, fmt.Errorf("update %d: %w", i, err)
		}
		updates[i] = u
	}
	return updates, nil
}

// decodeUpdate decodes a LightClientUpdate (committee true) or a
// LightClientFinalityUpdate.
func decodeUpdate(body []byte, chain *params.ChainConfig, committee bool) (*update, error) {
	var env envelope
	var data updateJSON
	if err := unmarshal(body, &env, &data); err != nil {
		return nil, err
	}
	switch {
	case data.Attested == nil || data.Aggregate == nil || data.SignatureSlot == nil:
		return nil, errors.New("attested_header, sync_aggregate or signature_slot missing")
	case committee && data.Next == nil:
		return nil, errors.New("next_sync_committee missing")
	}
	u := &update{next: data.Next, nextBranch: data.NextBranch, finalityBranch: data.FinalityBranch,
		aggregate: *data.Aggregate, signatureSlot: uint64(*data.SignatureSlot)}
	var err error
	if u.attested, err = decodeHeader(chain, env.Version, data.Attested); err != nil {
		return nil, fmt.Errorf("attested_header: %w", err)
	}
	// The spec's "no finality" is a zero header; go-ethereum omits it.
	if data.Finalized != nil && data.Finalized.Beacon != nil && *data.Finalized.Beacon != (types.Header{}) {
		f, err := decodeHeader(chain, env.Version, data.Finalized)
		if err != nil {
			return nil, fmt.Errorf("finalized_header: %w", err)
		}
		u.finalized = &f
	}
	return u, nil
}

// unmarshal decodes a {version, data} envelope and its data.
func unmarshal(body []byte, env *envelope, data any) error {
	if err := json.Unmarshal(body, env); err != nil {
		return err
	}
	if len(env.Data) == 0 {
		return errors.New("data missing")
	}
	if err := json.Unmarshal(env.Data, data); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	return nil
}

// decodeHeader reads a light-client header in the shape of the response's
// version and types its execution part by the fork of the header's own
// slot under the pinned chain, never by what the server says.
func decodeHeader(chain *params.ChainConfig, version string, j *headerJSON) (header, error) {
	if j.Beacon == nil {
		return header{}, errors.New("beacon missing")
	}
	h := header{Header: *j.Beacon, fork: chain.ForkNameAtSlot(j.Beacon.Slot)}
	v, f := forkIndex(version), forkIndex(h.fork)
	switch {
	case v < forkIndex("ALTAIR"):
		return header{}, fmt.Errorf("version %q is not a light-client version this client knows", version)
	case f > v:
		return header{}, fmt.Errorf("slot %d is in fork %s, after the response's version %q", h.Slot, h.fork, version)
	case f < forkIndex("CAPELLA"):
		return h, nil // before Capella a header carries no execution block
	case v >= forkIndex("GLOAS"):
		if j.ExecutionBlockHash == nil {
			return header{}, errors.New("execution_block_hash missing")
		}
		h.proof = &types.GloasExecutionProof{ExecutionBlockHash: *j.ExecutionBlockHash, Branch: j.ExecutionBranch}
		return h, nil
	}
	eh, p, err := decodePayload(h.fork, j.Execution)
	if err != nil {
		return header{}, fmt.Errorf("execution: %w", err)
	}
	h.proof, h.payload = &types.LegacyHeaderProof{PayloadHeader: eh, Branch: j.ExecutionBranch}, p
	return h, nil
}

// payloadHeader is what go-eth2-client's payload header types share.
type payloadHeader interface {
	HashTreeRoot() ([32]byte, error)
	json.Unmarshaler
}

// decodePayload decodes an execution payload header as the type of the
// given fork (Capella's has no blob fields; a Capella header served in a
// later fork's shape has them, and they are not hashed).
func decodePayload(fork string, raw json.RawMessage) (*types.ExecutionHeader, *Payload, error) {
	if len(raw) == 0 {
		return nil, nil, errors.New("missing")
	}
	var obj payloadHeader
	if fork == "capella" {
		obj = new(capella.ExecutionPayloadHeader)
	} else {
		obj = new(deneb.ExecutionPayloadHeader)
	}
	if err := obj.UnmarshalJSON(raw); err != nil {
		return nil, nil, err
	}
	// types.NewExecutionHeader panics where HashTreeRoot fails (an
	// extra_data over 32 bytes): fail first, with an error.
	if _, err := obj.HashTreeRoot(); err != nil {
		return nil, nil, err
	}
	return types.NewExecutionHeader(obj), payloadOf(obj), nil
}

func payloadOf(obj payloadHeader) *Payload {
	switch e := obj.(type) {
	case *capella.ExecutionPayloadHeader:
		var baseFee big.Int
		baseFee.SetBytes(reverse(e.BaseFeePerGas[:])) // SSZ uint256: little-endian
		return &Payload{Number: e.BlockNumber, BlockHash: common.Hash(e.BlockHash), ParentHash: common.Hash(e.ParentHash),
			FeeRecipient: common.Address(e.FeeRecipient), StateRoot: common.Hash(e.StateRoot), ReceiptsRoot: common.Hash(e.ReceiptsRoot),
			LogsBloom: ctypes.Bloom(e.LogsBloom), PrevRandao: common.Hash(e.PrevRandao), GasLimit: e.GasLimit, GasUsed: e.GasUsed,
			Timestamp: e.Timestamp, ExtraData: e.ExtraData, BaseFee: &baseFee}
	case *deneb.ExecutionPayloadHeader:
		blobGasUsed, excessBlobGas := e.BlobGasUsed, e.ExcessBlobGas
		return &Payload{Number: e.BlockNumber, BlockHash: common.Hash(e.BlockHash), ParentHash: common.Hash(e.ParentHash),
			FeeRecipient: common.Address(e.FeeRecipient), StateRoot: common.Hash(e.StateRoot), ReceiptsRoot: common.Hash(e.ReceiptsRoot),
			LogsBloom: ctypes.Bloom(e.LogsBloom), PrevRandao: common.Hash(e.PrevRandao), GasLimit: e.GasLimit, GasUsed: e.GasUsed,
			Timestamp: e.Timestamp, ExtraData: e.ExtraData, BaseFee: e.BaseFeePerGas.ToBig(),
			BlobGasUsed: &blobGasUsed, ExcessBlobGas: &excessBlobGas}
	}
	panic(fmt.Sprintf("beacon: payload type %T", obj))
}

func reverse(b []byte) []byte {
	r := make([]byte, len(b))
	for i, c := range b {
		r[len(b)-1-i] = c
	}
	return r
}
