package bloomscan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/spvtest"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// edit returns an Edit that applies f to messages of type M and passes the
// rest unchanged.
func edit[M wire.Message](f func(m M) []wire.Message) spvtest.Edit {
	return func(msg wire.Message) []wire.Message {
		if m, ok := msg.(M); ok {
			return f(m)
		}
		return []wire.Message{msg}
	}
}

func keep(m wire.Message) []wire.Message { return []wire.Message{m} }

// TestLyingPeer plays, through a proxy in front of btcd, a peer that
// alters merkle blocks, withholds or adds transactions, or stalls. Each
// must end the scan with an error that names the block, and nothing from
// that block may be reported.
func TestLyingPeer(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: []string{"--nobanning"}})
	spendHeight := sc.Want(sc.Received+1, sc.Tip)[0].Height
	spent, err := sc.Node.BlockHash(t.Context(), spendHeight)
	if err != nil {
		t.Fatal(err)
	}
	wanted := sc.Want(spendHeight, spendHeight)[0].ID
	// A transaction no merkle block proves.
	stranger := sc.Want(0, sc.Tip)[0].Msg.Copy()
	stranger.LockTime++

	// failAt is the first height whose data is bad: nothing from there on
	// may be reported.
	tests := []struct {
		name    string
		edit    spvtest.Edit
		timeout time.Duration
		want    string
		is      error
		failAt  int32
	}{
		{"merkle tree with a hash altered", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Hashes[len(m.Hashes)-1][0] ^= 1
			}
			return keep(m)
		}), 0, "bip37:", spv.ErrMisbehaving, spendHeight},
		{"merkle tree with its flags altered", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Flags[0] ^= 0xff
			}
			return keep(m)
		}), 0, "bip37:", spv.ErrMisbehaving, spendHeight},
		{"merkle block of another block", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Header.Nonce++
			}
			return keep(m)
		}), 0, "arrived in its place", spv.ErrMisbehaving, spendHeight},
		{"transaction withheld", edit(func(m *wire.MsgTx) []wire.Message {
			if m.TxHash() == wanted {
				return nil
			}
			return keep(m)
		}), 0, "withheld", spv.ErrMisbehaving, spendHeight},
		{"transaction not proven", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.PrevBlock == spent {
				return []wire.Message{stranger, m}
			}
			return keep(m)
		}), 0, "no merkle block was pending", spv.ErrMisbehaving, spendHeight + 1},
		{"transaction altered", edit(func(m *wire.MsgTx) []wire.Message {
			if m.TxHash() == wanted {
				m = m.Copy()
				m.TxOut[0].Value++
			}
			return keep(m)
		}), 0, "not proven by a pending merkle block", spv.ErrMisbehaving, spendHeight},
		{"merkle block withheld", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				return nil
			}
			return keep(m)
		}), 0, "no merkle block was pending", spv.ErrMisbehaving, spendHeight},
		{"last merkle block withheld", withholdLast(mustHash(t, sc, sc.Tip)), 0, "answered with", spv.ErrMisbehaving, sc.Tip},
		{"malformed merkle block", edit(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				return []wire.Message{spvtest.BadChecksum(m, sc.Network)}
			}
			return keep(m)
		}), 0, "malformed message", spv.ErrMisbehaving, spendHeight},
		{"stall", stall(), time.Second, "sent nothing it owed", spv.ErrStalled, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := spvtest.NewProxy(t, sc.Node.P2PAddr, sc.Network, tt.edit)
			found, _, err := scan(t, sc, p.Addr, tt.timeout, Config{To: -1})
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run() = %v, want an error wrapping %v containing %q", err, tt.is, tt.want)
			}
			for _, tx := range found {
				if tx.Height >= tt.failAt {
					t.Errorf("Run() reported %s from block %d, at or after block %d, which failed", tx.ID, tx.Height, tt.failAt)
				}
			}
			t.Log(err)
		})
	}
}

func mustHash(t *testing.T, sc *spvtest.Scenario, h int32) chainhash.Hash {
	hash, err := sc.Node.BlockHash(t.Context(), h)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// withholdLast returns an Edit that drops the merkle block of the block
// tip and the transactions that follow it.
func withholdLast(tip chainhash.Hash) spvtest.Edit {
	dropping := false
	return func(msg wire.Message) []wire.Message {
		switch m := msg.(type) {
		case *wire.MsgMerkleBlock:
			dropping = m.Header.BlockHash() == tip
		case *wire.MsgTx:
		case *wire.MsgPong:
			dropping = false
		}
		if dropping {
			return nil
		}
		return keep(msg)
	}
}

// stall returns an Edit that drops every merkle block and transaction
// and, from the first on, the pongs that would end the request.
func stall() spvtest.Edit {
	stalled := false
	return func(msg wire.Message) []wire.Message {
		switch msg.(type) {
		case *wire.MsgMerkleBlock, *wire.MsgTx:
			stalled = true
			return nil
		case *wire.MsgPong:
			if stalled {
				return nil
			}
		}
		return keep(msg)
	}
}
