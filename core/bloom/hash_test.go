package bloom

import (
	"encoding/binary"
	"testing"
)

// TestSum128Verification runs SMHasher's VerificationTest: hash the keys
// {}, {0}, {0,1}, ... {0..254} with seed 256-len, hash the concatenated
// results with seed 0, and read the first four bytes as a little-endian
// uint32. The expected value 0x6384BA69 for MurmurHash3_x64_128 is published
// in aappleby/smhasher src/main.cpp (the hash table's verification column).
func TestSum128Verification(t *testing.T) {
	var key [256]byte
	hashes := make([]byte, 0, 16*256)
	for i := range 256 {
		key[i] = byte(i)
		h1, h2 := sum128(key[:i], uint32(256-i))
		hashes = binary.LittleEndian.AppendUint64(hashes, h1)
		hashes = binary.LittleEndian.AppendUint64(hashes, h2)
	}
	h1, _ := sum128(hashes, 0)
	if got, want := uint32(h1), uint32(0x6384BA69); got != want {
		t.Errorf("SMHasher verification of sum128 = %#08x, want %#08x", got, want)
	}
}

func TestSum128NoAllocs(t *testing.T) {
	data := make([]byte, 37)
	if n := testing.AllocsPerRun(100, func() { sum128(data, 0) }); n != 0 {
		t.Errorf("sum128 allocates %v times per call, want 0", n)
	}
}
