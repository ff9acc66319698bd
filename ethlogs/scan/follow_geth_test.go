package scan_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/ethereum/go-ethereum/common"
)

// TestFollowGeth follows geth --dev over WebSocket, IPC and HTTP while
// transactions arrive, each sealed in a block of its own: the rows must
// be geth's eth_getLogs over the same blocks. Logged: the time from the
// head reaching the follow to its rows emitted, and from sending the
// transaction to its row emitted (median, max).
// It needs geth (installed on first use) and skips under -short.
func TestFollowGeth(t *testing.T) {
	g := livenode.StartGethStreams(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	emitter, _, err := g.DeployEmitter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q := ethlogs.Query{Addresses: []common.Address{common.Address(emitter)}}
	for _, name := range []string{"ws", "ipc", "http"} {
		url := map[string]string{"http": g.RPC.URL(), "ws": g.WS, "ipc": g.IPC}[name]
		t.Run(name, func(t *testing.T) {
			start, err := g.BlockNumber(ctx)
			if err != nil {
				t.Fatal(err)
			}
			f := startFollow(t, scan.Config{Client: scan.NewClient(url), Query: q, From: start, IndexDir: t.TempDir()},
				scan.FollowOptions{Poll: 50 * time.Millisecond})
			f.waitHead(t, start)
			var lat, mined []time.Duration
			for i := range 8 {
				sent := time.Now()
				if _, err := g.Transact(ctx, &emitter, []byte{byte(i)}); err != nil {
					t.Fatal(err)
				}
				n, err := g.BlockNumber(ctx)
				if err != nil {
					t.Fatal(err)
				}
				h := f.waitHead(t, n)
				lat, mined = append(lat, time.Since(h.Seen)), append(mined, time.Since(sent))
			}
			end, _ := g.BlockNumber(ctx)
			rangeLines, followLines := f.output()
			got := append(rangeLines, followLines...)
			want := getLogs(t, g.RPC.URL(), withRange(q, start, end))
			if len(followLines) < 8 || !slices.Equal(got, want) {
				t.Errorf("%d logs (%d followed); eth_getLogs over blocks %d to %d has %d", len(got), len(followLines), start, end, len(want))
			}
			slices.Sort(lat)
			slices.Sort(mined)
			t.Logf("%s: %d logs equal to eth_getLogs; head seen → rows emitted: median %v, max %v; transaction sent → its row emitted: median %v, max %v",
				name, len(got), lat[len(lat)/2], lat[len(lat)-1], mined[len(mined)/2], mined[len(mined)-1])
		})
	}
}
