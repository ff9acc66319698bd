package event

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// testABI is a contract ABI as solc writes it, with the cases selection
// must handle: an overloaded name, an anonymous event, a function-typed
// parameter, a struct parameter, a type accounts/abi accepts but no
// compiler writes (uint7), and non-event entries.
const testABI = `[
 {"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"},{"name":"value","type":"uint256"}],"outputs":[{"name":"","type":"bool"}],"stateMutability":"nonpayable"},
 {"type":"error","name":"Nope","inputs":[]},
 {"type":"event","name":"Transfer","anonymous":false,"inputs":[
  {"name":"from","type":"address","indexed":true,"internalType":"address"},
  {"name":"to","type":"address","indexed":true,"internalType":"address"},
  {"name":"value","type":"uint256","indexed":false,"internalType":"uint256"}]},
 {"type":"event","name":"Transfer","anonymous":false,"inputs":[
  {"name":"to","type":"address","indexed":true},
  {"name":"id","type":"uint256","indexed":true}]},
 {"type":"event","name":"Listed","anonymous":false,"inputs":[
  {"name":"seller","type":"address","indexed":true,"internalType":"contract Market"},
  {"name":"items","type":"tuple[]","indexed":false,"internalType":"struct Item[]","components":[
   {"name":"token","type":"address"},{"name":"amounts","type":"uint96[2]"},{"name":"memo","type":"string"}]}]},
 {"type":"event","name":"Secret","anonymous":true,"inputs":[{"name":"x","type":"bytes32","indexed":true}]},
 {"type":"event","name":"Callback","anonymous":false,"inputs":[{"name":"f","type":"function","indexed":false}]},
 {"type":"event","name":"Odd","anonymous":false,"inputs":[{"name":"x","type":"uint7","indexed":false}]}
]`

func TestABIEvent(t *testing.T) {
	a, err := ParseABI([]byte(testABI))
	if err != nil {
		t.Fatal(err)
	}
	g, err := abi.JSON(strings.NewReader(testABI))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		selector string
		want     string // accounts/abi's name for the event selected
		wantDecl string
	}{
		{"Listed", "Listed", "Listed(address indexed seller, (address,uint96[2],string)[] items)"},
		{"Transfer(address,address,uint256)", "Transfer", "Transfer(address indexed from, address indexed to, uint256 value)"},
		{"event Transfer(address indexed to, uint256 indexed id);", "Transfer0", "Transfer(address indexed to, uint256 indexed id)"},
		{g.Events["Transfer0"].ID.Hex(), "Transfer0", "Transfer(address indexed to, uint256 indexed id)"},
	}
	for _, tt := range tests {
		e, err := a.Event(tt.selector)
		if err != nil {
			t.Errorf("Event(%q) = %v", tt.selector, err)
			continue
		}
		if ge := g.Events[tt.want]; e.Topic() != ge.ID || e.Signature() != ge.Sig || e.String() != tt.wantDecl {
			t.Errorf("Event(%q) = %s %s, accounts/abi %s %s", tt.selector, e, e.Topic(), ge.Sig, ge.ID)
		}
		if a.ByTopic(e.Topic()) != e {
			t.Errorf("ByTopic(%s) is not Event(%q)", e.Topic(), tt.selector)
		}
	}
	if got := len(a.Events); got != 3 {
		t.Errorf("%d events kept, want 3 (the two Transfers and Listed)", got)
	}
}

