package beacontest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/beacon/params"
	bt "github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// FirstPeriod is the sync committee period of the checkpoint.
const FirstPeriod = 10

// Options describe a synthetic beacon chain.
type Options struct {
	// Finalized is the execution block the chain's newest finalized beacon
	// block carries: the anchor an honest run finds. Required.
	Finalized *types.Header
	// Head is the execution block of the finality update's attested
	// (head) beacon block. Nil: a stand-in numbered after Finalized.
	Head *types.Header
	// Periods is the number of sync committee periods from the
	// checkpoint's to the head's, each with its own committee; 0 means 1.
	// The checkpoint must stay under 8 days old: at most 7.
	Periods int
	// DenebPeriods is the number of periods, from the checkpoint's, under
	// Deneb's generalized indices; the rest are under Electra's and Fulu's.
	DenebPeriods int
	// ForkBoundary schedules Fulu at the epoch of the finality update's
	// signature slot − 1, one epoch after its attested header's: the spec
	// signs in Fulu, go-ethereum's light client expects Electra.
	ForkBoundary bool
	// Gloas makes every block a Gloas block: states at Gloas's
	// generalized indices, and light-client headers that prove only the
	// execution block hash. It excludes DenebPeriods and ForkBoundary.
	Gloas bool
	// Now is the time at which the chain is current: its finality update
	// was signed 6 seconds ago. Zero: time.Now().
	Now time.Time
	// Seed selects the committees' keys; "": "beacontest".
	Seed string
}

// Chain is a synthetic beacon chain: a checkpoint, one sync committee
// update per period, a finality update, and the blocks some lies need.
// Its keys are real BLS keys: drawing a committee costs about 55 ms of
// CPU, and a chain has one per period plus one.
// A Chain is read-only once built and can serve many servers at once.
type Chain struct {
	config     *params.ChainConfig
	now        time.Time
	committees map[uint64]*committee      // by period, the last one's successor included
	attacker   func() (*committee, error) // the forged-committee lie's keys, drawn on first use
	checkpoint *block
	updates    map[uint64]*update // by period
	finality   *update
	stale      *update
	rolledBack *update
	blocks     map[common.Hash]*block // every block, for bootstraps
	last       uint64                 // the head's period
}

// block is a synthetic beacon block: a header, its execution payload
// header and the two trees its roots come from.
type block struct {
	header  bt.Header
	payload *deneb.ExecutionPayloadHeader // nil in Gloas
	elHash  common.Hash                   // the execution block's hash
	state   *tree
	body    *tree
}

func (b *block) root() common.Hash { return b.header.Hash() }

func (b *block) fork(c *params.ChainConfig) string { return c.ForkNameAtSlot(b.header.Slot) }

// update is a signed light-client update: an attested block, the block it
// finalizes, and the signature.
type update struct {
	attested, finalized *block
	signatureSlot       uint64
	aggregate           bt.SyncAggregate
}

// The slots of a period's blocks, after its first slot.
const (
	checkpointOffset  = 64   // the checkpoint, an epoch's first block
	updateOffset      = 4096 // each period's update finalizes this slot…
	finalOffset       = 5920 // …and the finality update this one, 3 epochs before
	finalSigOffset    = 6017 // its signature slot; slot 6016 is empty…
	finalAttestOffset = 6015 // …and its attested block is the epoch's last
	staleOffset       = 5024 // 3.3 hours before the signature
	rolledBackOffset  = 5856 // 2 epochs before the honest finalized slot
)

