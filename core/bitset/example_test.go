package bitset_test

import (
	"encoding/hex"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitset"
)

func ExampleSet() {
	s := bitset.New(100)
	s.Set(3)
	s.Set(99)
	fmt.Println(s.Test(3), s.Test(4), s.Count())
	fmt.Println(hex.EncodeToString(s.AppendBytes(nil)))
	// Output:
	// true false 2
	// 08000000000000000000000008
}

func ExampleBigEndian() {
	// An Ethereum logsBloom is 256 bytes; bit 2047 is the top bit of byte 0.
	var bloom [256]byte
	v := bitset.BigEndian(bloom[:])
	v.Set(2047)
	v.Set(0)
	fmt.Printf("%#x %#x %d\n", bloom[0], bloom[255], v.Count())
	// Output: 0x80 0x1 2
}

func ExampleLittleEndian() {
	// BIP37 filter data: bit i is byte i/8, mask 1<<(i%8).
	data := make([]byte, 3)
	v := bitset.LittleEndian(data)
	v.Set(0)
	v.Set(9)
	fmt.Println(hex.EncodeToString(data), v.Test(9), v.Test(10))
	// Output: 010200 true false
}
