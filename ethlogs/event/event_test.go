package event

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestParse(t *testing.T) {
	tests := []struct {
		decl, wantSig, wantString, wantErr string
	}{
		{decl: "Transfer(address indexed from,address indexed to,uint256 value)", wantSig: "Transfer(address,address,uint256)",
			wantString: "Transfer(address indexed from, address indexed to, uint256 value)"},
		{decl: " event Approval( address indexed , address indexed spender , uint value );", wantSig: "Approval(address,address,uint256)",
			wantString: "Approval(address indexed, address indexed spender, uint256 value)"},
		{decl: "Ping()", wantSig: "Ping()", wantString: "Ping()"},
		{decl: "E(int8 a, bytes32 b, bytes1 c, bool d, string e, bytes f, int g)", wantSig: "E(int8,bytes32,bytes1,bool,string,bytes,int256)"},
		{decl: "Transfer(address,address,uint256)", wantSig: "Transfer(address,address,uint256)"},
		{decl: "E(uint7 a)", wantErr: `unknown type "uint7"`},
		{decl: "E(bytes33 a)", wantErr: `unknown type "bytes33"`},
		{decl: "E(uint0256 a)", wantErr: `unknown type "uint0256"`},
		{decl: "E(uint256[] a, (address,bytes32[2])[] indexed b, tuple(uint8 x, string y) c)", wantSig: "E(uint256[],(address,bytes32[2])[],(uint8,string))"},
		{decl: "E(address indexed a, address indexed b, address indexed c, address indexed d)", wantErr: "4 indexed parameters"},
		{decl: "E(address a) anonymous", wantErr: "anonymous"},
		{decl: "E(address a b)", wantErr: "want type [indexed] [name]"},
		{decl: "E(address,)", wantErr: "parameter 1: empty"},
		{decl: "1E()", wantErr: "not an event name"},
		{decl: "Transfer", wantErr: "want Name("},
	}
	for _, tt := range tests {
		e, err := Parse(tt.decl)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "event: ") {
				t.Errorf("Parse(%q) = %v, want an error containing %q", tt.decl, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q) = %v", tt.decl, err)
			continue
		}
		if got := e.Signature(); got != tt.wantSig {
			t.Errorf("Parse(%q).Signature() = %q, want %q", tt.decl, got, tt.wantSig)
		}
		if got := e.String(); tt.wantString != "" && got != tt.wantString {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.decl, got, tt.wantString)
		}
		if got, want := e.Topic(), crypto.Keccak256Hash([]byte(tt.wantSig)); got != want {
			t.Errorf("Parse(%q).Topic() = %s, want %s", tt.decl, got, want)
		}
	}
}

// TestTransferTopic checks the best-known topic of all, as published in
// every ERC-20 explorer.
func TestTransferTopic(t *testing.T) {
	e, _ := Parse("Transfer(address indexed from, address indexed to, uint256 value)")
	if got, want := e.Topic().Hex(), "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"; got != want {
		t.Errorf("Topic() = %s, want %s", got, want)
	}
}

var oracleTypes = []string{"address", "bool", "uint8", "uint64", "uint112", "uint256", "int8", "int24", "int256", "bytes1", "bytes20", "bytes32", "string", "bytes"}

// randomValue returns a value of type typ as accounts/abi packs it.
func randomValue(r *rand.Rand, typ string) any {
	word := func() *big.Int { b := make([]byte, 32); fill(r, b); return new(big.Int).SetBytes(b) }
	switch {
	case typ == "address":
		var a common.Address
		fill(r, a[:])
		return a
	case typ == "bool":
		return r.IntN(2) == 1
	case typ == "string":
		b := make([]byte, r.IntN(70))
		fill(r, b)
		return string(b)
	case typ == "bytes":
		b := make([]byte, r.IntN(70))
		fill(r, b)
		return b
	case strings.HasPrefix(typ, "bytes"):
		switch typ {
		case "bytes1":
			return [1]byte{byte(r.Uint32())}
		case "bytes20":
			var a [20]byte
			fill(r, a[:])
			return a
		default:
			var a [32]byte
			fill(r, a[:])
			return a
		}
	}
	bits := map[string]uint{"uint8": 8, "uint64": 64, "uint112": 112, "uint256": 256, "int8": 8, "int24": 24, "int256": 256}[typ]
	v := word().Rsh(word(), 256-bits)
	if typ[0] == 'i' {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), bits-1))
	}
	switch typ {
	case "uint8":
		return uint8(v.Uint64())
	case "uint64":
		return v.Uint64()
	case "int8":
		return int8(v.Int64())
	}
	return v
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// display writes a value accounts/abi unpacked the way Decode does.
func display(v any) string {
	switch v := v.(type) {
	case common.Address:
		return v.Hex()
	case []byte:
		return hexutil.Encode(v)
	case [1]byte:
		return hexutil.Encode(v[:])
	case [20]byte:
		return hexutil.Encode(v[:])
	case [32]byte:
		return hexutil.Encode(v[:])
	case string:
		return v
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return integer(v)
}

func integer(v any) string {
	switch v := v.(type) {
	case *big.Int:
		return v.String()
	case uint8:
		return big.NewInt(int64(v)).String()
	case uint64:
		return new(big.Int).SetUint64(v).String()
	case int8:
		return big.NewInt(int64(v)).String()
	}
	return "?"
}

// TestDecodeAgainstABI encodes random events with go-ethereum's
// accounts/abi (topics for indexed parameters, Pack for the data) and
// requires Decode to give back every value.
func TestDecodeAgainstABI(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		var decl []string
		var data abi.Arguments
		var values []any
		var topics []common.Hash
		indexed := 0
		for j := range 1 + r.IntN(5) {
			typ := oracleTypes[r.IntN(len(oracleTypes))]
			v := randomValue(r, typ)
			values = append(values, v)
			ix := indexed < MaxIndexed && r.IntN(2) == 0 && typ != "string" && typ != "bytes"
			if ix {
				indexed++
				ts, err := abi.MakeTopics([]any{v})
				if err != nil {
					t.Fatal(err)
				}
				topics = append(topics, ts[0][0])
				decl = append(decl, typ+" indexed p"+string(rune('a'+j)))
				continue
			}
			at, err := abi.NewType(typ, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, abi.Argument{Type: at})
			decl = append(decl, typ+" p"+string(rune('a'+j)))
		}
		e, err := Parse("E(" + strings.Join(decl, ", ") + ")")
		if err != nil {
			t.Fatal(err)
		}
		var dataValues []any
		for j, in := range e.Inputs {
			if !in.Indexed {
				dataValues = append(dataValues, values[j])
			}
		}
		packed, err := data.Pack(dataValues...)
		if err != nil {
			t.Fatalf("Pack: %v", err)
		}
		args, err := e.Decode(append([]common.Hash{e.Topic()}, topics...), packed)
		if err != nil {
			t.Fatalf("event %d %s: Decode = %v", i, e, err)
		}
		for j, a := range args {
			if want := display(values[j]); a.Value != want {
				t.Fatalf("event %d %s: argument %d = %q, accounts/abi packed %q", i, e, j, a.Value, want)
			}
		}
	}
}
