package beacon

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Defaults of [Config].
const (
	// DefaultMaxAge bounds the age of the finalized header found. Finality
	// trails the head by two to three epochs (13 to 19 minutes) on a
	// healthy chain; an hour leaves room for a few missed epochs.
	DefaultMaxAge = time.Hour
	// DefaultMaxCheckpointAge bounds the age of the trusted checkpoint:
	// 8 days, below the weak-subjectivity period of a chain with more than
	// 8.4 million ether staked, such as mainnet: 256 + 10·65536/400 =
	// 1,894 epochs, 8.4 days (compute_weak_subjectivity_period,
	// consensus-specs specs/electra/weak-subjectivity.md). Chains with
	// less at stake have shorter periods.
	DefaultMaxCheckpointAge = 8 * 24 * time.Hour
	// DefaultTimeout bounds each request.
	DefaultTimeout = 30 * time.Second
)

// Config describes one anchor run.
type Config struct {
	// URL is the beacon node's REST API (any path prefix is kept). It is
	// not trusted: every answer is checked.
	URL string
	// Chain is the pinned network: [Mainnet], [Sepolia], [Hoodi], or a
	// [Custom] or [ParseConfig] chain. Its own Checkpoint field is not
	// used.
	Chain *params.ChainConfig
	// Checkpoint is the trusted block root to bootstrap from: a finalized
	// epoch-boundary block inside the weak-subjectivity period. Zero: the
	// state file's.
	Checkpoint common.Hash
	// StatePath is the state file: the newest finalized header accepted
	// (a later run that finds an older one fails) and the checkpoint for
	// the next run. Empty: none, and no protection across runs.
	StatePath string

	Client           *http.Client     // nil: http.DefaultClient
	Timeout          time.Duration    // of each request; 0: DefaultTimeout
	MaxAge           time.Duration    // of the finalized header found; 0: DefaultMaxAge
	MaxCheckpointAge time.Duration    // 0: DefaultMaxCheckpointAge
	Now              func() time.Time // the clock; nil: time.Now
}

// Finalized is a verified anchor: the newest finalized beacon block the
// sync committee has signed, and the execution block it carries.
type Finalized struct {
	Slot uint64      // of the finalized beacon header
	Root common.Hash // its block root
	Time time.Time   // the start of its slot
	Fork string      // of its slot, in lower case ("fulu")

	// BlockHash is the execution block the finalized header commits to:
	// the anchor to verify an execution chain back from.
	BlockHash common.Hash
	// Payload is the rest of the execution payload header, proven with
	// BlockHash. Nil from Gloas on, where a light-client header proves only
	// the block hash: fetch the block by hash and check it with
	// [Finalized.VerifyHeader].
	Payload *Payload

	// What the proof rests on and cost.
	Checkpoint     common.Hash // the trusted root this run started from
	CheckpointSlot uint64
	SignatureSlot  uint64 // of the finality update's sync aggregate
	Signers        int    // of the 512 committee members
	Updates        int    // sync committee updates verified
	Requests       int
	Bytes          int64 // of response bodies
}

// Payload is an execution payload header (Capella to Fulu), as proven
// under a beacon block. Its fields are those of the execution block
// header of the same name.
type Payload struct {
	Number                     uint64
	BlockHash                  common.Hash
	ParentHash                 common.Hash
	FeeRecipient               common.Address
	StateRoot                  common.Hash
	ReceiptsRoot               common.Hash
	LogsBloom                  types.Bloom
	PrevRandao                 common.Hash
	GasLimit, GasUsed          uint64
	Timestamp                  uint64
	ExtraData                  []byte
	BaseFee                    *big.Int
	BlobGasUsed, ExcessBlobGas *uint64 // nil before Deneb
}

