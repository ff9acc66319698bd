package ethlogs

// Test-only exports for the external tests in package ethlogs_test.
var (
	GethBloomFilter = gethBloomFilter
	PortalBlooms    = portalBlooms
)
