package scan_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/core/types"
)

// startDemo returns the demo node the package's tests share
// ([scan.DemoChain]); it is read-only.
func startDemo(t testing.TB) *demo.Chain {
	t.Helper()
	c, err := scan.DemoChain()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// collect runs a scan and returns its logs as eth_getLogs JSON lines.
func collect(ctx context.Context, cfg scan.Config) ([]string, scan.Stats, error) {
	var lines []string
	cfg.Emit = emitTo(&lines, nil)
	st, err := scan.Run(ctx, cfg)
	return lines, st, err
}

// emitTo returns an Emit that appends JSON lines to out and then calls
// after, if set.
func emitTo(out *[]string, after func()) func([]*types.Log) error {
	return func(logs []*types.Log) error {
		for _, l := range logs {
			b, err := json.Marshal(l)
			if err != nil {
				return err
			}
			*out = append(*out, string(b))
		}
		if after != nil {
			after()
		}
		return nil
	}
}

// getLogs asks the node's own eth_getLogs, one JSON line per log.
func getLogs(t testing.TB, url string, q ethlogs.Query) []string {
	t.Helper()
	var raw []json.RawMessage
	if err := scan.NewClient(url).Call(context.Background(), &raw, "eth_getLogs", q); err != nil {
		t.Fatalf("eth_getLogs: %v", err)
	}
	lines := make([]string, len(raw))
	for i, r := range raw {
		var buf bytes.Buffer
		if err := json.Compact(&buf, r); err != nil {
			t.Fatal(err)
		}
		lines[i] = buf.String()
	}
	return lines
}
