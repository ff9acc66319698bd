package event

import (
	"strings"
	"testing"

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
		{decl: "E((uint8 a", wantErr: "want , or ) in tuple"},
		{decl: "E(uint8[0] a)", wantErr: `array length "0": want 1 to 65536`},
		{decl: "E(uint8[65537] a)", wantErr: `array length "65537"`},
		{decl: "E(uint8[ a)", wantErr: "unclosed ["},
		{decl: "E(() a)", wantErr: "empty tuple"},
		{decl: "E(tuple a)", wantErr: "want a type"},
		{decl: "E(" + strings.Repeat("(", 18) + "uint8" + strings.Repeat(")", 18) + ")", wantErr: "nested more than 16 deep"},
		{decl: "E(uint8" + strings.Repeat("[1]", 17) + " a)", wantErr: "nested more than 16 deep"},
		{decl: "E(uint256[65536][65536] a)", wantErr: "uint256[65536][65536] is larger than 16777216 bytes"},
		{decl: "E(uint8 a, bool a)", wantErr: "two parameters named a"},
		{decl: "E((uint8 1x) a)", wantErr: `"1x" is not a member name`},
		{decl: "E(uint8 indexed 1x)", wantErr: `"1x" is not a parameter name`},
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
