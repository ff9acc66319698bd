package gcs_test

import (
	"encoding/hex"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"

	"github.com/chainsieve/chainsieve/gcs"
)

// A Golomb-coded set answers "may this item be in the set?": always yes for
// members, and yes for a non-member with probability 1/M.
func Example() {
	params := gcs.Params{P: gcs.BasicP, M: gcs.BasicM}
	key := gcs.Key{1, 2, 3}
	f, err := gcs.Build(params, key, [][]byte{[]byte("alice"), []byte("bob"), []byte("alice")})
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Len(), len(f.Bytes()))
	fmt.Println(f.Match([]byte("bob")), f.Match([]byte("carol")))
	// Output:
	// 2 7
	// true false
}

// The testnet genesis block's basic filter, from the BIP158 vectors. Block
// hashes and filter headers are printed in display order; the key is the
// first 16 bytes of the hash in internal order.
func ExampleDecodeBasic() {
	hash, _ := chainhash.NewHashFromStr("000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943")
	filter, _ := hex.DecodeString("019dfca8")
	f, err := gcs.DecodeBasic(*hash, filter)
	if err != nil {
		panic(err)
	}
	key := f.Key()
	fmt.Printf("key %x, N=%d\n", key[:4], f.Len())
	fmt.Println("header", f.Header(chainhash.Hash{}))
	coinbaseOut, _ := hex.DecodeString("4104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac")
	fmt.Println(f.Match(coinbaseOut))
	// Output:
	// key 43497fd7, N=1
	// header 21584579b7eb08997773e5aeff3a7f932700042d0ed2a6129012b7d7ae81b750
	// true
}

// A light client tests its wallet's scripts against filter after filter with
// one Query: each block has its own key, and the Query reuses its buffers.
func ExampleQuery() {
	wallet := gcs.NewQuery([][]byte{[]byte("script A"), []byte("script B"), []byte("script C")})
	params := gcs.Params{P: gcs.BasicP, M: gcs.BasicM}
	blocks := [][][]byte{
		{[]byte("script X"), []byte("script Y")},
		{[]byte("script Z"), []byte("script C"), []byte("script A")},
	}
	var hits []int
	for i, items := range blocks {
		f, _ := gcs.Build(params, gcs.Key{byte(i)}, items)
		if wallet.MatchAny(&f) {
			hits = wallet.Matches(hits[:0], &f)
			fmt.Printf("block %d may pay items %v\n", i, hits)
		}
	}
	// Output:
	// block 1 may pay items [0 2]
}

// A cfheaders reply commits to one filter hash per block; the headers it
// implies are checked against a trusted header. Here: testnet blocks 2 and 3
// of the BIP158 vectors, with the published header of block 3 as checkpoint.
func ExampleCFHeaders() {
	prev, _ := chainhash.NewHashFromStr("d7bdac13a59d745b1add0d2ce852f1a0442e8945fc1bf3848d3cbffd88c24fe1")
	trusted, _ := chainhash.NewHashFromStr("8d63aadf5ab7257cb6d2316a57b16f517bff1c6388f124ec4c04af1212729d2a")
	msg := &wire.MsgCFHeaders{FilterType: wire.GCSFilterRegular, PrevFilterHeader: *prev}
	for _, filter := range []string{"0174a170", "016cf7a0"} {
		b, _ := hex.DecodeString(filter)
		h := gcs.FilterHash(b)
		msg.AddCFHash(&h)
	}
	headers, err := gcs.CFHeaders(nil, msg)
	if err != nil {
		panic(err)
	}
	checked, err := gcs.VerifyHeaders(2, headers, gcs.Checkpoint{Height: 3, Header: *trusted})
	fmt.Println(headers[0])
	fmt.Println(checked, err)
	// Output:
	// 186afd11ef2b5e7e3504f2e8cbf8df28a1fd251fe53d60dff8b1467d1b386cf0
	// 1 <nil>
}
