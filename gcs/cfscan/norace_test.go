//go:build !race

package cfscan

const raceEnabled = false
