package ethlogs

// GethBloomFilter exports the go-ethereum prefilter restatement to the
// external tests in package ethlogs_test.
var GethBloomFilter = gethBloomFilter
