package gcs

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/compactsize"
)

// readCompactSize decodes the CompactSize N at the start of b and returns it
// with its length. Like Bitcoin Core it rejects a value that a shorter form
// could hold.
func readCompactSize(b []byte) (n uint64, size int, err error) {
	if len(b) == 0 {
		return 0, 0, corruptf("empty encoding, want a CompactSize N at byte 0")
	}
	n, size, err = compactsize.Read(b)
	switch err {
	case compactsize.ErrShort:
		return 0, 0, corruptf("truncated CompactSize N = %d at byte 0", n)
	case compactsize.ErrNonCanonical:
		return 0, 0, corruptf("non-canonical CompactSize N = %d at byte 0", n)
	}
	return n, size, nil
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}
