package main

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestEthScanCSV checks --csv on the demo chain: strict RFC 4180 (CRLF
// line ends, one header row, as many fields in every record), and every
// field equal to the --json output's for the same log, decoded arguments
// included; the output itself is pinned by a golden file.
func TestEthScanCSV(t *testing.T) {
	index := t.TempDir()
	code, out, stderr := runCLI(t, append(demoScan(t), "--csv", "--index", index)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	golden(t, "eth-scan-demo.csv.golden", out)
	if !strings.HasSuffix(out, "\r\n") || strings.Count(out, "\n") != strings.Count(out, "\r\n") {
		t.Errorf("records do not all end in CRLF")
	}
	r := csv.NewReader(strings.NewReader(out))
	records, err := r.ReadAll() // strict: the same number of fields in every record
	if err != nil {
		t.Fatal(err)
	}
	_, jsonOut, _ := runCLI(t, append(demoScan(t), "--json", "--index", index)...)
	lines := splitLines(jsonOut)
	ev, _ := event.Parse("Transfer(address indexed from, address indexed to, uint256 value)")
	set := &eventSet{}
	set.add(ev)
	if !slices.Equal(records[0], csvHeader(set)) || len(records)-1 != len(lines) || len(lines) == 0 {
		t.Fatalf("header %q and %d rows; want %q and %d rows", records[0], len(records)-1, csvHeader(set), len(lines))
	}
	for i, line := range lines {
		var l struct {
			types.Log
			Args map[string]string `json:"args"`
		}
		if err := json.Unmarshal([]byte(line), &l.Log); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(line), &struct {
			Args *map[string]string `json:"args"`
		}{&l.Args})
		row := map[string]string{}
		for j, name := range records[0] {
			row[name] = records[i+1][j]
		}
		want := map[string]string{
			"blockNumber": strconv.FormatUint(l.BlockNumber, 10), "blockHash": l.BlockHash.Hex(),
			"blockTimestamp": strconv.FormatUint(l.BlockTimestamp, 10), "transactionIndex": strconv.Itoa(int(l.TxIndex)),
			"transactionHash": l.TxHash.Hex(), "logIndex": strconv.Itoa(int(l.Index)), "address": l.Address.Hex(),
			"data": hexutil.Encode(l.Data), "removed": "false", "topic3": "",
			"args.from": l.Args["from"], "args.to": l.Args["to"], "args.value": l.Args["value"], "argsError": "",
		}
		for k, topic := range l.Topics {
			want["topic"+strconv.Itoa(k)] = topic.Hex()
		}
		for k, v := range want {
			if row[k] != v {
				t.Fatalf("row %d, %s = %q; the --json log says %q", i, k, row[k], v)
			}
		}
	}
}

// TestCSVRowEscapes: a contract's string reaches a CSV cell escaped, so a
// row is one line and a terminal shown the CSV runs nothing; a log of
// fewer topics leaves the rest empty.
func TestCSVRowEscapes(t *testing.T) {
	ev, err := event.Parse("Note(string text, uint8 n)")
	if err != nil {
		t.Fatal(err)
	}
	l := &types.Log{Address: common.Address{1}, Topics: []common.Hash{ev.Topic()}}
	args := []event.Arg{{Name: "text", Type: "string", Value: "a\x1b]0;owned\x07\nb\\"}, {Name: "n", Type: "uint8", Value: "7"}}
	set := &eventSet{}
	set.add(ev)
	row := csvRow(l, set, args, nil)
	want := append(slices.Clone(row[:len(csvColumns)]), `a\x1b]0;owned\a\nb\\`, "7", "")
	if !slices.Equal(row, want) || row[7] != ev.Topic().Hex() || row[8] != "" {
		t.Errorf("csvRow = %q, want %q", row, want)
	}
	if h := csvHeader(set); !slices.Equal(h[len(csvColumns):], []string{"args.text", "args.n", "argsError"}) {
		t.Errorf("csvHeader = %q", h)
	}
	other, _ := event.Parse("Other(uint256 x)")
	set.add(other)
	if h := csvHeader(set); !slices.Equal(h[len(csvColumns):], []string{"event", "args", "argsError"}) {
		t.Errorf("csvHeader of two events = %q", h)
	}
	if row := csvRow(l, set, args, nil); !slices.Equal(row[len(csvColumns):], []string{"Note", `text="a\x1b]0;owned\a\nb\\" n=7`, ""}) {
		t.Errorf("csvRow of two events = %q", row[len(csvColumns):])
	}
}
