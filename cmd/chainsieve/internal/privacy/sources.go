package privacy

// Sources cited beside the numbers. They name papers, specifications and
// files without URLs: the HTML report must not point at the network.
const (
	srcGervais = "Gervais, Karame, Gruber, Čapkun: On the Privacy Provisions of Bloom Filters in " +
		"Lightweight Bitcoin Clients, ACSAC 2014 (DOI 10.1145/2664243.2664267)"
	srcNick     = "Jonas Nick (2015), analysis of bitcoinj's wallet filters; figures as quoted in chainsieve issue 8"
	srcBitcoinj = "bitcoinj BloomFilter (size and hash-count formulas, getFalsePositiveRate) and its wallet defaults " +
		"as described by Gervais et al. (ACSAC 2014): 2N + 100 elements, 0.05 %"
	srcCore     = "Bitcoin Core src/common/bloom.cpp, CBloomFilter constructor (package bip37, Params)"
	srcBloom    = "Bloom (1970); the standard analysis of Bloom filters (Broder and Mitzenmacher, 2004)"
	srcSwamidas = "Swamidass and Baldi (2007), the maximum-likelihood element count of a Bloom filter (bip37.Filter.EstimatedCount)"
	srcBIP158   = "BIP 158: basic filters with P = 19 and M = 784931, Golomb-Rice coded"
	srcBIP157   = "BIP 157: cfheaders carry one 32-byte filter hash per block; cfilter carries filter type, block hash and filter"
	srcGolomb   = "Golomb (1966); Gallager and van Voorhis (1975): Golomb codes for geometric sources; Shannon entropy of the geometric law"
	srcBound    = "Carter, Floyd, Gill, Markowsky and Wegman (1978): an approximate-membership structure needs log2(1/ε) bits per element"
	srcEthBloom = "Ethereum logsBloom: 2048 bits, 3 bits per address or topic from keccak256 " +
		"(Yellow Paper; go-ethereum core/types/bloom9.go; package ethlogs)"
	srcCapacity = "ethereum.stackexchange.com, \"capacity of the logsBloom\" (quoted in shared/research/ethlogs.md §5)"
	srcSpacing  = "Bitcoin's block target of 600 seconds: 144 blocks a day, 52,560 a year"
	srcSlots    = "Ethereum proof of stake: one slot every 12 seconds, 2,628,000 a year (missed slots make fewer blocks)"
	srcModel    = "chainsieve's model (docs/privacy.md)"
	srcFamily   = "chainsieve's filter family (core/bloom, core/bloom/partitioned, blocked, counting, scalable, core/cuckoo, gcs), measured as in docs/filters.md"
	srcRPC      = "Ethereum JSON-RPC: eth_getBlockReceipts(blockHash) names a block; eth_getLogs names the addresses and topics"

	srcEmbeddedBIP158 = "testvectors/bip158/testnet-19.json (bitcoin/bips, bip-0158), filters rebuilt byte for byte with package gcs"
	srcEmbeddedGCS    = "testvectors/bip158/raw-gcs.json: Bitcoin Core's bench set of 10,000 elements (src/bench/gcs_filter.cpp), rebuilt with package gcs"
	srcEmbeddedBIP37  = "testvectors/bip37/merkle_blocks.json: the real mainnet block of Bitcoin Core's merkle_block_1 test, merkle blocks built with package bip37"
	srcEmbeddedEth    = "testvectors/ethlogs/mainnet-*.json: real mainnet headers and receipts (portal-spec-tests, helios), verified with go-ethereum"
)
