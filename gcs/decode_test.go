package gcs

import (
	"encoding/hex"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/compactsize"
)

func TestCompactSize(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    uint64
		size    int
		wantErr string
	}{
		{"zero", "00", 0, 1, ""},
		{"252", "fc", 252, 1, ""},
		{"253", "fdfd00", 253, 3, ""},
		{"65535", "fdffff", 65535, 3, ""},
		{"65536", "fe00000100", 65536, 5, ""},
		{"2^32", "ff0000000001000000", 1 << 32, 9, ""},
		{"empty", "", 0, 0, "empty encoding"},
		{"252 in 3 bytes", "fdfc00", 0, 0, "non-canonical"},
		{"65535 in 5 bytes", "feffff0000", 0, 0, "non-canonical"},
		{"2^32-1 in 9 bytes", "ffffffffff00000000", 0, 0, "non-canonical"},
		{"truncated fd", "fd01", 0, 0, "truncated"},
		{"truncated ff", "ff00000000", 0, 0, "truncated"},
	}
	for _, tt := range tests {
		in, _ := hex.DecodeString(tt.in)
		n, size, err := readCompactSize(in)
		if !errMatches(err, tt.wantErr) || err == nil && (n != tt.want || size != tt.size) {
			t.Errorf("readCompactSize(%s) = %d, %d, %v; want %d, %d, %q", tt.in, n, size, err, tt.want, tt.size, tt.wantErr)
		}
		if err == nil {
			if got := hex.EncodeToString(compactsize.Append(nil, n)); got != tt.in {
				t.Errorf("compactsize.Append(%d) = %s, want %s", n, got, tt.in)
			}
		}
	}
}

// errMatches reports whether err is nil when want is empty, or contains want.
func errMatches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}

// TestDecodeStrictness covers what Bitcoin Core's decoder rejects. The
// one-element filter 019dfca8 is the testnet genesis block's (BIP158 vector).
func TestDecodeStrictness(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		strictErr string // error from Decode
		quickErr  string // error from DecodeUnchecked
	}{
		{"genesis", "019dfca8", "", ""},
		{"non-zero padding (not checked, as in Core)", "019dfcaf", "", ""},
		{"empty set", "00", "", ""},
		{"empty input", "", "empty encoding", "empty encoding"},
		{"empty set with a trailing byte", "0000", "excess data: 1 trailing bytes", ""},
		{"trailing byte", "019dfca800", "excess data: 1 trailing bytes after the 4 bytes", ""},
		{"too short for N codes", "019dfc", "need at least 20 bits", "need at least 20 bits"},
		{"unary run to the end", "01ffffff", "code 1 of 1 is truncated", ""},
		{"non-canonical N", "fd01009dfca8", "non-canonical", "non-canonical"},
		{"N of 2^32", "ff0000000001000000" + strings.Repeat("00", 16), "want below 2^32", "want below 2^32"},
		{"huge N, little data", "feffffffff" + strings.Repeat("00", 64), "need at least 85899345900 bits", "need at least"},
		{"two zero values (a zero delta)", "02" + "0000000000", "", ""},
	}
	for _, tt := range tests {
		in, err := hex.DecodeString(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Decode(basicParams, Key{}, in)
		if !errMatches(err, tt.strictErr) {
			t.Errorf("%s: Decode(%s) = %v, want error %q", tt.name, tt.in, err, tt.strictErr)
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Decode(%s) = %v, want an error wrapping ErrCorrupt", tt.name, tt.in, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "gcs: ") {
			t.Errorf("%s: Decode(%s) = %v, want the gcs: prefix", tt.name, tt.in, err)
		}
		_, err = DecodeUnchecked(basicParams, Key{}, in)
		if !errMatches(err, tt.quickErr) {
			t.Errorf("%s: DecodeUnchecked(%s) = %v, want error %q", tt.name, tt.in, err, tt.quickErr)
		}
	}
}

func TestParamsChecked(t *testing.T) {
	tests := []struct {
		p       Params
		wantErr string
	}{
		{Params{P: 19, M: 784931}, ""},
		{Params{P: 1, M: 1}, ""},
		{Params{P: 32, M: 1<<32 - 1}, ""},
		{Params{P: 0, M: 784931}, "P = 0"},
		{Params{P: 33, M: 784931}, "P = 33"},
		{Params{P: 19, M: 0}, "M = 0"},
		{Params{P: 19, M: 1 << 32}, "M = 4294967296"},
	}
	for _, tt := range tests {
		if _, err := Build(tt.p, Key{}, [][]byte{{1}}); !errMatches(err, tt.wantErr) {
			t.Errorf("Build(%+v) = %v, want error %q", tt.p, err, tt.wantErr)
		}
		if _, err := Decode(tt.p, Key{}, []byte{0}); !errMatches(err, tt.wantErr) {
			t.Errorf("Decode(%+v) = %v, want error %q", tt.p, err, tt.wantErr)
		}
	}
}

// TestUncheckedDamageMatches pins the fail-safe policy: a malformed filter
// from DecodeUnchecked answers "may match", never "no".
func TestUncheckedDamageMatches(t *testing.T) {
	// N = 2 but the data holds one code and then zeros cut short: 2·20 bits
	// fit, yet the second code's unary run reaches the end.
	in, _ := hex.DecodeString("029dfcafffff")
	f, err := DecodeUnchecked(basicParams, Key{}, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(basicParams, Key{}, in); err == nil {
		t.Fatal("Decode accepted a truncated filter")
	}
	// Queries that stop before the damage answer normally; pick an item
	// whose value lies past the first code (769941).
	var item []byte
	for _, it := range series("probe-", 100) {
		if (Key{}).HashToRange(it, f.F()) > 769941 {
			item = it
			break
		}
	}
	if !f.Match(item) || !f.MatchAny([][]byte{item}) || len(NewQuery([][]byte{item}).Matches(nil, &f)) != 1 {
		t.Errorf("queries of a damaged unchecked filter answered false, want true")
	}
	var s Set
	if err := s.Reset(&f); err == nil || !errors.Is(err, ErrCorrupt) {
		t.Errorf("Set.Reset(damaged) = %v, want ErrCorrupt", err)
	}
	if _, err := f.Values(nil); err == nil {
		t.Errorf("Values(damaged) = nil error")
	}
}

// TestHostileSizesStayBounded feeds claims of up to 2^32-1 codes over a few
// bytes: they are rejected before any work or allocation that depends on N,
// so each call allocates only its error message.
func TestHostileSizesStayBounded(t *testing.T) {
	for _, in := range []string{"feffffffff", "feffffffff00000000", "fe00000100" + strings.Repeat("ff", 100)} {
		data, _ := hex.DecodeString(in)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var err error
		for range 100 {
			if _, err = Decode(basicParams, Key{}, data); err == nil {
				break
			}
		}
		runtime.ReadMemStats(&after)
		if perCall := (after.TotalAlloc - before.TotalAlloc) / 100; err == nil || perCall > 1024 {
			t.Errorf("Decode(%s) = %v, allocating %d bytes per call; want an error and under 1 KiB", in, err, perCall)
		}
	}
}
