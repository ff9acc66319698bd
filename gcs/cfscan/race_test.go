//go:build race

package cfscan

// raceEnabled skips allocation counts, which the race detector changes.
const raceEnabled = true
