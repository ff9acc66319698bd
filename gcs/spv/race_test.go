//go:build race

package spv

// raceEnabled skips allocation counts, which the race detector changes.
const raceEnabled = true
