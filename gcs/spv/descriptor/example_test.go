package descriptor_test

import (
	"fmt"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// A wallet's receiving and change addresses from one BIP389 multipath
// descriptor (the BIP86 test account).
func Example() {
	const desc = "tr([73c5da0a/86h/0h/0h]xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ/<0;1>/*)"
	d, err := descriptor.Parse(desc, &chaincfg.MainNetParams)
	if err != nil {
		fmt.Println(err)
		return
	}
	for chain, c := range d.Expand() {
		for i := range uint32(2) {
			a, _ := c.Address(i)
			fmt.Println(chain, i, a)
		}
	}
	// Output:
	// 0 0 bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr
	// 0 1 bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh
	// 1 0 bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7
	// 1 1 bc1ptdg60grjk9t3qqcqczp4tlyy3z47yrx9nhlrjsmw36q5a72lhdrs9f00nj
}

// Parse refuses what a watch-only wallet cannot derive and says where.
func ExampleParse_error() {
	_, err := descriptor.Parse("wpkh(xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8/84h/0)", &chaincfg.MainNetParams)
	fmt.Println(err)
	// Output:
	// descriptor: offset 117: hardened step 84h needs the private key
}

func ExampleChecksum() {
	sum, _ := descriptor.Checksum("raw(deadbeef)")
	fmt.Println(sum)
	// Output:
	// 89f8spxm
}
