package livenode

import "testing"

func TestLitecoind(t *testing.T) {
	t.Parallel()
	testChain(t, StartLitecoind)
}
