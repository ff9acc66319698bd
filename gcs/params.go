package gcs

import "fmt"

// The parameters of BIP158 basic filters (filter type 0x00). M is not 2^P:
// 784931 ≈ 1.497·2^19 minimises the filter size for a 1/M false-positive rate.
const (
	BasicP = 19
	BasicM = 784931
)

// Params are the parameters of a Golomb-coded set: P, the number of remainder
// bits in each Golomb-Rice code, and M, the inverse of the false-positive rate
// per queried item. A set of N items hashes into [0, N·M).
type Params struct {
	P uint8  // 1 to 32
	M uint64 // 1 to 2^32-1
}

// check reports parameters that no encoder or decoder here supports.
func (p Params) check() error {
	if p.P < 1 || p.P > 32 {
		return fmt.Errorf("gcs: P = %d, want 1 to 32", p.P)
	}
	if p.M < 1 || p.M > 1<<32-1 {
		return fmt.Errorf("gcs: M = %d, want 1 to 2^32-1", p.M)
	}
	return nil
}
