package descriptor

import (
	"errors"
	"fmt"
)

// Sentinels for the errors callers branch on; every error [Parse] returns
// is an [*Error], and wraps one of these (or hdkeychain's
// ErrDeriveHardFromPublic or ErrInvalidChild) when it applies.
var (
	// ErrChecksum marks a '#' checksum that is malformed or does not match,
	// or a byte outside the descriptor character set.
	ErrChecksum = errors.New("descriptor: bad checksum")

	// ErrUnsupported marks a valid descriptor this package does not derive:
	// anything but pkh(KEY), wpkh(KEY), sh(wpkh(KEY)) and tr(KEY).
	ErrUnsupported = errors.New("descriptor: unsupported form")

	// ErrPrivateKey marks a private key (WIF or xprv/tprv): a watch-only
	// wallet needs the public key only, and this package never holds a
	// secret.
	ErrPrivateKey = errors.New("descriptor: private key")

	// ErrNetwork marks an extended key whose version bytes belong to
	// another network than the one the caller named.
	ErrNetwork = errors.New("descriptor: key of another network")

	// ErrMultipath marks a call that needs one derivation path on a
	// multipath descriptor: use [Descriptor.Expand] first.
	ErrMultipath = errors.New("descriptor: multipath descriptor")
)

// Error is a descriptor that cannot be parsed or derived, with the byte
// offset in the descriptor where the problem starts.
type Error struct {
	Offset int    // byte offset in the descriptor string
	Msg    string // what is wrong
	Err    error  // the sentinel it wraps, or nil
}

func (e *Error) Error() string { return fmt.Sprintf("descriptor: offset %d: %s", e.Offset, e.Msg) }

// Unwrap returns the sentinel the error wraps.
func (e *Error) Unwrap() error { return e.Err }
