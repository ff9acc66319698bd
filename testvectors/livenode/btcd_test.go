package livenode

import "testing"

func TestBtcd(t *testing.T) {
	t.Parallel()
	testChain(t, StartBtcd)
}
