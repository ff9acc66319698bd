package main

import (
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// TestBTCScanEveryNetwork scans block 0 of every network package spv
// knows, in both modes, from a peer that serves that network's genesis
// block: the command takes the network's name and address, speaks its
// P2P magic, verifies its genesis header and its filter (bip157) or merkle
// block (bip37), and exits 0. No node can be run for the public networks
// in a test (btcd answers no getheaders while its tip is a day old, and
// their proof of work cannot be mined), so the peer is this file's.
func TestBTCScanEveryNetwork(t *testing.T) {
	for _, n := range spv.Networks() {
		names := []string{n.Name()}
		if n == spv.Testnet3 {
			names = append(names, "testnet") // Bitcoin Core's name for it
		}
		peer := startGenesisPeer(t, n)
		a, err := address.NewAddressWitnessPubKeyHash(make([]byte, 20), n.Params)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			for _, mode := range []string{"bip157", "bip37"} {
				t.Run(name+"/"+mode, func(t *testing.T) {
					// No --store, and run passes no environment: the
					// headers stay in memory.
					code, stdout, stderr := runCLI(t, "btc", "scan", "--peer", peer, "--network", name, "--mode", mode,
						"--address", a.EncodeAddress())
					if code != exitOK || stdout != "" {
						t.Fatalf("exit %d, stdout %q\n%s", code, stdout, stderr)
					}
					if want := "btc scan: " + mode + " on " + n.Name() + " via " + peer + ": blocks 0 to 0, 1 scanned"; !strings.Contains(stderr, want) {
						t.Errorf("summary lacks %q:\n%s", want, stderr)
					}
					if !strings.Contains(stderr, "headers and the wallet are kept in memory for this run") {
						t.Errorf("stderr does not say the store is in memory:\n%s", stderr)
					}
					want := map[string]string{"bip157": "1 filters checked", "bip37": "1 merkle blocks verified"}[mode]
					if !strings.Contains(stderr, want) {
						t.Errorf("summary lacks %q:\n%s", want, stderr)
					}
				})
			}
		}
	}
	// The network decides the magic: a testnet4 scan of a mainnet peer
	// fails at the handshake, not later.
	mainnet := startGenesisPeer(t, spv.Mainnet)
	a, _ := address.NewAddressWitnessPubKeyHash(make([]byte, 20), spv.Testnet4.Params)
	code, _, stderr := runCLI(t, "btc", "scan", "--peer", mainnet, "--network", "testnet4", "--mode", "bip157", "--address", a.EncodeAddress(), "--store", t.TempDir())
	if code != exitFailure || !strings.Contains(stderr, "chainsieve btc scan: ") || !strings.Contains(stderr, "spv:") {
		t.Errorf("testnet4 scan of a mainnet peer: exit %d\n%s", code, stderr)
	}
}

// startGenesisPeer serves n's genesis block on 127.0.0.1 as a peer whose
// chain holds nothing else: headers, BIP157 filter headers and filters,
// and BIP37 merkle blocks. It speaks the protocol by hand, as
// gcs/spv's tests do: btcd's peer package refuses an inbound peer whose
// version nonce this process sent.
func startGenesisPeer(t *testing.T, n *spv.Network) string {
	t.Helper()
	genesis := n.Params.GenesisBlock
	hash := genesis.BlockHash()
	filter, err := gcs.BuildBasic(genesis, nil) // the coinbase spends nothing
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	serve := func(conn net.Conn) {
		defer conn.Close()
		write := func(m wire.Message) error {
			_, err := wire.WriteMessageWithEncodingN(conn, m, wire.ProtocolVersion, n.Params.Net, wire.WitnessEncoding)
			return err
		}
		me := &wire.NetAddress{IP: net.IPv4(127, 0, 0, 1), Services: wire.SFNodeNetwork}
		ver := wire.NewMsgVersion(me, me, 1, 0)
		ver.Services = wire.SFNodeNetwork | wire.SFNodeWitness | wire.SFNodeCF | wire.SFNodeBloom
		var bloom *bip37.Filter
		for {
			_, msg, _, err := wire.ReadMessageWithEncodingN(conn, wire.ProtocolVersion, n.Params.Net, wire.WitnessEncoding)
			if err != nil {
				return
			}
			switch m := msg.(type) {
			case *wire.MsgVersion:
				err = errors.Join(write(ver), write(wire.NewMsgVerAck()))
			case *wire.MsgPing:
				err = write(wire.NewMsgPong(m.Nonce))
			case *wire.MsgGetHeaders:
				err = write(wire.NewMsgHeaders()) // the tip is genesis: nothing after the locator
			case *wire.MsgGetCFHeaders:
				h := filter.Hash()
				err = write(&wire.MsgCFHeaders{FilterType: wire.GCSFilterRegular, StopHash: hash, FilterHashes: []*chainhash.Hash{&h}})
			case *wire.MsgGetCFilters:
				err = write(wire.NewMsgCFilter(wire.GCSFilterRegular, &hash, filter.Bytes()))
			case *wire.MsgFilterLoad:
				bloom, err = bip37.Apply(nil, m)
			case *wire.MsgGetData:
				nf := wire.NewMsgNotFound()
				for _, iv := range m.InvList {
					if iv.Type == wire.InvTypeFilteredBlock && iv.Hash == hash && bloom != nil {
						// The merkle block, then each transaction it
						// proves, as a node sends them: the tiny wallet
						// filter matches the coinbase now and then.
						mb, matches := bip37.NewMerkleBlock(genesis, bloom)
						err = errors.Join(err, write(mb))
						for _, match := range matches {
							err = errors.Join(err, write(genesis.Transactions[match.Index]))
						}
					} else {
						nf.AddInvVect(iv)
					}
				}
				if len(nf.InvList) > 0 {
					err = errors.Join(err, write(nf))
				}
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); serve(conn) }()
		}
	}()
	return ln.Addr().String()
}
