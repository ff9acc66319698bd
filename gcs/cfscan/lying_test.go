package cfscan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestLyingPeer plays, through a proxy in front of btcd, a peer that
// serves wrong filters, filter headers that do not chain, altered blocks,
// withholds what it owes or stalls. Each must end the scan with an error
// that names the block, and nothing from that block may be reported.
func TestLyingPeer(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: []string{"--nobanning"}})
	// The block where the wallet spends its P2PKH coin: coinbase, the
	// spend, and an unrelated payment.
	spendHeight := sc.Want(sc.Received+1, sc.Tip)[0].Height
	received, spent, tip := sc.BlockHash(t, sc.Received), sc.BlockHash(t, spendHeight), sc.BlockHash(t, sc.Tip)
	// A filter of the spend block holding the wallet's scripts only, so
	// it still matches but lacks the block's other outputs.
	var scripts [][]byte
	for _, a := range sc.Addresses() {
		scripts = append(scripts, a.Script)
	}
	short, err := gcs.Build(gcs.Params{P: gcs.BasicP, M: gcs.BasicM}, gcs.BasicKey(spent), scripts)
	if err != nil {
		t.Fatal(err)
	}
	tipCheckpoint := checkpoint(t, sc, sc.Tip)
	// consistentLie rewrites the spend block's filter hash in cfheaders
	// and its cfilter alike, so the peer's story hangs together.
	consistentLie := func(msg wire.Message) []wire.Message {
		switch m := msg.(type) {
		case *wire.MsgCFHeaders:
			h := gcs.FilterHash(short.Bytes())
			m.FilterHashes[spendHeight] = &h
		case *wire.MsgCFilter:
			if m.BlockHash == spent {
				m.Data = short.Bytes()
			}
		}
		return spvtest.Keep(msg)
	}

	tests := []struct {
		name    string
		edit    spvtest.Edit
		cp      *gcs.Checkpoint
		timeout time.Duration
		want    string
		is      error
	}{
		{"wrong filter", spvtest.On(func(m *wire.MsgCFilter) []wire.Message {
			if m.BlockHash == received {
				m.Data = append([]byte(nil), m.Data...)
				m.Data[len(m.Data)-1] ^= 1
			}
			return spvtest.Keep(m)
		}), nil, 0, "but the filter-header chain has", spv.ErrMisbehaving},
		{"filter header chain not from genesis", spvtest.On(func(m *wire.MsgCFHeaders) []wire.Message {
			m.PrevFilterHeader[0] ^= 1
			return spvtest.Keep(m)
		}), nil, 0, "cfheaders starts after filter header", spv.ErrMisbehaving},
		{"filter hash that does not chain to the checkpoint", spvtest.On(func(m *wire.MsgCFHeaders) []wire.Message {
			m.FilterHashes[sc.Tip-5][0] ^= 1
			return spvtest.Keep(m)
		}), tipCheckpoint, 0, "but the checkpoint has", spv.ErrMisbehaving},
		{"filter hash altered, no checkpoint", spvtest.On(func(m *wire.MsgCFHeaders) []wire.Message {
			m.FilterHashes[sc.Received][0] ^= 1
			return spvtest.Keep(m)
		}), nil, 0, "but the filter-header chain has", spv.ErrMisbehaving},
		{"consistent lie: filter lacking outputs", consistentLie, nil, 0, "its filter lacks the output script", spv.ErrMisbehaving},
		{"consistent lie against a checkpoint", consistentLie, tipCheckpoint, 0, "but the checkpoint has", spv.ErrMisbehaving},
		{"filter withheld", spvtest.On(func(m *wire.MsgCFilter) []wire.Message {
			if m.BlockHash == received {
				return nil
			}
			return spvtest.Keep(m)
		}), nil, 0, "arrived in its place", spv.ErrMisbehaving},
		{"last filter withheld", spvtest.On(func(m *wire.MsgCFilter) []wire.Message {
			if m.BlockHash == tip {
				return nil
			}
			return spvtest.Keep(m)
		}), nil, 0, "answered with", spv.ErrMisbehaving},
		{"block with a transaction withheld", spvtest.On(func(m *wire.MsgBlock) []wire.Message {
			if m.BlockHash() == spent {
				m.Transactions = m.Transactions[:len(m.Transactions)-1]
			}
			return spvtest.Keep(m)
		}), nil, 0, "transactions hash to merkle root", spv.ErrMisbehaving},
		{"block with a transaction repeated", spvtest.On(func(m *wire.MsgBlock) []wire.Message {
			if m.BlockHash() == spent {
				m.Transactions = append(m.Transactions, m.Transactions[len(m.Transactions)-1])
			}
			return spvtest.Keep(m)
		}), nil, 0, "CVE-2012-2459", spv.ErrMisbehaving},
		{"another block", spvtest.On(func(m *wire.MsgBlock) []wire.Message {
			m.Header.Nonce++
			return spvtest.Keep(m)
		}), nil, 0, "arrived for", spv.ErrMisbehaving},
		{"block not found", spvtest.On(func(m *wire.MsgBlock) []wire.Message {
			nf := wire.NewMsgNotFound()
			h := m.BlockHash()
			nf.AddInvVect(wire.NewInvVect(wire.InvTypeBlock, &h))
			return []wire.Message{nf}
		}), nil, 0, "notfound", spv.ErrMisbehaving},
		{"stall", spvtest.Stall(wire.CmdCFilter), nil, time.Second, "sent nothing it owed", spv.ErrStalled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := spvtest.NewProxy(t, sc.Node.P2PAddr, sc.Network, tt.edit)
			found, _, err := scan(t, sc, p.Addr, tt.timeout, Config{To: -1, Checkpoint: tt.cp})
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run() = %v, want an error wrapping %v containing %q", err, tt.is, tt.want)
			}
			for _, tx := range found {
				if strings.Contains(err.Error(), tx.Block.String()) {
					t.Errorf("Run() reported %s from block %d, which failed", tx.ID, tx.Height)
				}
			}
			t.Log(err)
		})
	}
}
