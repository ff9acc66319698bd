package spv

import "errors"

// Sentinels for the two ways a peer fails a light client, wrapped by every
// error this package and the scan packages return for them. A wallet drops
// the peer either way; one that misbehaved it may also ban.
var (
	// ErrMisbehaving marks data the peer served that fails verification
	// (a header without its proof of work, a filter or block that does not
	// match what the header chain commits to, a malformed message) or a
	// reply that breaks the protocol (a block it was not asked for, a
	// request it left half answered).
	ErrMisbehaving = errors.New("spv: peer misbehaving")

	// ErrStalled marks a peer that did not send what it owed within the
	// session's timeout.
	ErrStalled = errors.New("spv: peer stalled")
)
