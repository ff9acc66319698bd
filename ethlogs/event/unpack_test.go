package event

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestUnpack(t *testing.T) {
	a := common.HexToAddress(alice)
	type item struct {
		Amount uint32
		Label  string `event:"tag"`
	}
	const decl = "Order(address indexed _maker, string indexed note, int24 tick, (uint16 amount, string tag)[] items, bytes4 kind, uint256 total, bool)"
	items := []struct {
		Amount uint16 `json:"amount"`
		Tag    string `json:"tag"`
	}{{7, "x"}, {9, "y,z"}}
	topics, data := logOf(t, decl, a, "gm", big.NewInt(-3), items, [4]byte{1, 2, 3, 4}, big.NewInt(1_000_000), true)

	var got struct {
		Maker common.Address // _maker in CamelCase
		Note  common.Hash    // an indexed string is its hash
		Tick  int64          // int24 into a wider Go integer
		Items []item         // tuples into your own struct, matched by name or tag
		Kind  []byte         // bytes4 into a slice
		Sum   uint64         `event:"total"` // by tag
		Ok    any            `event:"arg6"`  // an unnamed parameter, as Values gives it
		Extra string         // no parameter: left alone
	}
	got.Extra = "kept"
	e := mustParse(t, decl)
	if err := e.Unpack(&got, topics, data); err != nil {
		t.Fatal(err)
	}
	if got.Maker != a || got.Note != crypto.Keccak256Hash([]byte("gm")) || got.Tick != -3 || len(got.Items) != 2 ||
		got.Items[1] != (item{9, "y,z"}) || string(got.Kind) != "\x01\x02\x03\x04" || got.Sum != 1_000_000 || got.Ok != true || got.Extra != "kept" {
		t.Errorf("Unpack = %+v", got)
	}
}

func TestUnpackErrors(t *testing.T) {
	const decl = "E(string indexed s, uint256 big, address who, uint8[2] pair)"
	topics, data := logOf(t, decl, "x", new(big.Int).Lsh(big.NewInt(1), 70), common.HexToAddress(alice), [2]uint8{1, 2})
	e := mustParse(t, decl)
	tests := []struct {
		name    string
		out     any
		wantErr string
	}{
		{"not a pointer", struct{}{}, "wants a non-nil pointer to a struct"},
		{"nil", (*struct{})(nil), "wants a non-nil pointer to a struct"},
		{"overflow", &struct{ Big uint64 }{}, "uint256 big into field Big: 1180591620717411303424 does not fit uint64"},
		{"hash into string", &struct{ S string }{}, "string s into field S: cannot store bytes32 in string"},
		{"address into int", &struct{ Who int }{}, "address who into field Who: cannot store address in int"},
		{"array length", &struct{ Pair [3]uint8 }{}, "uint8[2] pair into field Pair: 2 elements do not fit [3]uint8"},
		{"tag typo", &struct {
			X uint64 `event:"bgi"`
		}{}, `field X is tagged "bgi", which is no parameter`},
		{"two fields", &struct {
			Who common.Address
			WHO common.Address
		}{}, "fields Who and WHO both match who"},
	}
	for _, tt := range tests {
		if err := e.Unpack(tt.out, topics, data); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: Unpack = %v, want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestEncodeTopicConversions(t *testing.T) {
	u := Type{Kind: Uint, Size: 24}
	for _, v := range []any{7, int8(7), uint64(7), big.NewInt(7), *big.NewInt(7)} {
		if h, err := EncodeTopic(u, v); err != nil || h != made(t, big.NewInt(7)) {
			t.Errorf("EncodeTopic(uint24, %T 7) = %s, %v", v, h, err)
		}
	}
	for _, v := range []any{-1, 1 << 24, "7", nil} {
		if _, err := EncodeTopic(u, v); err == nil {
			t.Errorf("EncodeTopic(uint24, %#v) succeeded", v)
		}
	}
}
