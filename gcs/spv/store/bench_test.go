package store

import (
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// BenchmarkHeaderRead reads one header and its hash from a store on disk
// (the page cache): with the record's checksum checked (chainsieve), and
// the bare pread and hash without it (bound), the price of the checksum.
func BenchmarkHeaderRead(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	hs := chain(chainhash.Hash{}, 4096, 0)
	if err := s.Init(testID, 0, 0, hs); err != nil {
		b.Fatal(err)
	}
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		h := int32(0)
		for b.Loop() {
			if _, _, err := s.Header(h); err != nil {
				b.Fatal(err)
			}
			h = (h + 1) % 4096
		}
	})
	b.Run("bound", func(b *testing.B) {
		b.ReportAllocs()
		var rec [headerRec]byte
		h := int64(0)
		for b.Loop() {
			if _, err := s.headers.ReadAt(rec[:], h*headerRec); err != nil {
				b.Fatal(err)
			}
			getHeader(rec[:])
			chainhash.DoubleHashH(rec[:headerSize])
			h = (h + 1) % 4096
		}
	})
}
