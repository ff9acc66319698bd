package ethlogs

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// The reasons a block fails verification; a [BlockError] wraps one of them,
// so errors.Is tells a lying node (wrong root, dropped log) from a broken
// chain link.
var (
	ErrHeaderHash   = errors.New("ethlogs: header hash mismatch")
	ErrHeaderRLP    = errors.New("ethlogs: bad header encoding")
	ErrParentLink   = errors.New("ethlogs: header does not link to its parent")
	ErrReceiptsRoot = errors.New("ethlogs: receipts root mismatch")
	ErrReceiptBloom = errors.New("ethlogs: receipt bloom does not match its logs")
	ErrHeaderBloom  = errors.New("ethlogs: header logsBloom does not match the receipts' logs")
	ErrReceipt      = errors.New("ethlogs: bad receipt")
)

// BlockError is a verification failure in one block.
type BlockError struct {
	Number uint64
	Hash   common.Hash // zero when not known
	Err    error       // wraps one of the Err* reasons with the detail
}

func (e *BlockError) Error() string {
	if e.Hash == (common.Hash{}) {
		return fmt.Sprintf("ethlogs: block %d: %v", e.Number, e.Err)
	}
	return fmt.Sprintf("ethlogs: block %d (%s): %v", e.Number, e.Hash.TerminalString(), e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

func blockError(number uint64, hash common.Hash, reason error, format string, args ...any) error {
	return &BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: "+format, append([]any{reason}, args...)...)}
}

func errorf(reason error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{reason}, args...)...)
}
