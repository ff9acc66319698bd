package bip37

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// TestWalletCapacity checks the sizing rule as documented: the first of
// 100·2^i that is at least twice the elements, capped where Core's size
// formula reaches MaxFilterSize, and never below the elements.
func TestWalletCapacity(t *testing.T) {
	tests := []struct {
		n    int
		fp   float64
		want uint32
	}{
		{-1, 0.0005, 100},
		{0, 0.0005, 100},
		{1, 0.0005, 100},
		{50, 0.0005, 100},
		{51, 0.0005, 200},
		{100, 0.0005, 200},
		{101, 0.0005, 400},
		{200, 0.0005, 400},
		{201, 0.0005, 800},
		{1000, 0.0005, 3200},
		{1000, 1, 3200},    // rate 1: no cap (Params refuses the filter)
		{1000, 0, 3200},    // an invalid rate caps nothing either
		{6400, 0.2, 12800}, // far below the cap at a high rate
	}
	for _, tt := range tests {
		if got := WalletCapacity(tt.n, tt.fp); got != tt.want {
			t.Errorf("WalletCapacity(%d, %v) = %d, want %d", tt.n, tt.fp, got, tt.want)
		}
	}
	// The cap: beyond the count whose filter reaches 36000 bytes a larger
	// capacity only cuts hash functions, so 9000 elements (ladder 25600)
	// get the least capacity of 36000 bytes where that is smaller.
	for _, tt := range []struct {
		fp     float64
		capped bool
	}{{1e-6, true}, {0.0005, true}, {0.01, false}} {
		c := WalletCapacity(9000, tt.fp)
		size, _, _ := Params(c, tt.fp)
		below, _, _ := Params(c-1, tt.fp)
		capped := c < 25600 && size == MaxFilterSize && below < MaxFilterSize
		if c < 9000 || c > 25600 || capped != tt.capped || (!capped && c != 25600) {
			t.Errorf("WalletCapacity(9000, %v) = %d (%d bytes, %d for one less), want capped %v", tt.fp, c, size, below, tt.capped)
		}
	}
	if got := WalletCapacity(250000, 0.01); got != 250000 {
		t.Errorf("WalletCapacity(250000, 0.01) = %d, want the elements, 250000", got)
	}
}

// TestWalletPolicyBuild: the filter holds the wallet's elements, is sized
// for the policy's capacity, and a later build keeps the capacity, so a
// wallet's filters keep their bits unless it outgrows them.
func TestWalletPolicyBuild(t *testing.T) {
	addrs := walletAddresses(t, &chaincfg.RegressionNetParams, 1)
	coins := testOutPoints(300)
	p := WalletPolicy{FPRate: 0.001, Tweak: 99, Flags: UpdateAll}
	first, err := p.Build(addrs[:2], coins[:10])
	if err != nil {
		t.Fatal(err)
	}
	size, k, _ := Params(100, 0.001)
	if p.Capacity != 100 || first.Size() != size || first.HashFuncs() != k || first.Tweak() != 99 || first.Flags() != UpdateAll {
		t.Errorf("Build(2 addresses, 10 coins): capacity %d, %d bytes, %d functions, tweak %d, flags %d; want 100, %d, %d, 99, %d",
			p.Capacity, first.Size(), first.HashFuncs(), first.Tweak(), first.Flags(), size, k, UpdateAll)
	}
	for _, op := range coins[:10] {
		if !first.ContainsOutPoint(op) {
			t.Errorf("Build: filter lacks coin %v", op)
		}
	}
	// Fewer elements, same capacity: the same bits, a subset of the first's.
	second, _ := p.Build(addrs[:2], coins[:5])
	a, _ := first.MarshalBinary()
	b, _ := second.MarshalBinary()
	if len(a) != len(b) {
		t.Fatalf("Build with fewer coins: %d bytes, want %d", len(b), len(a))
	}
	for i := range b {
		if b[i]&^a[i] != 0 {
			t.Fatalf("Build with fewer coins set bits the first filter lacks at byte %d", i)
		}
	}
	// Outgrown: 2+200 elements need 404, so 800.
	if _, err := p.Build(addrs[:2], coins[:200]); err != nil || p.Capacity != 800 {
		t.Errorf("Build(202 elements): capacity %d, err %v; want 800", p.Capacity, err)
	}
	if _, err := p.Build(addrs[:1], nil); err != nil || p.Capacity != 800 {
		t.Errorf("Build(1 element) after 800: capacity %d, err %v; want 800 kept", p.Capacity, err)
	}
	bad := WalletPolicy{FPRate: 0}
	if _, err := bad.Build(addrs[:1], nil); err == nil {
		t.Errorf("Build with FPRate 0 = nil error")
	}
}

