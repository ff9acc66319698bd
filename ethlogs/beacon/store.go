package beacon

import (
	"fmt"

	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
)

// store is the light client's view (sync-protocol.md LightClientStore,
// reduced to a one-shot forward sync): the sync committee of one period,
// and the newest finalized slot proven so far.
//
// go-ethereum's light.CommitteeChain keeps the same chain of committees,
// but verifies each signature under the fork of the attested header's
// epoch (committee_chain.go, verifySignedHeader), where the spec takes the
// epoch of signature_slot − 1; the two differ when the slots around a fork
// boundary are empty, and it has no hook to change it. store therefore
// does the bookkeeping itself and leaves every proof to go-ethereum:
// merkle.VerifyNormalizedProof at beacon/params' generalized indices, the
// execution proofs of beacon/types, Forks.SigningRoot, and
// SerializedSyncCommittee's BLS verification.
type store struct {
	chain     *params.ChainConfig
	period    uint64
	committee *types.SerializedSyncCommittee // of period
	keys      *types.SyncCommittee           // committee deserialized, on first use
	finalized uint64                         // newest finalized slot proven
}

// checkBootstrap checks a bootstrap against the trusted root and returns
// the store it starts.
func checkBootstrap(chain *params.ChainConfig, b *bootstrap, root common.Hash) (*store, Check, error) {
	if got := b.header.Hash(); got != root {
		return nil, CheckCheckpoint, fmt.Errorf("the header's root is %s, not the trusted checkpoint %s", got, root)
	}
	index := params.StateIndexSyncCommittee(b.header.fork)
	if err := merkle.VerifyNormalizedProof(b.header.StateRoot, index, b.branch, merkle.Value(b.committee.Root())); err != nil {
		return nil, CheckCommittee, fmt.Errorf("current sync committee (gindex %d under the state root): %v", index, err)
	}
	return &store{chain: chain, period: period(b.header.Slot), committee: b.committee, finalized: b.header.Slot}, "", nil
}

// checkSlots applies the spec's current_slot ≥ signature_slot >
// attested_slot ≥ finalized_slot (validate_light_client_update).
func checkSlots(u *update, current uint64) error {
	switch {
	case u.signatureSlot > current:
		return fmt.Errorf("signature slot %d is in the future (the current slot is %d)", u.signatureSlot, current)
	case u.signatureSlot <= u.attested.Slot:
		return fmt.Errorf("signature slot %d is not after the attested header's slot %d", u.signatureSlot, u.attested.Slot)
	case u.finalized != nil && u.finalized.Slot > u.attested.Slot:
		return fmt.Errorf("finalized slot %d is after the attested header's slot %d", u.finalized.Slot, u.attested.Slot)
	}
	return nil
}

// checkParticipation requires the 2/3 of the committee that
// process_light_client_update needs to apply an update; the spec's
// validity floor (MIN_SYNC_COMMITTEE_PARTICIPANTS = 1) would let a single
// committee member move the anchor.
func checkParticipation(agg *types.SyncAggregate) error {
	if n := agg.SignerCount(); n < supermajority {
		return fmt.Errorf("%d of %d sync committee members signed, fewer than the 2/3 required (%d)", n, params.SyncCommitteeSize, supermajority)
	}
	return nil
}

// checkProofs checks the Merkle branches of an update under its attested
// header's state and the execution branches of its headers.
func checkProofs(u *update) (Check, error) {
	fork := u.attested.fork
	if u.next != nil {
		index := params.StateIndexNextSyncCommittee(fork)
		if err := merkle.VerifyNormalizedProof(u.attested.StateRoot, index, u.nextBranch, merkle.Value(u.next.Root())); err != nil {
			return CheckCommittee, fmt.Errorf("next sync committee (gindex %d under the attested state root): %v", index, err)
		}
	}
	if u.finalized != nil {
		index := params.StateIndexFinalBlock(fork)
		if err := merkle.VerifyNormalizedProof(u.attested.StateRoot, index, u.finalityBranch, merkle.Value(u.finalized.Hash())); err != nil {
			return CheckFinality, fmt.Errorf("finalized header at slot %d (gindex %d under the attested state root): %v", u.finalized.Slot, index, err)
		}
	}
	for _, h := range []*header{&u.attested, u.finalized} {
		if h == nil || h.proof == nil {
			continue
		}
		if err := h.proof.Validate(h.BodyRoot, h.fork); err != nil {
			return CheckExecution, fmt.Errorf("execution block %s of the header at slot %d (under its body root): %v", h.proof.BlockHash(), h.Slot, err)
		}
	}
	return "", nil
}

// verifySignature checks the sync committee's aggregate signature over
// the attested header, in the domain of the fork at epoch(signature_slot
// − 1), as validate_light_client_update does. The caller has checked that
// the signature slot is in the store's period.
func (s *store) verifySignature(u *update) error {
	if s.keys == nil {
		keys, err := committeeKeys.deserialize(s.committee)
		if err != nil {
			return fmt.Errorf("the sync committee of period %d has an invalid key: %v", s.period, err)
		}
		s.keys = keys
	}
	e := epoch(max(u.signatureSlot, 1) - 1)
	root, err := s.chain.Forks.SigningRoot(e, u.attested.Hash())
	if err != nil {
		return err
	}
	if !s.keys.VerifySignature(root, &u.aggregate) {
		fork := s.chain.ForkAtEpoch(e)
		return fmt.Errorf("the aggregate signature of %d members of the sync committee of period %d over the attested header %s (slot %d) does not verify in fork %s (version %#x)",
			u.aggregate.SignerCount(), s.period, u.attested.Hash(), u.attested.Slot, fork.Name, fork.Version)
	}
	return nil
}

// apply checks an update for the store's period and moves the store to
// the next period, whose committee the update proves.
func (s *store) apply(u *update, current uint64) (Check, error) {
	p := s.period
	switch {
	case period(u.attested.Slot) != p:
		return CheckUpdates, fmt.Errorf("the attested header at slot %d is in period %d, not %d: updates missing or out of order", u.attested.Slot, period(u.attested.Slot), p)
	case u.finalized == nil:
		return CheckUpdates, fmt.Errorf("it proves no finalized header; the spec applies such an update only after UPDATE_TIMEOUT, which a one-shot client does not wait for")
	}
	if err := checkSlots(u, current); err != nil {
		return CheckSlots, err
	}
	if period(u.signatureSlot) != p || period(u.finalized.Slot) != p {
		return CheckSlots, fmt.Errorf("signature slot %d and finalized slot %d are not both in period %d", u.signatureSlot, u.finalized.Slot, p)
	}
	if err := checkParticipation(&u.aggregate); err != nil {
		return CheckParticipation, err
	}
	if check, err := checkProofs(u); err != nil {
		return check, err
	}
	if err := s.verifySignature(u); err != nil {
		return CheckSignature, err
	}
	s.period, s.committee, s.keys = p+1, u.next, nil
	s.finalized = max(s.finalized, u.finalized.Slot)
	return "", nil
}