// VerifyHeader checks that h is the anchor's execution block: its hash is
// BlockHash and, where the payload is known, every field the payload
// shares with it is equal.
func (f *Finalized) VerifyHeader(h *types.Header) error {
	if got := h.Hash(); got != f.BlockHash {
		return fmt.Errorf("beacon: block %d has hash %s, not the anchor's %s", h.Number, got, f.BlockHash)
	}
	p := f.Payload
	if p == nil {
		return nil
	}
	for _, field := range []struct {
		name string
		ok   bool
	}{
		{"number", h.Number.IsUint64() && h.Number.Uint64() == p.Number},
		{"parentHash", h.ParentHash == p.ParentHash},
		{"miner", h.Coinbase == p.FeeRecipient},
		{"stateRoot", h.Root == p.StateRoot},
		{"receiptsRoot", h.ReceiptHash == p.ReceiptsRoot},
		{"logsBloom", h.Bloom == p.LogsBloom},
		{"mixHash", h.MixDigest == p.PrevRandao},
		{"gasLimit", h.GasLimit == p.GasLimit},
		{"gasUsed", h.GasUsed == p.GasUsed},
		{"timestamp", h.Time == p.Timestamp},
		{"extraData", string(h.Extra) == string(p.ExtraData)},
		{"baseFeePerGas", h.BaseFee != nil && h.BaseFee.Cmp(p.BaseFee) == 0},
		{"blobGasUsed", equalOpt(h.BlobGasUsed, p.BlobGasUsed)},
		{"excessBlobGas", equalOpt(h.ExcessBlobGas, p.ExcessBlobGas)},
	} {
		if !field.ok {
			return fmt.Errorf("beacon: block %s has the anchor's hash but its %s differs from the proven payload's", f.BlockHash, field.name)
		}
	}
	return nil
}

// equalOpt compares a header's optional field with the payload's, which
// is nil before Deneb (and then the header's must be absent or zero).
func equalOpt(h, p *uint64) bool {
	if p == nil {
		return h == nil || *h == 0
	}
	return h != nil && *h == *p
}

// Anchor syncs from the trusted checkpoint to the newest finalized beacon
// header with the Altair light-client protocol over the beacon API at
// cfg.URL, and returns it with the execution block it carries. It
// bootstraps from the checkpoint, follows one sync committee update per
// period up to the period of the finality update's signature, and checks
// every Merkle branch, every aggregate signature (2/3 of the committee at
// least), the order and periods of the slots, and the age of the
// checkpoint and of the result. With a state file, it refuses a
// finalized header older than the last one accepted, then records the new
// one.
//
// A bad answer is an [*Error] naming the request, the object and the
// [Check] it failed; there is no fallback.
func Anchor(ctx context.Context, cfg Config) (Finalized, error) {
	r, err := newRun(cfg)
	if err != nil {
		return Finalized{}, err
	}
	return r.anchor(ctx)
}

// run is one call of Anchor.
type run struct {
	cfg   Config
	fetch *fetcher
}

