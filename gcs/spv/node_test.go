package spv_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestNodeHeaders syncs the header chain of btcd and of litecoind, whose
// headers carry scrypt proof of work.
func TestNodeHeaders(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		t.Run(n.Name, func(t *testing.T) {
			sc := spvtest.NewScenario(t, n.Start, spvtest.Options{Filler: 3, FillerOutputs: 1})
			ctx := t.Context()
			genesis, err := sc.Node.BlockHash(ctx, 0)
			if err != nil || genesis != *sc.Network.Params.GenesisHash {
				t.Fatalf("%s genesis = %s, %v, want %s", n.Name, genesis, err, sc.Network.Params.GenesisHash)
			}
			s := spvtest.Dial(t, sc.Node.P2PAddr, sc.Network, 0, 0)
			c, err := spv.NewChain(sc.Network)
			if err != nil {
				t.Fatal(err)
			}
			if err := spv.SyncHeaders(ctx, s, c); err != nil {
				t.Fatal(err)
			}
			if best, err := sc.Node.BestBlockHash(ctx); err != nil || c.Height() != sc.Tip || c.Tip() != best {
				t.Errorf("synced to %d %s, want %d %s (%v)", c.Height(), c.Tip(), sc.Tip, best, err)
			}
			checkTraffic(t, s.Traffic(), 1)
			if n.Name == "litecoind" {
				checkScrypt(t, c)
			}
		})
	}
}

// checkTraffic checks that the per-command counts add up to the totals.
func checkTraffic(t *testing.T, tr spv.Traffic, roundTrips int) {
	t.Helper()
	var sent, recv uint64
	for _, c := range tr.Sent {
		sent += c.Bytes
	}
	for _, c := range tr.Received {
		recv += c.Bytes
	}
	if sent != tr.BytesSent || recv != tr.BytesReceived || tr.RoundTrips != roundTrips {
		t.Errorf("Traffic() = %d B sent, %d B received, %d round trips; by command %d, %d; want equal totals and %d round trips",
			tr.BytesSent, tr.BytesReceived, tr.RoundTrips, sent, recv, roundTrips)
	}
	if tr.Received["headers"].Messages != roundTrips {
		t.Errorf("Traffic(): %d headers messages, want %d", tr.Received["headers"].Messages, roundTrips)
	}
}

// checkScrypt checks that scrypt, not the block hash, is what met the
// targets: about half of the regtest headers' block hashes exceed theirs.
func checkScrypt(t *testing.T, c *spv.Chain) {
	above := 0
	for h := int32(1); h <= c.Height(); h++ {
		hdr, err := c.Header(h)
		if err != nil {
			t.Fatal(err)
		}
		hash := hdr.BlockHash()
		if blockchain.HashToBig(&hash).Cmp(blockchain.CompactToBig(hdr.Bits)) > 0 {
			above++
		}
	}
	if above == 0 {
		t.Errorf("every one of %d litecoind block hashes meets its target: the scrypt check proved nothing", c.Height())
	}
	t.Logf("litecoind: %d of %d block hashes exceed the target their scrypt hash meets", above, c.Height())
}

// TestLyingPeer plays a peer that lies about headers, sends a malformed
// message, withholds or stalls, through a proxy in front of btcd.
func TestLyingPeer(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 3, FillerOutputs: 1, Args: []string{"--nobanning"}})
	onHeaders := func(f func(m *wire.MsgHeaders) []wire.Message) spvtest.Edit {
		return func(msg wire.Message) []wire.Message {
			if m, ok := msg.(*wire.MsgHeaders); ok && len(m.Headers) > 0 {
				return f(m)
			}
			return []wire.Message{msg}
		}
	}
	tests := []struct {
		name    string
		edit    spvtest.Edit
		timeout time.Duration
		want    string
		is      error
	}{
		{"headers out of order", onHeaders(func(m *wire.MsgHeaders) []wire.Message {
			m.Headers[5], m.Headers[6] = m.Headers[6], m.Headers[5]
			return spvtest.Keep(m)
		}), 0, "header 6 (", spv.ErrMisbehaving},
		{"header without its proof of work", onHeaders(func(m *wire.MsgHeaders) []wire.Message {
			m.Headers[9].Bits = 0x1d00ffff
			return spvtest.Keep(m)
		}), 0, "exceeds the target", spv.ErrMisbehaving},
		{"headers withheld", onHeaders(func(m *wire.MsgHeaders) []wire.Message {
			m.Headers = m.Headers[:len(m.Headers)-5]
			return spvtest.Keep(m)
		}), 0, "but its headers end at", spv.ErrMisbehaving},
		{"malformed headers message", onHeaders(func(m *wire.MsgHeaders) []wire.Message {
			return []wire.Message{spvtest.BadChecksum(m, sc.Network)}
		}), 0, "malformed message", spv.ErrMisbehaving},
		{"getheaders ignored", onHeaders(func(*wire.MsgHeaders) []wire.Message { return nil }),
			0, "did not answer getheaders", spv.ErrMisbehaving},
		{"stall", func(msg wire.Message) []wire.Message {
			switch msg.(type) {
			case *wire.MsgHeaders, *wire.MsgPong:
				return nil
			}
			return []wire.Message{msg}
		}, time.Second, "sent nothing it owed", spv.ErrStalled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := spvtest.NewProxy(t, sc.Node.P2PAddr, sc.Network, tt.edit)
			s := spvtest.Dial(t, p.Addr, sc.Network, 0, tt.timeout)
			c, _ := spv.NewChain(sc.Network)
			began := time.Now()
			err := spv.SyncHeaders(t.Context(), s, c)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("SyncHeaders() = %v, want an error wrapping %v containing %q", err, tt.is, tt.want)
			}
			// The session is dropped: any further request fails at once.
			if _, err := s.Request(t.Context(), wire.NewMsgGetHeaders()); err == nil {
				t.Errorf("Request() after the failure = nil error, want the session closed")
			}
			t.Logf("%v after %v", err, time.Since(began).Round(time.Millisecond))
		})
	}
}

// TestSessionRefuses checks the handshake's refusals: a peer on another
// network, and one without a required service.
func TestSessionRefuses(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Args: []string{"--nobanning"}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	_, err := spv.Dial(ctx, sc.Node.P2PAddr, spv.Config{Network: spv.Regtest, Services: wire.SFNodeCF | wire.SFNodeGetUTXO, Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "without SFNodeGetUTXO") {
		t.Errorf("Dial(requiring SFNodeGetUTXO) = %v, want an error naming the missing service", err)
	}
	_, err = spv.Dial(ctx, sc.Node.P2PAddr, spv.Config{Network: spv.Mainnet, Timeout: 5 * time.Second})
	if err == nil {
		t.Errorf("Dial(a regtest node as mainnet) = nil error")
	}
	t.Logf("mainnet magic to a regtest node: %v", err)
}
