package beacontest

// Lie is one specific way a [Server] departs from the honest chain; each
// should be caught by one check of the client.
type Lie int

const (
	Honest Lie = iota

	// OtherCheckpoint answers a bootstrap request with another block's
	// bootstrap.
	OtherCheckpoint
	// UnprovenPeriod answers every updates request with none: the
	// committee that signed the finality update cannot be reached.
	UnprovenPeriod
	// UpdatesOutOfOrder answers with the first two updates swapped, or
	// with the next period's for a request of one.
	UpdatesOutOfOrder
	// WrongCommitteeBranch corrupts the next sync committee branch of the
	// first update.
	WrongCommitteeBranch
	// ForgedCommittee replaces the next sync committee of the last update
	// the client needs with keys the server holds, and signs the finality
	// update with them.
	ForgedCommittee
	// BadSignature signs the finality update over another message.
	BadSignature
	// LowParticipation signs the finality update with 341 of the 512
	// members, one short of two thirds.
	LowParticipation
	// WrongFinalityBranch corrupts the finality update's finality branch.
	WrongFinalityBranch
	// WrongExecutionBranch corrupts the finalized header's execution
	// branch.
	WrongExecutionBranch
	// ForgedBlockHash replaces the finalized execution block hash and
	// leaves the branch.
	ForgedBlockHash
	// SignatureSlotNotAfterAttested sets the finality update's signature
	// slot to the attested header's slot, and signs for it.
	SignatureSlotNotAfterAttested
	// FutureSignature moves the signature slot 100 slots ahead of the
	// clock, and signs for it.
	FutureSignature
	// Stale serves a valid finality update whose finalized header is
	// 3.3 hours old.
	Stale
	// RolledBack serves a valid finality update two epochs older than the
	// honest one: fresh, but behind what an honest run has accepted.
	RolledBack
	// AttestedForkSignature signs the finality update in the fork of the
	// attested header's epoch, go-ethereum's choice, instead of
	// epoch(signature_slot − 1). It differs from honest only on a chain
	// built with Options.ForkBoundary.
	AttestedForkSignature
	// Oversized pads the finality update with 2 MiB of blanks.
	Oversized
	// Garbage answers the finality update with bytes that are not JSON,
	// control characters included.
	Garbage
	// ServerError answers the finality update with HTTP 500 and a long
	// body with control characters.
	ServerError

	lies // the number of values
)

var lieNames = [...]string{"honest", "other-checkpoint", "unproven-period", "updates-out-of-order",
	"wrong-committee-branch", "forged-committee", "bad-signature", "low-participation",
	"wrong-finality-branch", "wrong-execution-branch", "forged-block-hash",
	"signature-slot-not-after-attested", "future-signature", "stale", "rolled-back",
	"attested-fork-signature", "oversized", "garbage", "server-error"}

var _ [int(lies) - len(lieNames)]struct{} // one name per lie…
var _ [len(lieNames) - int(lies)]struct{} // …and no more

func (l Lie) String() string {
	if l < 0 || l >= lies {
		return "lie(?)"
	}
	return lieNames[l]
}

// Lies returns every lie, Honest excluded.
func Lies() []Lie {
	all := make([]Lie, 0, lies-1)
	for l := Honest + 1; l < lies; l++ {
		all = append(all, l)
	}
	return all
}
