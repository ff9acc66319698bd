package demo

import "testing"

// TestDeterministic builds the chain twice: every block hash must repeat,
// so that indexes built on one machine hold on another.
func TestDeterministic(t *testing.T) {
	_, a, ca, err := generate(40, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, b, cb, err := generate(40, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ca != cb {
		t.Errorf("contracts %+v, then %+v", ca, cb)
	}
	for i := range a {
		if a[i].Hash() != b[i].Hash() {
			t.Fatalf("block %d: %s, then %s", a[i].NumberU64(), a[i].Hash(), b[i].Hash())
		}
	}
	logs := 0
	for _, blk := range a {
		logs += len(blk.Transactions())
	}
	if logs < 40 {
		t.Errorf("%d transactions in 40 blocks: the event mix is too thin", logs)
	}
}
