package lightclient

import (
	"context"
	"net"
	"slices"
	"sync"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// TestSeeds gives the client no peers on a network with three DNS seeds
// and a resolver that answers them with loopback addresses: the seed that
// filters by service bits is asked for compact-filter peers (x49.), the
// others by their plain names; of the three peers found, on the network's
// default port, the one without NODE_COMPACT_FILTERS is skipped, and the
// two others serve the scan.
func TestSeeds(t *testing.T) {
	h := newHistory(t)
	first := startFakePeer(t, h.chain)
	_, port, _ := net.SplitHostPort(first.addr)
	listenFakePeer(t, h.chain, "127.0.0.2:"+port)
	listenFakePeer(t, h.chain, "127.0.0.3:"+port).withoutCF()

	params := *spv.Regtest.Params
	params.DefaultPort = port
	params.DNSSeeds = []chaincfg.DNSSeed{{Host: "seed.test", HasFiltering: true}, {Host: "two.test"}, {Host: "three.test"}}
	answers := map[string]string{"x49.seed.test": "127.0.0.1", "two.test": "127.0.0.3", "three.test": "127.0.0.2"}
	var mu sync.Mutex
	var asked []string
	cfg := h.config()
	cfg.Network = &spv.Network{Params: &params}
	cfg.TargetPeers = 3
	cfg.Lookup = func(_ context.Context, host string) ([]net.IP, error) {
		mu.Lock()
		asked = append(asked, host)
		mu.Unlock()
		ip, ok := answers[host]
		if !ok {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return []net.IP{net.ParseIP(ip)}, nil
	}
	c := start(t, cfg)
	if got := describe(collect(t, c, -1)); got != "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7" {
		t.Errorf("events %s", got)
	}
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(asked)
	if want := []string{"three.test", "two.test", "x49.seed.test"}; !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}
	if st := c.Stats(); st.Traffic.Received["cfheaders"].Messages != 2 {
		t.Errorf("%d cfheaders received, want one from each compact-filter peer", st.Traffic.Received["cfheaders"].Messages)
	}
}
