package scan

import (
	"sync"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
)

// DemoChain is one demo node shared by the package's tests, internal and
// external: they only read it.
var DemoChain = sync.OnceValues(func() (*demo.Chain, error) { return demo.Start(demo.DefaultBlocks) })

// SetBounds sets how many candidates' headers a run keeps and how many
// blocks it looks up in the index at a time, until restore is called.
func SetBounds(known int, window uint64) (restore func()) {
	k, w := maxKnown, candidateWindow
	maxKnown, candidateWindow = known, window
	return func() { maxKnown, candidateWindow = k, w }
}

// KnownPeak returns the most candidates' headers the run held at once.
func KnownPeak(s Stats) int { return s.knownPeak }