// TestWalletPolicyDue: the decision compares fill^k, the rate the peer's
// copy applies, with the limit, strictly.
func TestWalletPolicyDue(t *testing.T) {
	// 1024 bits and 2 functions: x bits set predict (x/1024)².
	filled := func(x int) *Filter {
		data := make([]byte, 128)
		for i := range x {
			data[i/8] |= 1 << (i % 8)
		}
		f, err := Load(data, 2, 0, UpdateAll)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	matchAll, _ := Load(nil, 0, 0, UpdateAll)
	tests := []struct {
		name   string
		f      *Filter
		fp     float64
		limit  float64
		wantDu bool
	}{
		{"empty", filled(0), 0.0625, 0, false},
		{"at the target", filled(256), 0.0625, 0, false}, // 0.25² = 0.0625 exactly
		{"one bit past", filled(257), 0.0625, 0, true},
		{"past the target, under 10×", filled(512), 0.0625, 0.625, false},
		{"past 10×", filled(810), 0.0625, 0.625, true}, // 0.791² = 0.626
		{"full, limit 1", filled(1024), 0.0625, 1, false},
		{"full", filled(1024), 0.0625, 0, true},
		{"matches everything", matchAll, 0.0625, 0, true},
	}
	for _, tt := range tests {
		p := WalletPolicy{FPRate: tt.fp, Limit: tt.limit}
		if got := p.Due(tt.f); got != tt.wantDu {
			t.Errorf("%s: Due(rate %v) with target %v, limit %v = %v, want %v",
				tt.name, tt.f.FilledFalsePositiveRate(), tt.fp, tt.limit, got, tt.wantDu)
		}
	}
}

// TestWalletPolicyRoom: Room predicts how many elements a filter takes
// before it is due, counted by inserting until Due.
func TestWalletPolicyRoom(t *testing.T) {
	elements := testOutPoints(5000)
	for _, tt := range []struct {
		capacity uint32
		fp       float64
		tweaks   uint32
	}{{100, 0.0005, 20}, {400, 0.01, 10}, {2000, 1e-4, 2}} {
		p := WalletPolicy{FPRate: tt.fp, Capacity: tt.capacity}
		var predicted, counted float64
		for tweak := range tt.tweaks {
			p.Tweak = tweak
			f, err := p.Build(nil, elements[:tt.capacity/4])
			if err != nil {
				t.Fatal(err)
			}
			predicted += p.Room(f)
			n := 0
			for _, op := range elements[tt.capacity/4:] {
				if p.Due(f) {
					break
				}
				f.AddOutPoint(op)
				n++
			}
			counted += float64(n)
		}
		if d := math.Abs(counted-predicted) / counted; d > 0.05 {
			t.Errorf("capacity %d at %v: Room predicted %.0f elements over %d tweaks, Due came after %.0f (%.1f%% off), want within 5%%",
				tt.capacity, tt.fp, predicted, tt.tweaks, counted, 100*d)
		}
	}
	full, _ := Load([]byte{0xff}, 1, 0, UpdateAll)
	empty, _ := Load(make([]byte, 8), 1, 0, UpdateAll)
	matchAll, _ := Load(nil, 0, 0, UpdateAll)
	for _, tt := range []struct {
		name  string
		f     *Filter
		limit float64
		want  float64
	}{
		{"due", full, 0, 0},
		{"matches everything", matchAll, 0, 0},
		{"limit 1", full, 1, math.Inf(1)},
		{"empty, one function", empty, 0, 64 * math.Log(1/(1-0.01))}, // (m/k)·ln(m/(m - m·0.01))
	} {
		p := WalletPolicy{FPRate: 0.01, Limit: tt.limit}
		if got := p.Room(tt.f); math.Abs(got-tt.want) > 1e-9 && got != tt.want {
			t.Errorf("%s: Room = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWalletPolicyTooLarge: a wallet beyond what 36000 bytes hold at the
// target gets a filter that is due at once; building another cannot help.
func TestWalletPolicyTooLarge(t *testing.T) {
	p := WalletPolicy{FPRate: 0.01, Flags: UpdateAll}
	f, err := p.Build(nil, testOutPoints(40000))
	if err != nil {
		t.Fatal(err)
	}
	if f.Size() != MaxFilterSize || !p.Due(f) {
		t.Errorf("Build(40000 coins at 1%%): %d bytes, Due %v (rate %v); want %d bytes, due",
			f.Size(), p.Due(f), f.FilledFalsePositiveRate(), MaxFilterSize)
	}
}

// TestWalletPolicyKeepsRate plays the peer's side offline: 200 payments
// to one address, one a block, each block also tested with unrelated
// elements. A filter sized for the address alone (NewWalletFilter) fills
// up and matches nearly everything, as issue 15 found on btcd (a 1-byte
// filter full after 11 payments); the policy, rebuilding when Due, keeps
// the measured rate of the unrelated elements under the target.
func TestWalletPolicyKeepsRate(t *testing.T) {
	const target, payments, probes = 0.01, 200, 2000
	addr := walletAddresses(t, &chaincfg.RegressionNetParams, 1)[2] // P2WPKH
	script, err := txscript.PayToAddrScript(addr)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWalletFilter([]address.Address{addr}, nil, target, 7, UpdateAll)
	if err != nil {
		t.Fatal(err)
	}
	p := WalletPolicy{FPRate: target, Tweak: 7, Flags: UpdateAll}
	f, err := p.Build([]address.Address{addr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var coins []wire.OutPoint
	var hits, exactHits, tested, refreshes int
	unrelated := testOutPoints(payments * (probes + 1))
	for i := range payments {
		pay := newTx(unrelated[payments*probes+i], nil, script, p2wpkh)
		id := pay.TxHash()
		if !f.MatchTx(pay, id) || !exact.MatchTx(pay, id) {
			t.Fatalf("payment %d not matched", i)
		}
		coins = append(coins, wire.OutPoint{Hash: id, Index: 0})
		for _, op := range unrelated[i*probes : (i+1)*probes] {
			tested++
			if f.ContainsOutPoint(op) {
				hits++
			}
			if exact.ContainsOutPoint(op) {
				exactHits++
			}
		}
		if p.Due(f) {
			if f, err = p.Build([]address.Address{addr}, coins); err != nil {
				t.Fatal(err)
			}
			refreshes++
		}
	}
	rate, exactRate := float64(hits)/float64(tested), float64(exactHits)/float64(tested)
	t.Logf("%d payments: %d refreshes, capacity %d, %d B; measured rate %.4f (target %v); exact sizing %d B, rate %.4f",
		payments, refreshes, p.Capacity, f.Size(), rate, target, exact.Size(), exactRate)
	if rate >= target || exactRate < 0.5 || refreshes == 0 {
		t.Errorf("measured rate %v with %d refreshes, exact sizing %v; want under %v with refreshes, and exact sizing saturated",
			rate, refreshes, exactRate, target)
	}
}

// testOutPoints returns n distinct outpoints.
func testOutPoints(n int) []wire.OutPoint {
	ops := make([]wire.OutPoint, n)
	for i := range ops {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(i)+1<<40)
		ops[i] = wire.OutPoint{Hash: sha256.Sum256(b[:]), Index: uint32(i % 3)}
	}
	return ops
}
