//go:build !linux

package index

func prefetch(data []byte) {}