func newRun(cfg Config) (*run, error) {
	if cfg.Chain == nil {
		return nil, errors.New("beacon: Config.Chain is not set")
	}
	base, err := url.Parse(cfg.URL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("beacon: Config.URL %s is not an http(s) URL", untrusted.Quote([]byte(cfg.URL)))
	}
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	if cfg.MaxCheckpointAge <= 0 {
		cfg.MaxCheckpointAge = DefaultMaxCheckpointAge
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &run{cfg: cfg, fetch: &fetcher{base: base, client: cfg.Client, timeout: cfg.Timeout}}, nil
}

func (r *run) clock() clock { return clock{genesis: r.cfg.Chain.GenesisTime, now: r.cfg.Now()} }

func (r *run) anchor(ctx context.Context) (Finalized, error) {
	st, err := readState(r.cfg.StatePath, r.cfg.Chain.GenesisValidatorsRoot)
	if err != nil {
		return Finalized{}, err
	}
	root := r.cfg.Checkpoint
	if root == (common.Hash{}) {
		root = st.Checkpoint
	}
	if root == (common.Hash{}) {
		return Finalized{}, errors.New("beacon: no checkpoint: Config.Checkpoint is not set and there is no state file with one")
	}
	current, err := r.clock().currentSlot()
	if err != nil {
		return Finalized{}, err
	}
	s, err := r.bootstrap(ctx, root, current)
	if err != nil {
		return Finalized{}, err
	}
	f := Finalized{Checkpoint: root, CheckpointSlot: s.finalized}
	u, err := r.finalityUpdate(ctx, s, current)
	if err != nil {
		return Finalized{}, err
	}
	if f.Updates, err = r.sync(ctx, s, period(u.signatureSlot), current); err != nil {
		return Finalized{}, err
	}
	if err := r.accept(s, u, st); err != nil {
		return Finalized{}, err
	}
	fin := u.finalized
	f.Slot, f.Root, f.Time, f.Fork = fin.Slot, fin.Hash(), r.clock().slotTime(fin.Slot), fin.fork
	f.BlockHash, f.Payload = fin.proof.BlockHash(), fin.payload
	f.SignatureSlot, f.Signers = u.signatureSlot, u.aggregate.SignerCount()
	f.Requests, f.Bytes = r.fetch.requests, r.fetch.bytes
	if err := r.save(st, f); err != nil {
		return Finalized{}, err
	}
	return f, nil
}

// accept checks the finality update once the store has its signature's
// committee: the signature, then that its finalized header goes back from
// nothing accepted and is fresh.
func (r *run) accept(s *store, u *update, st state) error {
	fin := u.finalized
	fail := func(check Check, format string, args ...any) error {
		at := fmt.Sprintf("finality update signed at slot %d", u.signatureSlot)
		return &Error{Endpoint: "GET " + finalityPath, At: at, Check: check, Err: fmt.Errorf(format, args...)}
	}
	if err := s.verifySignature(u); err != nil {
		return fail(CheckSignature, "%v", err)
	}
	if fin.Slot < s.finalized {
		return fail(CheckRollback, "its finalized header at slot %d is older than slot %d, proven finalized by the checkpoint or an update of this run", fin.Slot, s.finalized)
	}
	if st.FinalizedRoot != (common.Hash{}) && (fin.Slot < st.FinalizedSlot || fin.Slot == st.FinalizedSlot && fin.Hash() != st.FinalizedRoot) {
		return fail(CheckRollback, "its finalized header %s at slot %d is not the finalized header %s at slot %d or a later one, accepted by an earlier run (state file %s)",
			fin.Hash(), fin.Slot, st.FinalizedRoot, st.FinalizedSlot, r.cfg.StatePath)
	}
	c := r.clock()
	if age := c.age(fin.Slot); age > r.cfg.MaxAge {
		return fail(CheckFreshness, "its finalized header at slot %d is from %s, %s ago, more than the %s allowed: the server withholds newer finality, or the chain is not finalizing",
			fin.Slot, c.slotTime(fin.Slot).UTC().Format(time.RFC3339), age.Round(time.Second), r.cfg.MaxAge)
	}
	return nil
}

// save records an accepted anchor in the state file, if there is one.
func (r *run) save(st state, f Finalized) error {
	if r.cfg.StatePath == "" {
		return nil
	}
	st.GenesisValidatorsRoot, st.FinalizedSlot, st.FinalizedRoot = r.cfg.Chain.GenesisValidatorsRoot, f.Slot, f.Root
	st.Checkpoint = f.Checkpoint
	// An epoch's first block is what servers bootstrap from
	// (full-node.md); go-ethereum saves the same as its checkpoint.
	if f.Slot%params.EpochLength == 0 {
		st.Checkpoint = f.Root
	}
	return writeState(r.cfg.StatePath, st)
}

// bootstrap fetches the bootstrap for the trusted root and starts the
// store from it.
func (r *run) bootstrap(ctx context.Context, root common.Hash, current uint64) (*store, error) {
	path := bootstrapPath + root.Hex()
	body, err := r.fetch.get(ctx, path, nil, objectLimit)
	if err != nil {
		return nil, err
	}
	fail := func(check Check, err error) error {
		return &Error{Endpoint: "GET " + path, At: "bootstrap", Check: check, Err: err}
	}
	b, err := decodeBootstrap(body, r.cfg.Chain)
	if err != nil {
		return nil, fail(CheckDecode, decodeError(err, body))
	}
	s, check, err := checkBootstrap(r.cfg.Chain, b, root)
	if err != nil {
		return nil, fail(check, err)
	}
	c := r.clock()
	switch slot := b.header.Slot; {
	case slot > current:
		return nil, fail(CheckSlots, fmt.Errorf("the checkpoint's slot %d is in the future (the current slot is %d)", slot, current))
	case c.age(slot) > r.cfg.MaxCheckpointAge:
		return nil, fail(CheckCheckpointAge, fmt.Errorf("the checkpoint at slot %d is from %s, %s ago, more than the %s allowed: its sync committees' keys may have left the validator set; take a newer checkpoint from a source you trust",
			slot, c.slotTime(slot).UTC().Format(time.RFC3339), c.age(slot).Round(time.Hour), r.cfg.MaxCheckpointAge))
	}
	return s, nil
}

// finalityUpdate fetches the finality update and checks what needs no
// committee: slots, participation and Merkle branches.
func (r *run) finalityUpdate(ctx context.Context, s *store, current uint64) (*update, error) {
	body, err := r.fetch.get(ctx, finalityPath, nil, finalityLimit)
	if err != nil {
		return nil, err
	}
	fail := func(at string, check Check, err error) error {
		return &Error{Endpoint: "GET " + finalityPath, At: at, Check: check, Err: err}
	}
	u, err := decodeUpdate(body, r.cfg.Chain, false)
	if err != nil {
		return nil, fail("finality update", CheckDecode, decodeError(err, body))
	}
	at := fmt.Sprintf("finality update signed at slot %d", u.signatureSlot)
	switch {
	case u.finalized == nil:
		return nil, fail(at, CheckFinality, errors.New("it carries no finalized header"))
	case u.finalized.proof == nil:
		return nil, fail(at, CheckExecution, fmt.Errorf("its finalized header at slot %d is from before Capella and carries no execution block", u.finalized.Slot))
	}
	if err := checkSlots(u, current); err != nil {
		return nil, fail(at, CheckSlots, err)
	}
	if p := period(u.signatureSlot); p < s.period {
		return nil, fail(at, CheckSlots, fmt.Errorf("it is signed in period %d, before the checkpoint's period %d", p, s.period))
	}
	if err := checkParticipation(&u.aggregate); err != nil {
		return nil, fail(at, CheckParticipation, err)
	}
	if check, err := checkProofs(u); err != nil {
		return nil, fail(at, check, err)
	}
	return u, nil
}

// sync moves the store to period target, one update per period, and
// returns the number of updates applied. A server may answer with fewer
// updates than asked (beacon-APIs allows it); the rest are asked for
// again, and an answer with none is an error.
func (r *run) sync(ctx context.Context, s *store, target, current uint64) (int, error) {
	applied := 0
	for s.period < target {
		count := min(target-s.period, maxUpdatesPerRequest)
		query := url.Values{"start_period": {strconv.FormatUint(s.period, 10)}, "count": {strconv.FormatUint(count, 10)}}
		body, err := r.fetch.get(ctx, updatesPath, query, int64(count)*objectLimit)
		if err != nil {
			return applied, err
		}
		fail := func(at string, check Check, err error) error {
			return &Error{Endpoint: "GET " + updatesPath + "?" + query.Encode(), At: at, Check: check, Err: err}
		}
		updates, err := decodeUpdates(body, r.cfg.Chain)
		switch {
		case err != nil:
			return applied, fail("updates", CheckDecode, decodeError(err, body))
		case len(updates) == 0:
			return applied, fail("updates", CheckUpdates, fmt.Errorf("no update for period %d: the finality update is signed in period %d, whose committee only the updates from period %d on can prove", s.period, target, s.period))
		case uint64(len(updates)) > count:
			return applied, fail("updates", CheckUpdates, fmt.Errorf("%d updates, more than the %d asked for", len(updates), count))
		}
		for i, u := range updates {
			at := fmt.Sprintf("update %d (for period %d)", i, s.period)
			if check, err := s.apply(u, current); err != nil {
				return applied, fail(at, check, err)
			}
			applied++
		}
	}
	return applied, nil
}

// decodeError describes a body that does not decode: the decoder's
// complaint and the body's first bytes, both escaped.
func decodeError(err error, body []byte) error {
	return fmt.Errorf("%s; the answer begins %s", untrusted.Text(err.Error()), untrusted.Quote(body))
}
