//go:build race

package gcs

// raceEnabled skips allocation counts, which the race detector changes.
const raceEnabled = true
