module github.com/chainsieve/chainsieve

go 1.26.0

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/bits-and-blooms/bloom/v3 v3.7.1
	github.com/btcsuite/btcd/chainhash/v2 v2.0.0
	github.com/btcsuite/btcd/wire/v2 v2.0.1
)

require (
	golang.org/x/crypto v0.40.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
)
