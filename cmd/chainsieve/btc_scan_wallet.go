package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// btcUTXOJSON is a "utxo" record of btc scan --json: a wallet coin no
// transaction in a block spends, at the end of the run.
type btcUTXOJSON struct {
	Type    string `json:"type"` // "utxo"
	TxID    string `json:"txid"`
	Index   uint32 `json:"index"`
	Value   int64  `json:"value"` // satoshis
	Address string `json:"address"`
	// Height is the block of the transaction that made it, -1 if that
	// transaction is in no block (a reorganisation took it out).
	Height int32 `json:"height"`
	// Confirmations counts the blocks from its own to the ledger's tip, as
	// Bitcoin Core counts them; 0 when unconfirmed.
	Confirmations int32 `json:"confirmations"`
	Coinbase      bool  `json:"coinbase"`
	// SpentBy is the unconfirmed wallet transaction that spends it, if any.
	SpentBy string `json:"spentBy,omitempty"`
}

// btcBalanceJSON is the "balance" record that ends btc scan --json: the
// sums of the "utxo" records before it, in satoshis.
type btcBalanceJSON struct {
	Type   string `json:"type"`   // "balance"
	Height int32  `json:"height"` // the ledger's tip: the last block scanned
	// MinConf is --confirmations: coins this deep count as confirmed.
	MinConf int32 `json:"minConf"`
	// Confirmed: mature coins at least MinConf deep (spends not in a block
	// yet are not deducted: see Outgoing).
	Confirmed int64 `json:"confirmed"`
	Shallow   int64 `json:"shallow"`  // confirmed fewer than MinConf deep
	Immature  int64 `json:"immature"` // coinbase outputs under 100 confirmations
	Incoming  int64 `json:"incoming"` // outputs of transactions in no block
	Outgoing  int64 `json:"outgoing"` // confirmed coins that transactions in no block spend
	UTXOs     int   `json:"utxos"`    // the utxo records
}

// btcWallet is the wallet's state at the end of a run.
type btcWallet struct {
	utxos   []btcUTXOJSON
	balance btcBalanceJSON
}

// walletSummary reads the client's ledger: its coins, oldest first, and
// its balance counting --confirmations.
func walletSummary(c *lightclient.Client, f *btcScanFlags) btcWallet {
	tip := c.LedgerTip()
	addrs := make(map[string]string)
	for _, d := range c.Watched() {
		addrs[string(d.Script)] = d.Address.EncodeAddress()
	}
	var w btcWallet
	for _, coin := range c.Unspent() {
		u := btcUTXOJSON{Type: "utxo", TxID: coin.OutPoint.Hash.String(), Index: coin.OutPoint.Index, Value: coin.Value,
			Address: addrs[string(coin.Script)], Height: coin.Height, Coinbase: coin.Coinbase}
		if u.Address == "" { // a script the watch list no longer names: say what it pays
			u.Address = scriptAddress(coin.Script, f)
		}
		if coin.Height != wallet.Unconfirmed {
			u.Confirmations = tip - coin.Height + 1
		}
		if coin.Spent() {
			u.SpentBy = coin.SpentBy.String()
		}
		w.utxos = append(w.utxos, u)
	}
	slices.SortStableFunc(w.utxos, func(a, b btcUTXOJSON) int {
		return cmp.Or(cmp.Compare(uint32(a.Height), uint32(b.Height)), strings.Compare(a.TxID, b.TxID), cmp.Compare(a.Index, b.Index))
	})
	bal := c.Balance(f.confirmations)
	w.balance = btcBalanceJSON{Type: "balance", Height: tip, MinConf: f.confirmations, Confirmed: bal.Confirmed,
		Shallow: bal.Shallow, Immature: bal.Immature, Incoming: bal.Incoming, Outgoing: bal.Outgoing, UTXOs: len(w.utxos)}
	return w
}

// scriptAddress is the address of an output script, or its hex.
func scriptAddress(script []byte, f *btcScanFlags) string {
	_, addrs, _, err := txscript.ExtractPkScriptAddrs(script, f.net.Params)
	if err != nil || len(addrs) != 1 {
		return fmt.Sprintf("script %x", script)
	}
	return addrs[0].EncodeAddress()
}

// writeRecords prints the wallet as --json records: each coin, then the
// balance.
func (w btcWallet) writeRecords(out io.Writer) error {
	for _, u := range w.utxos {
		if err := writeJSONLine(out, u); err != nil {
			return err
		}
	}
	return writeJSONLine(out, w.balance)
}

