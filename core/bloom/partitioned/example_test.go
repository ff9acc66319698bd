package partitioned_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom/partitioned"
)

func ExampleNew() {
	f, err := partitioned.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	f.Add([]byte("bob"))
	fmt.Println(f.M(), f.K(), f.M()/uint64(f.K()))
	fmt.Println(f.Test([]byte("alice")), f.Test([]byte("bob")))
	// Each element sets exactly one bit per slice: at most 2 of each slice.
	st := f.Stats()
	fmt.Println(st.Added, st.SetBits <= 14, st.FalsePositiveRate < 1e-10)
	// Output:
	// 9597 7 1371
	// true true
	// 2 true true
}

func ExampleFalsePositiveRate() {
	// 7 slices of 137,043 bits holding 100,000 elements.
	fmt.Printf("%.5f\n", partitioned.FalsePositiveRate(959_301, 7, 100_000))
	// Output: 0.01000
}

func ExampleFilter_MarshalBinary() {
	// 100 elements at 1 %: 6 slices of 161 bits tie with 7 of 138, and the
	// tie goes to fewer probes; each slice takes 21 bytes after the header.
	f, _ := partitioned.New(100, 0.01)
	f.Add([]byte("kept"))
	data, _ := f.MarshalBinary()
	var g partitioned.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(g.M(), g.K(), len(data), string(data[:4]), g.Test([]byte("kept")))
	// Output: 966 6 135 CSPB true
}
