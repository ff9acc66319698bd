package event

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// transferRecord is what a wallet fills per ERC-20 Transfer.
type transferRecord struct {
	From  common.Address
	To    common.Address
	Value *big.Int
}

// benchTransfer returns a Transfer log, our event for it, and
// accounts/abi's ABI for it.
func benchTransfer(b *testing.B, decl string) ([]common.Hash, []byte, *Event, abi.ABI) {
	b.Helper()
	marked, err := Parse(transfer)
	if err != nil {
		b.Fatal(err)
	}
	gabi, err := abi.JSON(strings.NewReader(string(abiJSON(marked))))
	if err != nil {
		b.Fatal(err)
	}
	e, err := Parse(decl)
	if err != nil {
		b.Fatal(err)
	}
	from, to := common.HexToAddress(alice), common.HexToAddress(bob)
	topics := []common.Hash{marked.Topic(), common.BytesToHash(from[:]), common.BytesToHash(to[:])}
	data := common.BigToHash(big.NewInt(832565000000000000)).Bytes()
	return topics, data, e, gabi
}

// gethUnpackLog decodes a log into a struct as abigen's bound contracts
// do (bind.BoundContract.UnpackLog): data by UnpackIntoInterface, topics
// by ParseTopics, with the event's indexed arguments found once.
func gethUnpackLog(gabi abi.ABI, indexed abi.Arguments, out any, topics []common.Hash, data []byte) error {
	if err := gabi.UnpackIntoInterface(out, "Transfer", data); err != nil {
		return err
	}
	return abi.ParseTopics(out, indexed, topics[1:])
}

func indexedArgs(gabi abi.ABI) abi.Arguments {
	var indexed abi.Arguments
	for _, a := range gabi.Events["Transfer"].Inputs {
		if a.Indexed {
			indexed = append(indexed, a)
		}
	}
	return indexed
}

// BenchmarkUnpackTransfer decodes an ERC-20 Transfer log into a struct:
// ours against go-ethereum's accounts/abi used as abigen uses it.
func BenchmarkUnpackTransfer(b *testing.B) {
	benchUnpack(b, transfer, func() any { return new(transferRecord) })
}

// BenchmarkUnpackTransferCast is BenchmarkUnpackTransfer with cast's
// signature Transfer(address,address,uint256) on our side, which works
// out the layout from the log; accounts/abi needs the indexed flags.
func BenchmarkUnpackTransferCast(b *testing.B) {
	benchUnpack(b, "Transfer(address,address,uint256)", func() any {
		return new(struct {
			Arg0, Arg1 common.Address
			Arg2       *big.Int
		})
	})
}

func benchUnpack(b *testing.B, decl string, out func() any) {
	topics, data, e, gabi := benchTransfer(b, decl)
	indexed := indexedArgs(gabi)
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Unpack(out(), topics, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := gethUnpackLog(gabi, indexed, new(transferRecord), topics, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeTransfer is the CLI's per-log work: display strings.
// accounts/abi's side unpacks to a map and formats the same strings.
func BenchmarkDecodeTransfer(b *testing.B) {
	topics, data, e, gabi := benchTransfer(b, transfer)
	indexed := indexedArgs(gabi)
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Decode(topics, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := map[string]any{}
			if err := gabi.UnpackIntoMap(m, "Transfer", data); err != nil {
				b.Fatal(err)
			}
			if err := abi.ParseTopicsIntoMap(m, indexed, topics[1:]); err != nil {
				b.Fatal(err)
			}
			_ = []Arg{{"from", "address", m["from"].(common.Address).Hex(), true}, {"to", "address", m["to"].(common.Address).Hex(), true}, {"value", "uint256", m["value"].(*big.Int).String(), false}}
		}
	})
}

// BenchmarkEncodeTopic turns one --arg value into its topic.
func BenchmarkEncodeTopic(b *testing.B) {
	a := common.HexToAddress(alice)
	t := Type{Kind: Address}
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeTopic(t, a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := abi.MakeTopics([]any{a}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
