package bip37

import (
	"bytes"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"

	"github.com/chainsieve/chainsieve/core/compactsize"
)

func TestFilterUnmarshalBinary(t *testing.T) {
	tests := []struct {
		name, hex string
		want      string // error substring, "" for success
	}{
		{"Core's serialisation", "03614e9b050000000000000001", ""},
		{"empty filter", "00" + "00000000" + "00000000" + "00", ""},
		{"reserved flag bits kept", "01ff" + "01000000" + "00000000" + "ff", ""},
		{"empty input", "", "truncated at byte 0"},
		{"truncated data", "03614e", "truncated at byte 3"},
		{"truncated tail", "03614e9b0500000000", "truncated at byte 9"},
		{"trailing byte", "03614e9b05000000000000000100", "1 unexpected bytes at byte 13"},
		{"too many hash functions", "0100" + "33000000" + "00000000" + "00", "51 hash functions at byte 2 exceed 50"},
		{"too large", "fda18c", "36001 bytes exceeds 36000"},
		{"non-canonical length", "fd0300614e9b", "non-canonical length 3 at byte 0"},
		{"truncated length", "fe0100", "truncated length at byte 0"},
		{"huge length", "ffffffffffffffffff", "exceeds 36000"},
	}
	for _, tt := range tests {
		var f Filter
		err := f.UnmarshalBinary(unhex(t, tt.hex))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: UnmarshalBinary(%s) = %v, want nil", tt.name, tt.hex, err)
		case tt.want == "":
			if got := mustMarshal(t, &f); !bytes.Equal(got, unhex(t, tt.hex)) {
				t.Errorf("%s: MarshalBinary() = %x after decoding, want %s", tt.name, got, tt.hex)
			}
		case err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bip37: filterload: "):
			t.Errorf("%s: UnmarshalBinary(%s) = %v, want an error containing %q", tt.name, tt.hex, err, tt.want)
		}
	}
}

// TestFilterEncodingMatchesBTCD decodes btcd's encoding of the largest
// filter and re-encodes it.
func TestFilterEncodingMatchesBTCD(t *testing.T) {
	data := bytes.Repeat([]byte{0xa5}, MaxFilterSize)
	enc := wireFilterLoad(t, wire.NewMsgFilterLoad(data, MaxHashFuncs, 0xdeadbeef, wire.BloomUpdateP2PubkeyOnly))
	var f Filter
	if err := f.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	if f.Size() != MaxFilterSize || f.HashFuncs() != MaxHashFuncs || f.Tweak() != 0xdeadbeef || f.Flags() != UpdateP2PubKeyOnly {
		t.Errorf("decoded %d bytes, %d functions, tweak %x, flags %d", f.Size(), f.HashFuncs(), f.Tweak(), f.Flags())
	}
	if got := mustMarshal(t, &f); !bytes.Equal(got, enc) {
		t.Errorf("MarshalBinary() differs from btcd's encoding")
	}
}

func TestCompactSize(t *testing.T) {
	for _, v := range []uint64{0, 0xfc, 0xfd, 0xffff, 0x10000, 0xffffffff, 0x100000000, 1<<64 - 1} {
		enc := compactsize.Append(nil, v)
		var buf bytes.Buffer
		wire.WriteVarInt(&buf, 0, v)
		got, off, err := readCompactSize(enc, 0, "test")
		if !bytes.Equal(enc, buf.Bytes()) || got != v || off != len(enc) || err != nil {
			t.Errorf("CompactSize(%d) = %x, read back %d, %d, %v; btcd writes %x", v, enc, got, off, err, buf.Bytes())
		}
	}
}
