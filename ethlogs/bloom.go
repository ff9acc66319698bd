package ethlogs

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// BloomLength is the size of a logsBloom in bytes; it holds 2048 bits.
const BloomLength = 256

// Bloom is the logsBloom of a block header or receipt: a 2048-bit set read
// as one big-endian integer, so bit v lives in byte 255-v/8 under mask
// 1<<(v%8). It has the layout of go-ethereum's types.Bloom, and [Bloom.Geth]
// and [FromGeth] convert pointers between the two without copying.
//
// The zero value is the empty bloom.
type Bloom [BloomLength]byte

// FromGeth views go-ethereum's bloom as a *Bloom; both share the bytes.
func FromGeth(b *types.Bloom) *Bloom { return (*Bloom)(b) }

// Geth views b as go-ethereum's bloom; both share the bytes.
func (b *Bloom) Geth() *types.Bloom { return (*types.Bloom)(b) }

// Add adds an address (20 bytes) or topic (32 bytes) to b. Log data is never
// added to a logsBloom.
func (b *Bloom) Add(data []byte) { b.AddValue(ValueOf(data)) }

// AddValue sets the three bits of v.
func (b *Bloom) AddValue(v Value) {
	for i := range v.index {
		b[v.index[i]] |= 1 << v.shift[i]
	}
}

// Test reports whether all three bits of data are set: false means data was
// never added; true may be a false positive (see [Bloom.FalsePositiveRate]).
func (b *Bloom) Test(data []byte) bool { return b.TestValue(ValueOf(data)) }

// TestValue reports whether all three bits of v are set. It does not hash.
func (b *Bloom) TestValue(v Value) bool {
	return (b[v.index[0]]>>v.shift[0])&(b[v.index[1]]>>v.shift[1])&(b[v.index[2]]>>v.shift[2])&1 != 0
}

// AddLog adds a log's address and every topic, as a receipt bloom does.
func (b *Bloom) AddLog(l *types.Log) {
	b.Add(l.Address[:])
	for i := range l.Topics {
		b.Add(l.Topics[i][:])
	}
}

// Or sets b to the union b ∪ c.
func (b *Bloom) Or(c *Bloom) { bitset.BigEndian(b[:]).Or(c[:]) }

// Count returns the number of bits set, 0 to 2048.
func (b *Bloom) Count() int { return bitset.BigEndian(b[:]).Count() }

// Fill returns the fraction of bits set, 0 to 1.
func (b *Bloom) Fill() float64 { return float64(b.Count()) / (8 * BloomLength) }

// FalsePositiveRate returns the probability that a value never added tests
// positive: Fill³, as the three bits are independent for a random value. It
// is 1 for a saturated bloom (the Merge block's) and about 0.3 for a typical
// 2025 mainnet block.
func (b *Bloom) FalsePositiveRate() float64 {
	f := b.Fill()
	return f * f * f
}

// Contains reports whether every bit set in c is set in b.
func (b *Bloom) Contains(c *Bloom) bool {
	for i := range b {
		if c[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

// MarshalText encodes b as "0x" and 512 hex digits, as JSON-RPC does.
func (b Bloom) MarshalText() ([]byte, error) { return hexutil.Bytes(b[:]).MarshalText() }

// UnmarshalText decodes "0x" and exactly 512 hex digits.
func (b *Bloom) UnmarshalText(text []byte) error {
	if err := hexutil.UnmarshalFixedText("Bloom", text, b[:]); err != nil {
		return fmt.Errorf("ethlogs: %w", err)
	}
	return nil
}

// String returns the hex form of b with its popcount, for messages.
func (b *Bloom) String() string {
	return fmt.Sprintf("%s (%d bits set)", hexutil.Bytes(b[:]), b.Count())
}

// Value is an address or topic reduced to its three bloom bits: hashing once
// and then testing byte masks is what makes header scans cheap (go-ethereum's
// Bloom.Test re-hashes on every call). The zero Value tests bit 0 three times.
type Value struct {
	index [3]uint8 // byte of each bit: 255 - v/8
	shift [3]uint8 // v % 8
}

// ValueOf hashes data with Keccak-256 and takes bits from the byte pairs
// (0,1), (2,3) and (4,5) of the digest, each pair read big-endian and masked
// to 11 bits.
func ValueOf(data []byte) Value {
	h := keccakPrefix(data)
	var v Value
	for i := range v.index {
		bit := (uint(h[2*i])<<8 | uint(h[2*i+1])) & 2047
		v.index[i] = uint8(BloomLength - 1 - bit/8)
		v.shift[i] = uint8(bit % 8)
	}
	return v
}

// Bits returns the three bit numbers of v (0 to 2047, most significant bit of
// byte 0 being 2047). They may repeat.
func (v Value) Bits() [3]uint {
	var out [3]uint
	for i := range out {
		out[i] = (BloomLength-1-uint(v.index[i]))*8 + uint(v.shift[i])
	}
	return out
}
