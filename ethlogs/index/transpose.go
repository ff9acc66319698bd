package index

// transpose64 transposes a 64×64 bit matrix in place: afterwards bit i of
// a[k] is what bit k of a[i] was. It swaps ever smaller blocks (32×32, then
// 16×16, … 1×1) across the diagonal with masked XORs: 6 rounds of 32 word
// pairs instead of 4096 single-bit moves.
func transpose64(a *[64]uint64) {
	mask := uint64(0x00000000ffffffff)
	for width := 32; width > 0; width >>= 1 {
		for k := 0; k < 64; k = (k + width + 1) &^ width {
			t := (a[k]>>width ^ a[k+width]) & mask
			a[k] ^= t << width
			a[k+width] ^= t
		}
		mask ^= mask << (width >> 1)
	}
}
