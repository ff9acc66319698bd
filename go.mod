module github.com/chainsieve/chainsieve

go 1.26.0

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/bits-and-blooms/bloom/v3 v3.7.1
)