// NewChain builds a chain.
func NewChain(opts Options) (*Chain, error) {
	if opts.Finalized == nil {
		return nil, errors.New("beacontest: Options.Finalized is not set")
	}
	periods := uint64(max(opts.Periods, 1))
	if periods > 7 {
		return nil, fmt.Errorf("beacontest: %d periods: the checkpoint would be more than 8 days old", periods)
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.Seed == "" {
		opts.Seed = "beacontest"
	}
	c := &Chain{now: opts.Now, committees: map[uint64]*committee{}, updates: map[uint64]*update{},
		blocks: map[common.Hash]*block{}, last: FirstPeriod + periods - 1}
	if err := c.configure(opts); err != nil {
		return nil, err
	}
	for p := uint64(FirstPeriod); p <= c.last+1; p++ {
		k, err := newCommittee(opts.Seed, p)
		if err != nil {
			return nil, err
		}
		c.committees[p] = k
	}
	c.attacker = sync.OnceValues(func() (*committee, error) { return newCommittee(opts.Seed+" attacker", c.last) })
	return c, c.build(opts)
}

// configure pins the fork schedule and the genesis time that make the
// head current at opts.Now.
func (c *Chain) configure(opts Options) error {
	sig := c.start(c.last) + finalSigOffset
	genesis := opts.Now.Unix() - int64(sig)*beacon.SecondsPerSlot - 6
	if genesis < 0 {
		return fmt.Errorf("beacontest: Options.Now %s is too early for a chain of this length", opts.Now)
	}
	electra := uint64(0)
	if opts.DenebPeriods > 0 {
		electra = c.start(FirstPeriod+uint64(opts.DenebPeriods)) / params.EpochLength
	}
	fulu := electra
	if opts.ForkBoundary {
		fulu = (sig - 1) / params.EpochLength
		if fulu < electra {
			return errors.New("beacontest: ForkBoundary needs the head in an Electra period")
		}
	}
	forks := []beacon.Fork{{Name: "GENESIS"}, {Name: "ALTAIR"}, {Name: "BELLATRIX"}, {Name: "CAPELLA"}, {Name: "DENEB"},
		{Name: "ELECTRA", Epoch: electra}, {Name: "FULU", Epoch: fulu}}
	if opts.Gloas {
		if opts.DenebPeriods > 0 || opts.ForkBoundary {
			return errors.New("beacontest: a Gloas chain is Gloas from genesis: no DenebPeriods or ForkBoundary")
		}
		forks = append(forks, beacon.Fork{Name: "GLOAS"})
	}
	for i := range forks {
		forks[i].Version = [4]byte{byte(i), 0xbe, 0xac, 0x07}
	}
	gvr := sha256.Sum256([]byte(opts.Seed + " genesis validators root"))
	var err error
	c.config, err = beacon.Custom(uint64(genesis), gvr, forks...)
	return err
}

func (c *Chain) start(period uint64) uint64 { return period * params.SyncPeriodLength }

// build makes the blocks and updates.
func (c *Chain) build(opts Options) error {
	fin := opts.Finalized
	finalSlot := c.start(c.last) + finalOffset
	// A stand-in execution block for the beacon block at slot.
	standIn := func(slot uint64, mark string) *types.Header {
		n := int64(fin.Number.Uint64()) + int64(slot) - int64(finalSlot)
		return synthetic(fin, uint64(max(n, 0)), mark)
	}
	var err error
	cp := c.start(FirstPeriod) + checkpointOffset
	if c.checkpoint, err = c.newBlock(cp, standIn(cp, "beacontest checkpoint"), nil); err != nil {
		return err
	}
	for p := uint64(FirstPeriod); p <= c.last; p++ {
		f := c.start(p) + updateOffset
		if c.updates[p], err = c.newUpdate(f, f+96, f+97, standIn(f, "beacontest finalized"), standIn(f+96, "beacontest attested")); err != nil {
			return err
		}
	}
	head := opts.Head
	if head == nil {
		head = synthetic(fin, fin.Number.Uint64()+(finalAttestOffset-finalOffset), "beacontest head")
	}
	base := c.start(c.last)
	if c.finality, err = c.newUpdate(base+finalOffset, base+finalAttestOffset, base+finalSigOffset, fin, head); err != nil {
		return err
	}
	s := base + staleOffset
	if c.stale, err = c.newUpdate(s, s+95, s+97, standIn(s, "beacontest stale"), standIn(s+95, "beacontest stale head")); err != nil {
		return err
	}
	r := base + rolledBackOffset
	c.rolledBack, err = c.newUpdate(r, r+95, r+97, standIn(r, "beacontest rolled back"), standIn(r+95, "beacontest rolled back head"))
	return err
}

// newUpdate makes a finalized block, an attested block whose state
// commits to it, and the committee's signature of the attested block.
func (c *Chain) newUpdate(finalized, attested, signature uint64, finEL, attEL *types.Header) (*update, error) {
	f, err := c.newBlock(finalized, finEL, nil)
	if err != nil {
		return nil, err
	}
	a, err := c.newBlock(attested, attEL, f)
	if err != nil {
		return nil, err
	}
	u := &update{attested: a, finalized: f, signatureSlot: signature}
	u.aggregate, err = c.sign(c.committees[signature/params.SyncPeriodLength], params.SyncCommitteeSize, a.root(), c.signingEpoch(signature))
	return u, err
}

// signingEpoch is the epoch whose fork signs at a signature slot:
// epoch(signature_slot − 1), as validate_light_client_update has it.
func (c *Chain) signingEpoch(signatureSlot uint64) uint64 {
	return (max(signatureSlot, 1) - 1) / params.EpochLength
}

func (c *Chain) sign(k *committee, n int, root common.Hash, epoch uint64) (bt.SyncAggregate, error) {
	msg, err := c.config.Forks.SigningRoot(epoch, root)
	if err != nil {
		return bt.SyncAggregate{}, err
	}
	return k.sign(n, msg)
}

// newBlock makes the beacon block at slot carrying execution block el;
// its state commits to the committees of its period and the next, and to
// finalized if given.
func (c *Chain) newBlock(slot uint64, el *types.Header, finalized *block) (*block, error) {
	payload, err := payloadHeader(el)
	if err != nil {
		return nil, err
	}
	payloadRoot, err := payload.HashTreeRoot()
	if err != nil {
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	fork := c.config.ForkNameAtSlot(slot)
	body := map[uint64]merkle.Value{params.BodyIndexExecPayload: payloadRoot}
	if fork == "gloas" {
		// Gloas headers prove the block hash alone, at its own index.
		payload, body = nil, map[uint64]merkle.Value{params.BodyIndexExecBlockHash(fork): merkle.Value(el.Hash())}
	}
	p := slot / params.SyncPeriodLength
	leaves := map[uint64]merkle.Value{
		params.StateIndexSyncCommittee(fork):     merkle.Value(c.committees[p].root),
		params.StateIndexNextSyncCommittee(fork): merkle.Value(c.committees[p+1].root),
	}
	if finalized != nil {
		leaves[params.StateIndexFinalBlock(fork)] = merkle.Value(finalized.root())
	}
	b := &block{payload: payload, elHash: el.Hash(), state: newTree(slot, leaves), body: newTree(slot, body)}
	b.header = bt.Header{Slot: slot, ProposerIndex: slot % 997, ParentRoot: sha256.Sum256(new(big.Int).SetUint64(slot).Bytes()),
		StateRoot: b.state.root(), BodyRoot: b.body.root()}
	c.blocks[b.root()] = b
	return b, nil
}

// Config returns the chain's configuration, to pin in the client.
func (c *Chain) Config() *params.ChainConfig {
	cp := *c.config
	cp.Forks = append(params.Forks(nil), c.config.Forks...)
	return &cp
}

// Checkpoint returns the root of the checkpoint block, in the first
// period.
func (c *Chain) Checkpoint() common.Hash { return c.checkpoint.root() }

// Now returns the time at which the chain is current.
func (c *Chain) Now() time.Time { return c.now }

// Finalized returns the slot and root of the finalized beacon block an
// honest run finds.
func (c *Chain) Finalized() (slot uint64, root common.Hash) {
	return c.finality.finalized.header.Slot, c.finality.finalized.root()
}
