package bloomscan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestLyingPeer plays, through a proxy in front of btcd, a peer that
// alters merkle blocks, withholds or adds transactions, or stalls. Each
// must end the scan with an error that names the block, and nothing from
// that block may be reported.
func TestLyingPeer(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: []string{"--nobanning"}})
	spendHeight := sc.Want(sc.Received+1, sc.Tip)[0].Height
	spent := sc.BlockHash(t, spendHeight)
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
		{"merkle tree with a hash altered", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Hashes[len(m.Hashes)-1][0] ^= 1
			}
			return spvtest.Keep(m)
		}), 0, "bip37:", spv.ErrMisbehaving, spendHeight},
		{"merkle tree with its flags altered", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Flags[0] ^= 0xff
			}
			return spvtest.Keep(m)
		}), 0, "bip37:", spv.ErrMisbehaving, spendHeight},
		{"merkle block of another block", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				m.Header.Nonce++
			}
			return spvtest.Keep(m)
		}), 0, "arrived in its place", spv.ErrMisbehaving, spendHeight},
		{"transaction withheld", spvtest.On(func(m *wire.MsgTx) []wire.Message {
			if m.TxHash() == wanted {
				return nil
			}
			return spvtest.Keep(m)
		}), 0, "withheld", spv.ErrMisbehaving, spendHeight},
		{"transaction not proven", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.PrevBlock == spent {
				return []wire.Message{stranger, m}
			}
			return spvtest.Keep(m)
		}), 0, "no merkle block was pending", spv.ErrMisbehaving, spendHeight + 1},
		{"transaction altered", spvtest.On(func(m *wire.MsgTx) []wire.Message {
			if m.TxHash() == wanted {
				m = m.Copy()
				m.TxOut[0].Value++
			}
			return spvtest.Keep(m)
		}), 0, "not proven by a pending merkle block", spv.ErrMisbehaving, spendHeight},
		{"merkle block withheld", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				return nil
			}
			return spvtest.Keep(m)
		}), 0, "no merkle block was pending", spv.ErrMisbehaving, spendHeight},
		{"last merkle block withheld", withholdLast(sc.BlockHash(t, sc.Tip)), 0, "answered with", spv.ErrMisbehaving, sc.Tip},
		{"malformed merkle block", spvtest.On(func(m *wire.MsgMerkleBlock) []wire.Message {
			if m.Header.BlockHash() == spent {
				return []wire.Message{spvtest.BadChecksum(m, sc.Network)}
			}
			return spvtest.Keep(m)
		}), 0, "malformed message", spv.ErrMisbehaving, spendHeight},
		{"stall", spvtest.Stall(wire.CmdMerkleBlock, wire.CmdTx), time.Second, "sent nothing it owed", spv.ErrStalled, 0},
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
		return spvtest.Keep(msg)
	}
}
