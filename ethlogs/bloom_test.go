package ethlogs

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func TestValueOfBits(t *testing.T) {
	// Bit positions published in geth-bloom9-vectors.json (go-ethereum v1.17.10).
	tests := []struct {
		input string
		want  [3]uint
	}{
		{"testtest", [3]uint{1303, 70, 1533}},
		{"", [3]uint{1490, 1537, 1783}},
	}
	for _, tt := range tests {
		if got := ValueOf([]byte(tt.input)).Bits(); got != tt.want {
			t.Errorf("ValueOf(%q).Bits() = %v, want %v", tt.input, got, tt.want)
		}
	}
}

func TestBloomAddTest(t *testing.T) {
	var b Bloom
	for _, s := range []string{"testtest", "test", "hallo", "other"} {
		b.Add([]byte(s))
	}
	for _, s := range []string{"testtest", "test", "hallo", "other"} {
		if !b.Test([]byte(s)) {
			t.Errorf("Test(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"tes", "lo"} {
		if b.Test([]byte(s)) {
			t.Errorf("Test(%q) = true, want false", s)
		}
	}
}

func TestGethViewsShareBytes(t *testing.T) {
	var g types.Bloom
	FromGeth(&g).Add([]byte("shared"))
	if !g.Test([]byte("shared")) {
		t.Error("a value added through FromGeth is not in go-ethereum's bloom")
	}
	var b Bloom
	b.Geth().Add([]byte("other way"))
	if !b.Test([]byte("other way")) {
		t.Error("a value added through Geth is not in the Bloom")
	}
}

func TestBloomText(t *testing.T) {
	var b Bloom
	b.Add([]byte("x"))
	text, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	gethText, _ := json.Marshal(*b.Geth())
	if !bytes.Equal(text, gethText) {
		t.Errorf("json.Marshal(Bloom) = %s, want go-ethereum's %s", text, gethText)
	}
	var back Bloom
	if err := json.Unmarshal(text, &back); err != nil || back != b {
		t.Errorf("json.Unmarshal(%.20s…) = %v, want the same bloom", text, err)
	}
	for _, bad := range []string{`"0x00"`, `"00"`, `"0x` + strings.Repeat("zz", 256) + `"`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil || !strings.Contains(err.Error(), "ethlogs: ") {
			t.Errorf("json.Unmarshal(%.12s…) = %v, want an ethlogs error", bad, err)
		}
	}
}

func TestFalsePositiveRate(t *testing.T) {
	tests := []struct {
		bits int
		want float64
	}{{0, 0}, {1024, 0.125}, {2048, 1}}
	for _, tt := range tests {
		var b Bloom
		for i := range tt.bits {
			b[i/8] |= 1 << (i % 8)
		}
		if got := b.FalsePositiveRate(); got != tt.want {
			t.Errorf("FalsePositiveRate(%d bits) = %v, want %v", tt.bits, got, tt.want)
		}
	}
}

// TestFalsePositiveRateMeasured tests random values against real mainnet
// blooms: the share that passes must be close to Fill³.
func TestFalsePositiveRateMeasured(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n = 20000
	vs := make([]Value, n)
	for i := range vs {
		h := randomHash(r)
		vs[i] = ValueOf(h[:])
	}
	for _, b := range portalBlooms(t) {
		hits := 0
		for _, v := range vs {
			if b.TestValue(v) {
				hits++
			}
		}
		got, want := float64(hits)/n, b.FalsePositiveRate()
		if got < want-0.015 || got > want+0.015 {
			t.Errorf("bloom with %d bits: %.4f of random values pass, want about Fill³ = %.4f", b.Count(), got, want)
		}
	}
}

// TestBloomBuildersMatchGeth is the differential test: on random logs, our
// blooms equal go-ethereum's CreateBloom, MergeBloom and Bloom.Test.
func TestBloomBuildersMatchGeth(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	addrs := []common.Address{{1}, {2}, {3}, common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")}
	topics := []common.Hash{{1}, {2}, randomHash(r), randomHash(r), randomHash(r)}
	for range 200 {
		var rs types.Receipts
		for range r.IntN(8) {
			rc := &types.Receipt{}
			for range r.IntN(6) {
				rc.Logs = append(rc.Logs, randomLog(r, addrs, topics))
			}
			rc.Bloom = types.CreateBloom(rc)
			if got := ReceiptBloom(rc); got != *FromGeth(&rc.Bloom) {
				t.Fatalf("ReceiptBloom(%d logs) differs from types.CreateBloom", len(rc.Logs))
			}
			rs = append(rs, rc)
		}
		merged := types.MergeBloom(rs)
		if got := BlockBloom(rs); got != *FromGeth(&merged) {
			t.Fatalf("BlockBloom(%d receipts) differs from types.MergeBloom", len(rs))
		}
		var all []*types.Log
		for _, rc := range rs {
			all = append(all, rc.Logs...)
		}
		if got := LogsBloom(all); got != *FromGeth(&merged) {
			t.Fatalf("LogsBloom(%d logs) differs from types.MergeBloom", len(all))
		}
		probe := randomHash(r)
		data := probe[:r.IntN(33)]
		if got, want := FromGeth(&merged).Test(data), merged.Test(data); got != want {
			t.Fatalf("Test(%x) = %v, go-ethereum says %v", data, got, want)
		}
	}
}

func FuzzBloom(f *testing.F) {
	f.Add([]byte("testtest"), []byte("test"))
	f.Add([]byte{}, make([]byte, 20))
	f.Fuzz(func(t *testing.T, add, test []byte) {
		var ours Bloom
		var theirs types.Bloom
		ours.Add(add)
		theirs.Add(add)
		if ours != *FromGeth(&theirs) {
			t.Fatalf("Add(%x) differs from go-ethereum", add)
		}
		if got, want := ours.Test(test), theirs.Test(test); got != want {
			t.Fatalf("Test(%x) = %v, go-ethereum says %v", test, got, want)
		}
	})
}

func TestZeroAllocs(t *testing.T) {
	b := portalBlooms(t)[5]
	q := Query{Addresses: []common.Address{{1}, {2}}, Topics: [][]common.Hash{{{3}}, nil, {{4}, {5}}}}
	m := q.Compile()
	v := ValueOf([]byte("v"))
	data := []byte("warm the hasher pool")
	ValueOf(data)
	tests := []struct {
		name string
		f    func()
	}{
		{"Bloom.TestValue", func() { b.TestValue(v) }},
		{"Matcher.Test", func() { m.Test(&b) }},
		{"Bloom.Add", func() { b.Add(data) }},
		{"ValueOf", func() { ValueOf(data) }},
	}
	for _, tt := range tests {
		if n := testing.AllocsPerRun(100, tt.f); n != 0 {
			t.Errorf("%s allocates %v times, want 0", tt.name, n)
		}
	}
}
