package counting_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom/counting"
)

func ExampleNew() {
	f, err := counting.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("alice"))
	f.Add([]byte("bob"))
	fmt.Println(f.M(), f.K())
	fmt.Println(f.Test([]byte("alice")), f.Test([]byte("bob")))
	// Output:
	// 9586 7
	// true true
}

func ExampleFilter_Remove() {
	f, _ := counting.New(1000, 0.01)
	f.Add([]byte("outpoint"))
	f.Add([]byte("outpoint")) // counted twice
	fmt.Println(f.Remove([]byte("outpoint")), f.Test([]byte("outpoint")))
	fmt.Println(f.Remove([]byte("outpoint")), f.Test([]byte("outpoint")))
	// Never added, and (almost surely) not a false positive: nothing changes.
	fmt.Println(f.Remove([]byte("stranger")))
	// Output:
	// true true
	// true false
	// false
}

func ExampleFilter_Stats() {
	f, _ := counting.New(1000, 0.01)
	for i := range 1000 {
		f.Add(fmt.Appendf(nil, "element %d", i))
	}
	st := f.Stats()
	fmt.Println(st.Counters, st.Bits, st.Added, st.Saturated)
	fmt.Printf("fill %.2f, false positives %.3f\n", st.Fill, st.FalsePositiveRate)
	// Output:
	// 9586 38344 1000 0
	// fill 0.52, false positives 0.010
}

func ExampleFilter_MarshalBinary() {
	f, _ := counting.New(100, 0.01)
	f.Add([]byte("kept"))
	data, _ := f.MarshalBinary()
	var g counting.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), g.Test([]byte("kept")), g.Remove([]byte("kept")), g.Test([]byte("kept")))
	// Output: 489 true true false
}