func TestABIEventErrors(t *testing.T) {
	a, err := ParseABI([]byte(testABI))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		selector, wantErr string
	}{
		{"Transfer", "the ABI overloads Transfer: select one of Transfer(address,address,uint256), Transfer(address,uint256)"},
		{"Secret", "Secret(bytes32) is anonymous: its logs have no topic 0"},
		{"Callback", "Callback(function) parameter 0: type function is not supported"},
		{"Odd(uint7)", `event: "Odd(uint7)": parameter 0: unknown type "uint7"`},
		{"Odd", `Odd(uint7) parameter 0: type "uint7": unknown type "uint7"`},
		{"Approval", `the ABI has no event "Approval"; it declares Listed(address,(address,uint96[2],string)[]), Transfer(address,address,uint256), Transfer(address,uint256)`},
		{"Approval(address,address,uint256)", `the ABI has no event "Approval(address,address,uint256)"`},
		{"0x" + strings.Repeat("00", 32), "the ABI has no event"},
		{" ", `the ABI has no event ""`},
		{"0x" + strings.Repeat("zz", 32), "is not a topic"},
	}
	for _, tt := range tests {
		if _, err := a.Event(tt.selector); err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "event: ") {
			t.Errorf("Event(%q) = %v, want an error containing %q", tt.selector, err, tt.wantErr)
		}
	}
	for _, bad := range []string{"", "{}", `{"abi":null}`, `{"abi":{}}`, `{"abi":[}`, `{"bytecode":"0x00"}`, `[{"type":"event","name":"E","inputs":[{"name":"x","type":"uint"}]}]`, `[{"type":"nonsense"}]`,
		`[{"type":"event","name":"E","inputs":[{"name":"x","type":"uint256[100000000]"}]}]`,
		`[{"type":"function","name":"f","inputs":[{"name":"x","type":"tuple[65536]","components":[{"name":"y","type":"uint256[65536]"}]}]}]`,
		`[{"type":"event","name":"E","inputs":[{"name":"x","type":"uint8` + strings.Repeat("[1]", 17) + `"}]}]`} {
		if _, err := ParseABI([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "event: ABI: ") {
			t.Errorf("ParseABI(%q) = %v, want an error", bad, err)
		}
	}
	empty, err := ParseABI([]byte("[]"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Event("Transfer"); err == nil || !strings.Contains(err.Error(), "it declares none") {
		t.Errorf("Event on an ABI without events = %v", err)
	}
}

// TestABIArtifact reads the ABI out of compiler artifacts, shaped as
// Foundry's out/Token.sol/Token.json and Hardhat's
// artifacts/contracts/Token.sol/Token.json are, and lists what it left out.
func TestABIArtifact(t *testing.T) {
	artifacts := map[string]string{
		"foundry": `{"abi":` + testABI + `,"bytecode":{"object":"0x6080","sourceMap":"","linkReferences":{}},"methodIdentifiers":{"transfer(address,uint256)":"a9059cbb"},"id":7}`,
		"hardhat": ` {"_format":"hh-sol-artifact-1","contractName":"Token","sourceName":"contracts/Token.sol","abi":` + testABI + `,"bytecode":"0x6080","linkReferences":{}}`,
	}
	want, err := ParseABI([]byte(testABI))
	if err != nil {
		t.Fatal(err)
	}
	for name, js := range artifacts {
		a, err := ParseABI([]byte(js))
		if err != nil {
			t.Errorf("ParseABI(%s artifact) = %v", name, err)
			continue
		}
		if len(a.Events) != len(want.Events) {
			t.Fatalf("ParseABI(%s artifact): %d events, the ABI array %d", name, len(a.Events), len(want.Events))
		}
		for i, e := range a.Events {
			if e.String() != want.Events[i].String() {
				t.Errorf("ParseABI(%s artifact) event %d = %s, want %s", name, i, e, want.Events[i])
			}
		}
	}
	refused := want.Refused()
	for _, sig := range []string{"Secret(bytes32)", "Callback(function)", "Odd(uint7)"} {
		if refused[sig] == nil {
			t.Errorf("Refused() = %v, lacks %s", refused, sig)
		}
	}
	if len(refused) != 3 {
		t.Errorf("Refused() = %v, want 3 events", refused)
	}
}

// FuzzParseABI feeds arbitrary JSON and selectors: an error or an event
// whose declaration parses back to the same signature, never a panic, and
// never a hang (an input still running after 3 s fails: accounts/abi once
// spent minutes building Go types for a long array here).
func FuzzParseABI(f *testing.F) {
	f.Add([]byte(testABI), "Listed")
	f.Add([]byte(`{"abi":`+testABI+`}`), "Transfer(address,address,uint256)")
	f.Add([]byte(testABI), "Transfer(address,uint256)")
	f.Add([]byte(`[{"type":"event","name":"E","inputs":[{"name":"a","type":"tuple[2][]","components":[{"name":"b","type":"bytes[]"}]}]}]`), "E")
	f.Fuzz(func(t *testing.T, js []byte, selector string) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic(fmt.Sprintf("SLOW %q %q", js, selector))
			}
		}()
		a, err := ParseABI(js)
		if err != nil {
			return
		}
		e, err := a.Event(selector)
		if err != nil {
			return
		}
		back, err := Parse(e.String())
		if err != nil || back.Signature() != e.Signature() {
			t.Fatalf("Event(%q) = %s, which parses as %v, %v", selector, e, back, err)
		}
		if !bytes.Contains(js, []byte(e.Name)) {
			t.Fatalf("Event(%q) = %s, a name the ABI does not hold", selector, e)
		}
	})
}
