package gcs

import (
	"bytes"
	"encoding/hex"
	"testing"

	btcdgcs "github.com/btcsuite/btcd/btcutil/v2/gcs"

	"github.com/chainsieve/chainsieve/core/bitio"
	"github.com/chainsieve/chainsieve/core/compactsize"
)

// Seeds: BIP158 testnet-19 filters (heights 0, 49291, 1414221) and the
// malformed variants of decode-strictness.json.
var filterSeeds = []string{
	"019dfca8",
	"0afbc2920af1b027f31f87b592276eb4c32094bb4d3697021b4c6380",
	"0afbc2920af1b027f31f87b592276eb4c32094bb4d3697021b4c638000",
	"0afbc2920af1b027f31f87b592276eb4c32094bb4d3697021b4c63",
	"00",
	"fd0100ff",
	"feffffffff00",
}

func addFilterSeeds(f *testing.F, extra ...any) {
	for _, s := range filterSeeds {
		b, _ := hex.DecodeString(s)
		f.Add(append([]any{b}, extra...)...)
	}
}

// fuzzParams maps a fuzz byte onto P in 1..32 and an M near 1.5·2^P, so
// that arbitrary bytes decode as plausible codes.
func fuzzParams(p uint8) Params {
	pp := 1 + p%32
	return Params{P: pp, M: min(uint64(1)<<pp+uint64(1)<<pp/2, 1<<32-1)}
}

// FuzzDecode decodes arbitrary bytes. An accepted filter must re-encode to
// the same bytes up to its padding bits, and agree with btcd on matches;
// a rejected one must still be safe to query through DecodeUnchecked.
func FuzzDecode(f *testing.F) {
	addFilterSeeds(f, uint8(18))
	f.Fuzz(func(t *testing.T, data []byte, pb uint8) {
		p := fuzzParams(pb)
		probe := []byte("probe")
		filter, err := Decode(p, Key{}, data)
		if err != nil {
			if u, err := DecodeUnchecked(p, Key{}, data); err == nil {
				u.Match(probe)
				NewQuery([][]byte{probe, data}).Matches(nil, &u)
				var s Set
				s.Reset(&u)
			}
			return
		}
		values, err := filter.Values(nil)
		if err != nil || len(values) != filter.Len() {
			t.Fatalf("Values of an accepted filter: %d values, %v; want N = %d", len(values), err, filter.Len())
		}
		again, pad := reencode(p, values)
		last := len(data) - 1
		if len(again) != len(data) || !bytes.Equal(again[:last], data[:last]) || again[last] != data[last]&(0xff<<pad) {
			t.Fatalf("re-encoding %x gave %x", data, again)
		}
		theirs, err := btcdgcs.FromNBytes(p.P, p.M, data)
		if err != nil {
			t.Fatalf("btcd rejects an accepted filter: %v", err)
		}
		for _, it := range [][]byte{probe, data, nil} {
			want, err := theirs.Match(Key{}, it)
			if got := filter.Match(it); err != nil || got != want {
				t.Fatalf("Match(%x) = %v, btcd %v (%v)", it, got, want, err)
			}
		}
	})
}

// reencode codes decoded values again, returning the bytes and the number
// of zero padding bits: the ones Decode, like Core, ignores.
func reencode(p Params, values []uint64) ([]byte, uint) {
	w := bitio.NewWriter(compactsize.Append(nil, uint64(len(values))))
	var last uint64
	for _, v := range values {
		w.WriteUnary((v - last) >> p.P)
		w.WriteBits(v-last, uint(p.P))
		last = v
	}
	return w.Bytes(), uint(8-w.Len()%8) % 8
}

// FuzzMatch queries filters decoded from arbitrary bytes with arbitrary
// items: every path must agree with the others, and with btcd where btcd is
// exact.
func FuzzMatch(f *testing.F) {
	addFilterSeeds(f, []byte("76a9149144761ebaccd5b4bbdc2a35453585b5637b2f8588ac,probe,,x"))
	f.Fuzz(func(t *testing.T, data, query []byte) {
		items := bytes.Split(query, []byte(","))
		key := Key{1, 2, 3}
		filter, err := Decode(basicParams, key, data)
		if err != nil {
			if u, err := DecodeUnchecked(basicParams, key, data); err == nil {
				NewQuery(items).MatchAny(&u)
				u.MatchAny(items)
			}
			return
		}
		var s Set
		if err := s.Reset(&filter); err != nil {
			t.Fatal(err)
		}
		theirs, _ := btcdgcs.FromNBytes(BasicP, BasicM, data)
		any := false
		for _, it := range items {
			want, err := theirs.Match(key, it)
			if got := filter.Match(it); err != nil || got != want || s.Match(it) != want {
				t.Fatalf("Match(%x) = %v, Set %v, btcd %v (%v)", it, got, s.Match(it), want, err)
			}
			any = any || want
		}
		q := NewQuery(items)
		if got := q.MatchAny(&filter); got != any {
			t.Fatalf("Query.MatchAny = %v, want %v", got, any)
		}
		if got := filter.matchSorted(q.sortedValues(&filter)); got != any {
			t.Fatalf("merge MatchAny = %v, want %v", got, any)
		}
		if got := len(q.Matches(nil, &filter)) > 0; got != any {
			t.Fatalf("Matches found a match: %v, want %v", got, any)
		}
	})
}

// FuzzBuild builds sets of arbitrary items under arbitrary parameters and
// compares the bytes with btcd's.
func FuzzBuild(f *testing.F) {
	f.Add([]byte("a,b,c,a"), uint8(18), uint16(0))
	f.Add([]byte(",,x"), uint8(0), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, pb uint8, mExtra uint16) {
		items := bytes.Split(data, []byte(","))
		p := fuzzParams(pb)
		p.M = min(p.M+uint64(mExtra), 1<<32-1)
		key := Key{byte(len(data))}
		ours, err := Build(p, key, items)
		if err != nil {
			t.Fatal(err)
		}
		theirs := btcdBuild(t, p, key, distinct(items))
		if want := btcdBytes(t, theirs); !bytes.Equal(ours.Bytes(), want) {
			t.Fatalf("Build(P=%d, M=%d, %q) = %x, btcd %x", p.P, p.M, items, ours.Bytes(), want)
		}
		if _, err := Decode(p, key, ours.Bytes()); err != nil {
			t.Fatalf("Decode(Build()) = %v", err)
		}
		for _, it := range items {
			if !ours.Match(it) {
				t.Fatalf("Match(member %q) = false", it)
			}
		}
	})
}
