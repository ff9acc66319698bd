package main

import (
	"encoding/csv"
	"fmt"
	"strconv"

	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// csvColumns are the columns of every --csv row: the eth_getLogs fields,
// numbers in decimal, topics one a column (empty where the log has fewer).
// With one event to decode (--event), one column per parameter follows
// ("args.NAME", the decoded value as the table writes it) and
// "argsError"; with several (--abi without --event), "event", "args" (the
// table's NAME=VALUE list) and "argsError", since their parameters differ.
var csvColumns = []string{"blockNumber", "blockHash", "blockTimestamp", "transactionIndex", "transactionHash",
	"logIndex", "address", "topic0", "topic1", "topic2", "topic3", "data", "removed"}

// csvHeader is the header row for logs decoded with set (nil: none).
func csvHeader(set *eventSet) []string {
	h := append([]string(nil), csvColumns...)
	if set == nil {
		return h
	}
	ev := set.single()
	if ev == nil {
		return append(h, "event", "args", "argsError")
	}
	for i, in := range ev.Inputs {
		name := in.Name
		if name == "" {
			name = "arg" + strconv.Itoa(i) // as event.Arg names it
		}
		h = append(h, "args."+name)
	}
	return append(h, "argsError")
}

// csvRow is one log as a --csv row. A decoded string is escaped as the
// table's are (a contract chooses it: a terminal must not run it), so
// every row is one line; --json keeps the exact string.
func csvRow(l *types.Log, set *eventSet, args []event.Arg, argErr error) []string {
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	row := []string{u(l.BlockNumber), l.BlockHash.Hex(), u(l.BlockTimestamp), u(uint64(l.TxIndex)), l.TxHash.Hex(),
		u(uint64(l.Index)), l.Address.Hex(), "", "", "", "", hexutil.Encode(l.Data), strconv.FormatBool(l.Removed)}
	for i, t := range l.Topics[:min(len(l.Topics), 4)] {
		row[7+i] = t.Hex()
	}
	if set == nil {
		return row
	}
	errText := ""
	if argErr != nil {
		errText = untrusted.Escape(argErr.Error())
	}
	ev := set.single()
	if ev == nil {
		list := ""
		if argErr == nil && args != nil {
			list = describeArgs(l, args, nil) // strings quoted, escapes and all
		}
		return append(row, set.name(l), list, errText)
	}
	values := make([]string, len(ev.Inputs))
	if argErr == nil {
		for i, a := range args[:min(len(args), len(values))] {
			values[i] = untrusted.Escape(a.Value)
		}
	}
	return append(append(row, values...), errText)
}

// writeCSV writes a log as an RFC 4180 record (CRLF line ends, quoting
// where a field needs it), after the header row if it is the first.
func (w *logWriter) writeCSV(l *types.Log, args []event.Arg, argErr error) error {
	if w.csv == nil {
		w.csv = csv.NewWriter(w.out)
		w.csv.UseCRLF = true
	}
	if !w.header {
		w.csv.Write(csvHeader(w.ev))
		w.header = true
	}
	w.csv.Write(csvRow(l, w.ev, args, argErr))
	w.csv.Flush()
	if err := w.csv.Error(); err != nil {
		return fmt.Errorf("--csv: %w", err)
	}
	return nil
}
