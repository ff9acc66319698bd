package cuckoo_test

import (
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/cuckoo"
)

func ExampleNew() {
	f, err := cuckoo.New(1000, 0.01)
	if err != nil {
		panic(err)
	}
	if err := f.Add([]byte("alice")); err != nil {
		panic(err)
	}
	fmt.Println(f.Test([]byte("alice")), f.Count())
	st := f.Stats()
	fmt.Println(st.Buckets, st.FingerprintBits, st.Bits)
	// Output:
	// true 1
	// 285 10 11400
}

func ExampleFilter_Remove() {
	f, _ := cuckoo.New(100, 0.001)
	_ = f.Add([]byte("utxo 1"))
	_ = f.Add([]byte("utxo 2"))
	// Spent outputs leave the filter; delete only what was inserted.
	fmt.Println(f.Remove([]byte("utxo 1")), f.Test([]byte("utxo 1")), f.Test([]byte("utxo 2")))
	// Output: true false true
}

func ExampleFilter_Add() {
	// One bucket of four 8-bit slots: the fifth element has nowhere to go.
	f, _ := cuckoo.NewWithShape(1, 8)
	for i := range 5 {
		if err := f.Add([]byte{byte(i)}); err != nil {
			fmt.Println(errors.Is(err, cuckoo.ErrFull), f.Count())
			fmt.Println(err)
		}
	}
	// Output:
	// true 4
	// cuckoo: filter full at load 1.0000 (4 of 4 slots) after 500 relocations
}

func ExampleFilter_MarshalBinary() {
	f, _ := cuckoo.New(100, 0.01)
	_ = f.Add([]byte("kept"))
	// 5 header bytes, 3 one-byte uvarints (34 buckets, f = 10, 1 item),
	// 34·4·10 bits = 170 bytes of table.
	data, _ := f.MarshalBinary()
	var g cuckoo.Filter
	if err := g.UnmarshalBinary(data); err != nil {
		panic(err)
	}
	fmt.Println(len(data), g.Test([]byte("kept")), g.Count())
	// Output: 178 true 1
}