// writeText prints the wallet for a person: the balance, then each coin.
func (w btcWallet) writeText(out io.Writer) {
	b := w.balance
	plural := "s"
	if b.MinConf == 1 {
		plural = ""
	}
	fmt.Fprintf(out, "  wallet at block %d: %d coins; confirmed %s (%d confirmation%s or more)", b.Height, b.UTXOs, btc(b.Confirmed), b.MinConf, plural)
	for _, part := range []struct {
		name string
		sat  int64
	}{{"shallow", b.Shallow}, {"immature", b.Immature}, {"incoming", b.Incoming}, {"outgoing", b.Outgoing}} {
		if part.sat != 0 {
			fmt.Fprintf(out, ", %s %s", part.name, btc(part.sat))
		}
	}
	fmt.Fprintln(out)
	for _, u := range w.utxos {
		where := fmt.Sprintf("block %d, %d confirmations", u.Height, u.Confirmations)
		if u.Height == wallet.Unconfirmed {
			where = "in no block"
		}
		if u.SpentBy != "" {
			where += ", spent by " + u.SpentBy
		}
		if u.Coinbase {
			where += ", coinbase"
		}
		fmt.Fprintf(out, "    %s:%d %s %s (%s)\n", u.TxID, u.Index, btc(u.Value), u.Address, where)
	}
}

// summary prints what the run found and cost on stderr, and if it is
// complete the wallet with it, and with --json the wallet's records on
// stdout; it returns an error only if stdout failed.
func (o *btcScanOutput) summary(total time.Duration, complete bool) error {
	f, st, w := o.f, o.c.Stats(), o.e.stderr
	var used []string
	for _, p := range o.c.PeersUsed() {
		if !slices.Contains(used, p.Addr) {
			used = append(used, p.Addr)
		}
	}
	via := strings.Join(used, ", ")
	if len(used) > 4 {
		via = fmt.Sprintf("%s and %d more", strings.Join(used[:4], ", "), len(used)-4)
	}
	if len(used) == 0 {
		via = "no peer"
	}
	if o.reported < o.from() {
		fmt.Fprintf(w, "btc scan: %v on %s via %s: no block after %d to report (headers verified to %d)\n",
			f.mode, f.net.Name(), via, o.from()-1, st.Headers)
	} else {
		fmt.Fprintf(w, "btc scan: %v on %s via %s: blocks %d to %d, %d scanned (headers verified to %d)\n",
			f.mode, f.net.Name(), via, o.from(), o.reported, st.Blocks, st.Headers)
	}
	switch f.mode {
	case lightclient.BIP157:
		fmt.Fprintf(w, "  %d filter hashes, %d filters checked; %d blocks fetched, %d false positives\n",
			st.FilterHeaders, st.Filters, st.BlocksFetched, st.FalsePositives)
	case lightclient.BIP37:
		fmt.Fprintf(w, "  %d merkle blocks verified; %d transactions received, %d false positives (%d our copy of the filter does not match); filter %d B, %.0f%% of its bits set at the end\n",
			st.MerkleBlocks, st.TxsReceived, st.FalsePositives, st.Unfiltered, st.FilterSize, 100*st.FilterFill)
		kept := "kept with the wallet in the store"
		if f.storeDir == "" {
			kept = "not kept: no store"
		}
		fmt.Fprintf(w, "  %d filter loads in %d scans, %d refreshes; tweak %d, capacity %d (%s)\n",
			st.FilterLoads, st.Scans, st.Refreshes, st.FilterTweak, st.FilterCapacity, kept)
	}
	tr := st.Traffic
	fmt.Fprintf(w, "  %d wallet transactions", o.txs)
	if o.removed > 0 {
		fmt.Fprintf(w, " (%d removed by reorganisations, printed again)", o.removed)
	}
	fmt.Fprintf(w, "; received %d B, sent %d B in %d round trips; %.3f s\n", tr.BytesReceived, tr.BytesSent, tr.RoundTrips, total.Seconds())
	switch n := len(o.c.Bans()); n {
	case 0:
	case 1:
		fmt.Fprintf(w, "  1 peer banned (above)\n")
	default:
		fmt.Fprintf(w, "  %d peers banned (above)\n", n)
	}
	if !complete {
		fmt.Fprintf(w, "  no wallet summary: the scan did not reach the tip\n")
		return nil
	}
	wl := walletSummary(o.c, f)
	wl.writeText(w)
	if f.asJSON {
		return wl.writeRecords(o.e.stdout)
	}
	return nil
}
