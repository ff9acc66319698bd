package event

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
)

// solidityRounds is the number of times TestAgainstSolidity calls each
// function of testdata/solc/Topics.sol with random values.
const solidityRounds = 100

// TestAgainstSolidity runs the contract in testdata/solc (compiled by
// solc-js, see gen.js and VERSION there) in go-ethereum's EVM and calls
// each function with random values. Each emits an event whose topic 1 is
// the value as Solidity encodes an indexed parameter, and whose data holds
// the same value ABI-encoded by Solidity. This is the oracle for what
// accounts/abi cannot check: the hashes of indexed arrays and tuples
// (string[], bytes3[], int16[] with negative values, structs holding
// strings, nested arrays), and the decoding of Solidity's own encoding.
//
// For each log: EncodeTopic of the value must equal the topic Solidity
// wrote, Values must give the value back from the data and the topic hash
// for the indexed parameter, and ParseABI must read the event from solc's
// ABI JSON with the signature solc hashed.
func TestAgainstSolidity(t *testing.T) {
	bin, err := os.ReadFile("testdata/solc/Topics.bin")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("testdata/solc/Topics.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	gabi, err := abi.JSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := ParseABI(js)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &runtime.Config{}
	_, contract, _, err := runtime.Create(common.FromHex(strings.TrimSpace(string(bin))), cfg)
	if err != nil {
		t.Fatalf("deploying Topics: %v", err)
	}
	rounds := solidityRounds
	if testing.Short() {
		rounds /= 4
	}
	r := rand.New(rand.NewPCG(17, 2))
	methods := slices.Sorted(func(yield func(string) bool) {
		for name := range gabi.Methods {
			if !yield(name) {
				return
			}
		}
	})
	if len(methods) != len(ours.Events) || len(methods) < 17 {
		t.Fatalf("%d functions, %d events in the ABI", len(methods), len(ours.Events))
	}
	for range rounds {
		for _, name := range methods {
			e, err := ours.Event("E" + strings.TrimPrefix(name, "f"))
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstSolidity(t, r, cfg, contract, gabi, name, e)
			if t.Failed() {
				return
			}
		}
	}
}

func checkAgainstSolidity(t *testing.T, r *rand.Rand, cfg *runtime.Config, contract common.Address, gabi abi.ABI, method string, e *Event) {
	t.Helper()
	values := make([]reflect.Value, len(e.Inputs))
	var args []any
	for j := range e.Inputs {
		if j > 0 && len(gabi.Methods[method].Inputs) == 1 {
			values[j] = values[0] // E(T indexed t, T v) emits its one argument twice
			continue
		}
		values[j] = randomValue(r, &e.Inputs[j].Type)
		args = append(args, values[j].Interface())
	}
	input, err := gabi.Pack(method, args...)
	if err != nil {
		t.Fatalf("%s: Pack: %v", method, err)
	}
	before := len(cfg.State.Logs())
	if _, _, err := runtime.Call(contract, input, cfg); err != nil {
		t.Fatalf("%s%v: %v", method, args, err)
	}
	logs := cfg.State.Logs()[before:]
	if len(logs) != 1 {
		t.Fatalf("%s: %d logs", method, len(logs))
	}
	l := logs[0]
	if gev := gabi.Events[e.Name]; l.Topics[0] != e.Topic() || e.Signature() != gev.Sig {
		t.Fatalf("%s: topic 0 %s, solc's ABI %s; we read %s", method, l.Topics[0], gev.Sig, e.Signature())
	}
	got, err := e.Values(l.Topics, l.Data)
	if err != nil {
		t.Fatalf("%s: Values(%v, %x) = %v", e, l.Topics, l.Data, err)
	}
	for j, in := range e.Inputs {
		want := values[j].Interface()
		if in.Indexed {
			topic, err := EncodeTopic(in.Type, want)
			if err != nil || topic != l.Topics[1+e.indexedBefore(j)] {
				t.Fatalf("%s: EncodeTopic(%s, %#v) = %s, %v; Solidity wrote %s", e, in.Type, want, topic, err, l.Topics[1+e.indexedBefore(j)])
			}
			if !in.Type.Word() {
				want = topic
			}
		}
		if !sameValue(got[j], want) {
			t.Fatalf("%s: %s = %#v, Solidity emitted %#v", e, e.argName(j), got[j], want)
		}
	}
}
