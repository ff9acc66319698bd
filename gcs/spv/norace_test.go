//go:build !race

package spv

const raceEnabled = false
