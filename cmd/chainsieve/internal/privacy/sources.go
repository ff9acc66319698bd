package privacy

// Sources cited beside the numbers: published papers (authors, venue,
// year), BIPs and EIPs, and public repositories with the path of the file
// meant. They carry no URLs, since the HTML report must not point at the
// network, and no internal references (chainsieve's issues, notes kept
// outside the repository): a reader must be able to open every one. This
// repository's docs appear only as "see also" after a published source
// or for chainsieve's own models and measurements.
const (
	srcGervais = "Gervais, Karame, Gruber, Čapkun: On the Privacy Provisions of Bloom Filters in " +
		"Lightweight Bitcoin Clients, ACSAC 2014 (DOI 10.1145/2664243.2664267)"
	srcNick = "Jonas Nick: Data-Driven De-Anonymization in Bitcoin, Master's thesis, ETH Zürich, Distributed Computing " +
		"Group, 2015 (the BIP37 filters of bitcoinj wallets)"
	srcBitcoinj = "bitcoinj/bitcoinj core/src/main/java/org/bitcoinj/core/BloomFilter.java (size and hash-count formulas, " +
		"getFalsePositiveRate); the wallet defaults, 2N + 100 elements at 0.05 %, as Gervais et al. (ACSAC 2014) describe them"
	srcCore     = "bitcoin/bitcoin src/common/bloom.cpp, the CBloomFilter constructor (package bip37, Params)"
	srcBloom    = "Bloom: Space/Time Trade-offs in Hash Coding with Allowable Errors, CACM 1970; Broder and Mitzenmacher: Network Applications of Bloom Filters: A Survey, Internet Mathematics 2004"
	srcSwamidas = "Swamidass and Baldi: Mathematical Correction for Fingerprint Similarity Measures to Improve Chemical Retrieval, J. Chem. Inf. Model. 2007 (the element count of a Bloom filter; bip37.Filter.EstimatedCount)"
	srcBIP158   = "BIP 158 (bitcoin/bips bip-0158.mediawiki): basic filters with P = 19 and M = 784931, Golomb-Rice coded"
	srcWuille   = "Pieter Wuille: Minimizing the redundancy in Golomb Coded Sets (2018; gist sipa/576d5f09c3b86c3b1b75598d799fc845, " +
		"cited by BIP 158): expected size B + 1/(1 - (1 - 1/M)^(2^B)) bits per element"
	srcPosen = "Jim Posen: bitcoin/bitcoin pull request 12254, BIP 158: Compact Block Filters for Light Clients (2018), " +
		"filter sizes of the mainnet blocks after height 150,000"
	srcBIP157   = "BIP 157 (bitcoin/bips bip-0157.mediawiki): cfheaders carry one 32-byte filter hash per block; cfilter carries filter type, block hash and filter"
	srcGolomb   = "Golomb: Run-Length Encodings, IEEE Trans. Inf. Theory 1966; Gallager and van Voorhis: Optimal Source Codes for Geometrically Distributed Integer Alphabets, IEEE Trans. Inf. Theory 1975"
	srcBound    = "Carter, Floyd, Gill, Markowsky and Wegman: Exact and Approximate Membership Testers, STOC 1978 (log2(1/ε) bits per element at least)"
	srcEthBloom = "Ethereum logsBloom: 2048 bits, 3 bits per address or topic from keccak256 (Ethereum Yellow Paper, " +
		"the bloom function M3:2048; ethereum/go-ethereum core/types/bloom9.go; package ethlogs)"
	srcCapacity = "Ethereum Stack Exchange question 56123, What is the capacity of the logsBloom? (2018): (1 - e^(-3n/2048))³ for n values"
	srcSpacing  = "Bitcoin's block target of 600 seconds: 144 blocks a day, 52,560 a year"
	srcSlots    = "Ethereum proof of stake: one slot every 12 seconds, 2,628,000 a year (missed slots make fewer blocks)"
	srcModel    = "chainsieve's model (see also docs/privacy.md)"
	srcFamily   = "chainsieve's filter family (core/bloom, core/bloom/partitioned, blocked, counting, scalable, core/cuckoo, gcs); see also docs/filters.md"
	srcRPC      = "Ethereum execution JSON-RPC API (ethereum/execution-apis): eth_getBlockReceipts(blockHash) names a block; eth_getLogs names the addresses and topics"

	srcEmbeddedBIP158 = "BIP 158 test vectors (bitcoin/bips bip-0158/testnet-19.json), embedded in chainsieve; filters rebuilt byte for byte with package gcs"
	srcEmbeddedGCS    = "Bitcoin Core's 10,000-element GCS benchmark set (bitcoin/bitcoin src/bench/gcs_filter.cpp), embedded in chainsieve; rebuilt with package gcs"
	srcEmbeddedBIP37  = "the real mainnet block of Bitcoin Core's merkle_block_1 test (bitcoin/bitcoin src/test/bloom_tests.cpp), embedded in chainsieve; merkle blocks built with package bip37"
	srcEmbeddedEth    = "real mainnet headers and receipts from ethereum/portal-spec-tests tests/mainnet/history/block_data, embedded in chainsieve; verified with go-ethereum"
)
