package scalable_test

import (
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom/scalable"
)

func ExampleNew() {
	// 100 elements expected at first, 1 % false positives however many come.
	f, err := scalable.New(scalable.Params{Capacity: 100, FalsePositiveRate: 0.01})
	if err != nil {
		panic(err)
	}
	for i := range 1000 {
		f.Add(fmt.Appendf(nil, "tx %d", i))
	}
	st := f.Stats()
	fmt.Println(f.Stages(), st.Capacity, st.Bound)
	fmt.Println(f.Test([]byte("tx 7")), st.FalsePositiveRate < st.Bound)
	// Output:
	// 4 1500 0.01
	// true true
}

func ExampleFilter_Add() {
	f, _ := scalable.New(scalable.Params{Capacity: 10, FalsePositiveRate: 0.01})
	fmt.Println(f.Add([]byte("alice")), f.Add([]byte("alice")), f.Added())
	// Output: true false 1
}

func ExampleFilter_Insert() {
	// A tightening of 10^-30 leaves no room for a second stage: its rate
	// would need more than 100 hashes.
	f, _ := scalable.New(scalable.Params{Capacity: 1, FalsePositiveRate: 0.01, Tightening: 1e-30})
	_, err := f.Insert([]byte("first"))
	fmt.Println(err)
	_, err = f.Insert([]byte("second"))
	fmt.Println(errors.Is(err, scalable.ErrFull))
	// Output:
	// <nil>
	// true
}

func ExampleFilter_MarshalBinary() {
	f, _ := scalable.New(scalable.Params{Capacity: 100, FalsePositiveRate: 0.01})
	f.Add([]byte("kept"))
	data, _ := f.MarshalBinary()
	var g scalable.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), g.Test([]byte("kept")), g.Params().Tightening)
	// Output: 195 true 0.85
}
