package bitio_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitio"
)

// A Golomb-Rice code with parameter P writes v>>P in unary, then the low P bits
// of v. This is BIP158's coding of the testnet genesis block's single element.
func Example() {
	const p = 19
	var w bitio.Writer
	w.WriteUnary(769941 >> p)
	w.WriteBits(769941, p)
	fmt.Printf("%x\n", w.Bytes())

	r := bitio.NewReader(w.Bytes())
	v := r.ReadUnary()<<p | r.ReadBits(p)
	fmt.Println(v, r.Err(), r.Remaining())
	// Output:
	// 9dfca8
	// 769941 <nil> 3
}
