package event

import (
	"strings"
	"testing"
)

// FuzzParse parses arbitrary declarations: an error, or an event whose
// canonical declaration parses back to itself, whose every parameter type
// parses back from its canonical form, and which stays within the bounds
// on nesting and size.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Transfer(address indexed from, address indexed to, uint256 value)",
		"Transfer(address,address,uint256)",
		"event E(uint[2][] indexed a, tuple(bytes32 x, string[] y)[3] b, (int8,(bool,bytes)) c);",
		"E(uint256[65536][65536] a)",
		"E(((((((((((((((((((uint8)))))))))))))))))))",
		"E(address indexed, bytes7 indexed b, int indexed)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, decl string) {
		e, err := Parse(decl)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "event: ") {
				t.Fatalf("Parse(%q) = %v, without the package prefix", decl, err)
			}
			return
		}
		back, err := Parse(e.String())
		if err != nil || back.String() != e.String() || back.Signature() != e.Signature() || back.Unmarked() != e.Unmarked() {
			t.Fatalf("Parse(%q) = %s, which parses back as %v, %v", decl, e, back, err)
		}
		for _, in := range e.Inputs {
			pt, err := ParseType(in.Type.String())
			if err != nil || pt.String() != in.Type.String() {
				t.Fatalf("ParseType(%q) = %s, %v", in.Type, pt, err)
			}
			if !in.Type.Dynamic() && in.Type.staticSize() > maxStaticSize {
				t.Fatalf("%s: static size %d over the bound", in.Type, in.Type.staticSize())
			}
		}
	})
}

// FuzzParseValue reads arbitrary text as a value of an arbitrary type: an
// error, or a value whose display form ([Event.Decode]'s) reads back as
// the same value and which EncodeTopic accepts.
func FuzzParseValue(f *testing.F) {
	for _, s := range [][2]string{
		{"address", alice}, {"address", badCase}, {"uint8", "255"}, {"int16", "-0x8000"}, {"bytes3", "0xabcdef"},
		{"bool", "true"}, {"string", `"a,b"`}, {"bytes", "0x"}, {"(uint8,string)[]", `[(1, "x"), (2, y)]`},
		{"string[2][]", `[["a","b"],["c,d",""]]`}, {"int256", "-57896044618658097711785492504343953926634992332820282019728792003956564819968"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, typ, s string) {
		ty, err := ParseType(typ)
		if err != nil {
			return
		}
		v, err := ParseValue(ty, s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "event: ") {
				t.Fatalf("ParseValue(%s, %q) = %v, without the package prefix", ty, s, err)
			}
			return
		}
		if _, err := EncodeTopic(ty, v); err != nil {
			t.Fatalf("ParseValue(%s, %q) = %#v, which EncodeTopic refuses: %v", ty, s, v, err)
		}
		shown := format(&ty, v, ty.Kind != String)
		back, err := ParseValue(ty, shown)
		if err != nil || !sameValue(back, v) {
			t.Fatalf("ParseValue(%s, %q) = %#v, shown %q, which reads back as %#v, %v", ty, s, v, shown, back, err)
		}
	})
}

// TestOddMemberNames builds Go types for tuple members whose Solidity
// names are no Go identifier once in CamelCase.
func TestOddMemberNames(t *testing.T) {
	ty, err := ParseType("(uint8 _1x, bool $, string a_b, bytes1 aB, address __)")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseValue(ty, `(1, true, "s", 0x01, 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed)`)
	if err != nil {
		t.Fatal(err)
	}
	if got := format(&ty, v, false); got != `(1, true, "s", 0x01, 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed)` {
		t.Errorf("format = %s", got)
	}
}
