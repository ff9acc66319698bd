package cfscan

import (
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// ErrFalseFilterHeaders marks a failure that proves the filter-header
// chain false, not just one message: cfheaders that contradict stored or
// trusted filter headers, or a block whose filter, as the chain commits
// to it, lacks one of the block's output scripts. Whoever served those
// filter headers lied. Errors that wrap it also wrap spv.ErrMisbehaving.
var ErrFalseFilterHeaders = errors.New("cfscan: the filter-header chain is false")

// BlockError is a scan's failure at a block: what a peer served for it
// failed verification. Err wraps spv.ErrMisbehaving.
type BlockError struct {
	Height int32
	Hash   chainhash.Hash // zero if unknown
	Err    error
}

func (e *BlockError) Error() string {
	if e.Hash == (chainhash.Hash{}) {
		return fmt.Sprintf("cfscan: block %d: %v", e.Height, e.Err)
	}
	return fmt.Sprintf("cfscan: block %d (%s): %v", e.Height, e.Hash, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

// errorf returns a *BlockError that wraps spv.ErrMisbehaving.
func errorf(height int32, hash chainhash.Hash, format string, args ...any) error {
	return &BlockError{height, hash, fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), spv.ErrMisbehaving)}
}

// falsef returns a *BlockError that wraps ErrFalseFilterHeaders and
// spv.ErrMisbehaving.
func falsef(height int32, hash chainhash.Hash, format string, args ...any) error {
	return &BlockError{height, hash, fmt.Errorf("%s: %w: %w", fmt.Sprintf(format, args...), ErrFalseFilterHeaders, spv.ErrMisbehaving)}
}
