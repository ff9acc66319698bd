package bloomscan

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
)

// TestRequestSizing: the decisions between requests, from the filter's
// room and the most elements the peer inserted in one block.
func TestRequestSizing(t *testing.T) {
	policy := func(limit float64) bip37.WalletPolicy {
		return bip37.WalletPolicy{FPRate: 0.01, Limit: limit, Tweak: 3, Flags: bip37.UpdateAll, Capacity: 100}
	}
	filter := func(p bip37.WalletPolicy, n int) *bip37.Filter {
		f, err := p.Build(nil, outPoints(n))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	p := policy(0)
	half := filter(p, 50)
	room := p.Room(half) // about 50: the filter's capacity is 100
	if room < 30 || room > 70 {
		t.Fatalf("Room of a half-full filter = %v, want about 50", room)
	}
	tests := []struct {
		name       string
		limit      float64
		filter     *bip37.Filter
		hopeless   bool
		inserts    float64
		window     int32
		wantWindow int32
		wantTight  bool
	}{
		{"first request", 0, half, false, 0, 0, firstRequest, false},
		{"doubles while nothing is inserted", 0, half, false, 0, 64, 128, false},
		{"at most blocksPerRequest", 0, half, false, 0, 400, blocksPerRequest, false},
		{"one insert a block: no more blocks than room", 0, half, false, 1, 400, int32(room), false},
		{"two a block: half", 0, half, false, 2, 400, int32(room / 2), false},
		{"doubling while under the room", 0, half, false, 1, 8, 16, false},
		{"less room than one block takes: refresh first", 0, half, false, room + 1, 400, 1, true},
		{"never refreshed: all at once", 1, half, false, 5, 0, blocksPerRequest, false},
		{"a wallet too large: all at once", 0, half, true, room + 1, 16, blocksPerRequest, false},
	}
	for _, tt := range tests {
		r := &scanner{policy: policy(tt.limit), mirror: tt.filter, hopeless: tt.hopeless, inserts: tt.inserts, window: tt.window}
		tight := r.tight()
		if w := r.nextWindow(); w != tt.wantWindow || tight != tt.wantTight {
			t.Errorf("%s: nextWindow() = %d, tight() = %v; want %d, %v (room %.1f, %v inserts a block)",
				tt.name, w, tight, tt.wantWindow, tt.wantTight, room, tt.inserts)
		}
	}
}

func outPoints(n int) []wire.OutPoint {
	ops := make([]wire.OutPoint, n)
	for i := range ops {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		ops[i] = wire.OutPoint{Hash: sha256.Sum256(b[:])}
	}
	return ops
}
