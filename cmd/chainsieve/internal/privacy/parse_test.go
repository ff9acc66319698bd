package privacy

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
)

func TestParseWallet(t *testing.T) {
	key := syntheticWallet(stream(1, "test wallet"), 1)[0]
	pub, hash := key.Elements[0], key.Elements[1]
	p2pkh, err := address.NewAddressPubKeyHash(hash, &chaincfg.MainNetParams)
	if err != nil {
		t.Fatal(err)
	}
	p2wpkh, err := address.NewAddressWitnessPubKeyHash(hash, &chaincfg.TestNet3Params)
	if err != nil {
		t.Fatal(err)
	}
	text := "# a wallet\n\n" + hex.EncodeToString(pub) + "\n  " + p2pkh.EncodeAddress() + "  \n" + p2wpkh.EncodeAddress() + "\n"
	keys, err := ParseWallet(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := [][][]byte{{pub, hash}, {hash}, {hash}}
	if len(keys) != len(want) {
		t.Fatalf("ParseWallet() = %d keys, want %d", len(keys), len(want))
	}
	for i, k := range keys {
		if len(k.Elements) != len(want[i]) || k.Paired() != (len(want[i]) == 2) {
			t.Errorf("key %d: %d elements, want %d", i, len(k.Elements), len(want[i]))
			continue
		}
		for j := range want[i] {
			if !bytes.Equal(k.Elements[j], want[i][j]) {
				t.Errorf("key %d element %d = %x, want %x", i, j, k.Elements[j], want[i][j])
			}
		}
	}
}

func TestParseWalletErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"empty", "# nothing\n\n", "no keys"},
		{"bad line", "# ok\n\nnot-an-address\n", "line 3"},
		{"short hex", "02abcd\n", "line 1"},
	}
	for _, tt := range tests {
		_, err := ParseWallet(strings.NewReader(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "privacy: ") {
			t.Errorf("%s: ParseWallet() error = %v, want one naming %q", tt.name, err, tt.want)
		}
	}
}

func TestParseStats(t *testing.T) {
	tests := []struct {
		name, json string
		want       Stats
	}{
		// The shape "chainsieve btc scan --stats" writes.
		{"btc scan", `{"mode":"bip157","network":"regtest","blocksScanned":256,"bytesReceived":63957,"bytesSent":702,` +
			`"roundTrips":4,"falsePositives":0,"falsePositiveUnit":"blocks","durationSeconds":0.0163,` +
			`"received":{"cfilter":{"messages":256,"bytes":40000}}}`,
			Stats{Mode: "bip157", Blocks: 256, BytesReceived: 63957, BytesSent: ptr(702), RoundTrips: ptr(4),
				FalsePositives: ptr(0), FPUnit: "blocks", Seconds: ptr(0.0163)}},
		// The shape "chainsieve eth scan --stats" writes: no bytesSent.
		{"eth scan", `{"mode":"eth","network":"0xa1a4","peer":"http://127.0.0.1:8545","from":0,"to":300,"blocksScanned":301,` +
			`"headersVerified":301,"falsePositives":4,"falsePositiveUnit":"blocks","bytesReceived":752487,"roundTrips":11,` +
			`"durationSeconds":0.1,"eth":{"verify":"full","candidates":65,"matched":61,"logs":70}}`,
			Stats{Mode: "eth", Blocks: 301, BytesReceived: 752487, RoundTrips: ptr(11), FalsePositives: ptr(4), FPUnit: "blocks", Seconds: ptr(0.1)}},
		{"minimal", `{"mode":"bip37","blocksScanned":10,"bytesReceived":1500}`,
			Stats{Mode: "bip37", Blocks: 10, BytesReceived: 1500}},
	}
	for _, tt := range tests {
		got, err := ParseStats("f.json", []byte(tt.json))
		tt.want.File = "f.json"
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ParseStats() = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	// Absent optional fields give no quantity, rather than a zero.
	st, _ := ParseStats("eth.json", []byte(`{"mode":"eth","blocksScanned":10,"bytesReceived":1500,"roundTrips":2}`))
	var ids []string
	for _, q := range st.quantities(0) {
		ids = append(ids, q.ID)
	}
	if got, want := strings.Join(ids, " "), "measured.1.blocks measured.1.received_per_block measured.1.round_trips"; got != want {
		t.Errorf("quantities of a file without bytesSent, falsePositives and durationSeconds: %s, want %s", got, want)
	}
}

func TestParseStatsErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"not JSON", `mode=bip37`, "not a JSON object"},
		{"no mode", `{"blocksScanned":1,"bytesReceived":1}`, "no mode"},
		{"no blocks", `{"mode":"bip37","bytesReceived":1}`, "no blocksScanned"},
		{"no bytes", `{"mode":"bip37","blocksScanned":1}`, "no bytesReceived"},
		{"zero blocks", `{"mode":"bip37","blocksScanned":0,"bytesReceived":1}`, "0 blocks"},
		{"negative", `{"mode":"bip37","blocksScanned":1,"bytesReceived":-5}`, `field "bytesReceived"`},
		{"wrong type", `{"mode":"bip37","blocksScanned":1,"bytesReceived":5,"durationSeconds":"soon"}`, "durationSeconds"},
		{"failed scan", `{"mode":"eth","blocksScanned":0,"bytesReceived":0,"error":"dial tcp 127.0.0.1:1: connection refused"}`, "the scan failed"},
	}
	for _, tt := range tests {
		_, err := ParseStats("s.json", []byte(tt.json))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "s.json") {
			t.Errorf("%s: ParseStats() error = %v, want one naming s.json and %q", tt.name, err, tt.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{56e6, "56,000,000"}, {1269, "1,269"}, {0.0005, "0.0005"}, {2.15555e-8, "2.156e-8"},
		{113765.3, "113,800"}, {21.0524, "21.05"}, {-1234, "-1,234"}, {2e17, "2e17"}, {nan, "n/a"},
	}
	for _, tt := range tests {
		if got := format(tt.v); got != tt.want {
			t.Errorf("format(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if got := plain(2.155546551574e-8); got != "2.15555e-08" {
		t.Errorf("plain(2.155546551574e-8) = %q, want 2.15555e-08", got)
	}
}

func ptr(v float64) *float64 { return &v }
