package scan_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
)

func TestSmoke(t *testing.T) {
	c := startDemo(t)
	var q ethlogs.Query
	q.Addresses = append(q.Addresses, c.Contracts.Token)
	lines, st, err := collect(context.Background(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	from, to := ethlogs.BlockNumber(0), ethlogs.BlockNumber(c.Head)
	q.FromBlock, q.ToBlock = &from, &to
	want := getLogs(t, c.URL, q)
	if !slices.Equal(lines, want) {
		t.Errorf("scan:\n%s\ngetLogs:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("%+v", st)
}
