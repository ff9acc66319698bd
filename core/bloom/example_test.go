package bloom_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom"
)

func ExampleNew() {
	f, err := bloom.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	f.Add([]byte("bob"))
	fmt.Println(f.M(), f.K())
	fmt.Println(f.Test([]byte("alice")), f.Test([]byte("bob")))
	st := f.Stats()
	fmt.Println(st.Added, st.SetBits <= 14)
	// Output:
	// 9586 7
	// true true
	// 2 true
}

func ExampleFalsePositiveRate() {
	// Ethereum's logsBloom: 2048 bits, 3 bits per value, 430 distinct values.
	fmt.Printf("%.3f\n", bloom.FalsePositiveRate(2048, 3, 430))
	// Output: 0.102
}

func ExampleOptimalBits() {
	bits := bloom.OptimalBits(1000, 0.01)
	fmt.Printf("%.0f bits, %.2f hashes\n", bits, bloom.OptimalHashes(bits, 1000))
	// Output: 9585 bits, 6.64 hashes
}

func ExampleFilter_Union() {
	a, _ := bloom.New(100, 0.01)
	b, _ := bloom.New(100, 0.01)
	a.Add([]byte("x"))
	b.Add([]byte("y"))
	if err := a.Union(b); err != nil {
		panic(err)
	}
	c, _ := bloom.New(10, 0.01)
	fmt.Println(a.Test([]byte("y")), a.Union(c) != nil)
	// Output: true true
}

func ExampleFilter_MarshalBinary() {
	f, _ := bloom.New(100, 0.01)
	f.Add([]byte("kept"))
	data, _ := f.MarshalBinary()
	var g bloom.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), g.Test([]byte("kept")))
	// Output: 129 true
}
