package blocked_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom/blocked"
)

func ExampleNew() {
	f, err := blocked.New(100_000, 0.01)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	f.Add([]byte("bob"))
	// 1938 cache lines of 512 bits, 6 bits per element inside one line.
	fmt.Println(f.Blocks(), f.K(), f.M())
	fmt.Println(f.Test([]byte("alice")), f.Test([]byte("bob")))
	st := f.Stats()
	fmt.Println(st.Added, st.SetBits <= 12)
	// Output:
	// 1938 6 992256
	// true true
	// 2 true
}

func ExampleFalsePositiveRate() {
	// The blocking penalty at equal memory: 1873 blocks for 100,000
	// elements, where the classic filter reaches 1.00 %.
	fmt.Printf("%.4f\n", blocked.FalsePositiveRate(1873*512, 6, 100_000))
	// Output: 0.0115
}

func ExampleFilter_MarshalBinary() {
	f, _ := blocked.NewWithShape(2, 4)
	f.Add([]byte("kept"))
	data, _ := f.MarshalBinary()
	var g blocked.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), string(data[:4]), g.Test([]byte("kept")))
	// Output: 136 CSBB true
}
