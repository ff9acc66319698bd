package beacon

import (
	"fmt"
	"strings"
)

// Check names the rule a beacon API answer broke. Every error [Anchor]
// returns for a bad answer is an [*Error] carrying one.
type Check string

// The checks, in the order a run meets them.
const (
	CheckState         Check = "state file"            // unreadable, corrupt or of another network
	CheckTransport     Check = "transport"             // no answer, timeout, or an HTTP status other than 200
	CheckSize          Check = "size"                  // an answer over the size limit
	CheckDecode        Check = "decode"                // not the JSON the beacon API specifies
	CheckCheckpoint    Check = "checkpoint"            // the bootstrap header is not the trusted root
	CheckCheckpointAge Check = "checkpoint age"        // the trusted root is older than the weak-subjectivity bound
	CheckSlots         Check = "slots"                 // signature, attested and finalized slots out of order, in the future or in the wrong period
	CheckUpdates       Check = "update sequence"       // an update missing, out of order or proving no finality
	CheckParticipation Check = "participation"         // fewer than 2/3 of the sync committee signed
	CheckCommittee     Check = "sync committee branch" // a committee not proven by its Merkle branch
	CheckFinality      Check = "finality branch"       // a finalized header not proven by its Merkle branch
	CheckExecution     Check = "execution branch"      // an execution payload not proven by its Merkle branch
	CheckSignature     Check = "signature"             // the aggregate signature does not verify
	CheckRollback      Check = "rollback"              // a finalized header older than one already accepted
	CheckFreshness     Check = "freshness"             // the newest finalized header is too old
)

// Error is a beacon API answer that failed a check, or a failure to get
// one.
type Error struct {
	Endpoint string // the request, as "GET /eth/v1/…"; the state file's path for CheckState
	At       string // the object checked: "update 0 (for period 5)", "finality update signed at slot 41000"
	Check    Check
	Err      error // the detail; text from the server in it is clipped and escaped
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("beacon: ")
	if e.Endpoint != "" {
		b.WriteString(e.Endpoint + ": ")
	}
	if e.At != "" {
		b.WriteString(e.At + ": ")
	}
	fmt.Fprintf(&b, "%s: %v", e.Check, e.Err)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }
