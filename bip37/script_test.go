package bip37

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

func TestNextOp(t *testing.T) {
	tests := []struct {
		name, script string
		op           byte
		data, rest   string
		ok           bool
	}{
		{"empty script", "", opInvalid, "", "", false},
		{"OP_0", "00ac", 0, "", "ac", true},
		{"direct push", "0201029f", 2, "0102", "9f", true},
		{"direct push past the end", "030102", opInvalid, "", "", false},
		{"PUSHDATA1", "4c02abcd", opPushData1, "abcd", "", true},
		{"PUSHDATA1 of nothing", "4c00", opPushData1, "", "", true},
		{"PUSHDATA1 without length", "4c", opInvalid, "", "", false},
		{"PUSHDATA2", "4d0300aabbccdd", opPushData2, "aabbcc", "dd", true},
		{"PUSHDATA2 short length", "4d03", opInvalid, "", "", false},
		{"PUSHDATA4", "4e01000000ee", opPushData4, "ee", "", true},
		{"PUSHDATA4 huge length", "4effffffff00", opInvalid, "", "", false},
		{"opcode", "76a9", 0x76, "", "a9", true},
		{"OP_1", "51", op1, "", "", true},
	}
	for _, tt := range tests {
		op, data, rest, ok := nextOp(unhex(t, tt.script))
		if op != tt.op || !bytes.Equal(data, unhex(t, tt.data)) || !bytes.Equal(rest, unhex(t, tt.rest)) || ok != tt.ok {
			t.Errorf("%s: nextOp(%s) = %02x, %x, %x, %v, want %02x, %s, %s, %v",
				tt.name, tt.script, op, data, rest, ok, tt.op, tt.data, tt.rest, tt.ok)
		}
	}
}

const (
	key33 = "02" + "1111111111111111111111111111111111111111111111111111111111111111"
	key65 = "04" + "22222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222"
)

func TestIsPayToPubKey(t *testing.T) {
	tests := []struct {
		name, script string
		want         bool
	}{
		{"compressed", "21" + key33 + "ac", true},
		{"uncompressed", "41" + key65 + "ac", true},
		{"hybrid 06", "41" + "06" + key65[2:] + "ac", true},
		{"bad header", "21" + "04" + key33[2:] + "ac", false},
		{"CHECKSIGVERIFY", "21" + key33 + "ad", false},
		{"P2PKH", "76a914" + strings.Repeat("00", 20) + "88ac", false},
	}
	for _, tt := range tests {
		if got := isPayToPubKey(unhex(t, tt.script)); got != tt.want {
			t.Errorf("%s: isPayToPubKey(%s) = %v, want %v", tt.name, tt.script, got, tt.want)
		}
	}
}

func TestIsMultisig(t *testing.T) {
	k := "21" + key33
	K := "41" + key65
	tests := []struct {
		name, script string
		want         bool
	}{
		{"1-of-1", "51" + k + "51ae", true},
		{"1-of-2 mixed keys", "51" + k + K + "52ae", true},
		{"2-of-2", "52" + k + k + "52ae", true},
		{"m > n", "52" + k + "51ae", false},
		{"m = 0", "00" + k + "51ae", false},
		{"0-of-0", "0000ae", false},
		{"n does not count the keys", "51" + k + k + "51ae", false},
		{"invalid key size ends the keys", "51" + "21" + "05" + key33[2:] + "51ae", false},
		{"trailing opcode", "51" + k + "5151ae", false},
		{"no CHECKMULTISIG", "51" + k + "51ac", false},
		{"17 keys, n pushed as 0x11", "51" + strings.Repeat(k, 17) + "0111ae", true},
		{"16 keys, n pushed as 0x10 (not minimal)", "51" + strings.Repeat(k, 16) + "0110ae", false},
		{"21 keys", "51" + strings.Repeat(k, 21) + "0115ae", false},
		{"n pushed with PUSHDATA1 (not minimal)", "51" + strings.Repeat(k, 17) + "4c0111ae", false},
		{"truncated key", "51" + "21" + key33[:20], false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got := isMultisig(unhex(t, tt.script)); got != tt.want {
			t.Errorf("%s: isMultisig(%s) = %v, want %v", tt.name, tt.script, got, tt.want)
		}
	}
}

func TestMinimalNumber(t *testing.T) {
	tests := []struct {
		op   byte
		data string
		want int
		ok   bool
	}{
		{1, "11", 17, true},
		{1, "7f", 127, true},
		{2, "8000", 128, true},
		{1, "81", 0, false},   // OP_1NEGATE
		{1, "05", 0, false},   // OP_5
		{2, "1100", 0, false}, // superfluous zero byte
		{2, "ff80", -255, true},
		{1, "80", 0, false}, // negative zero
		{5, "0102030405", 0, false},
		{4, "ffffff7f", 1<<31 - 1, true},
		{opPushData1, "11", 0, false},
	}
	for _, tt := range tests {
		got, ok := minimalNumber(tt.op, unhex(t, tt.data))
		if got != tt.want || ok != tt.ok {
			t.Errorf("minimalNumber(%02x, %s) = %d, %v, want %d, %v", tt.op, tt.data, got, ok, tt.want, tt.ok)
		}
	}
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
