package spvtest

import (
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Account is a BIP84 account (m/84'/1'/0') of a fixed seed: the
// watch-only descriptor wpkh([00000000/84h/1h/0h]tpub…/<0;1>/*) a wallet
// under test watches (receiving chain 0, change chain 1), and the keys a
// test spends its coins with.
type Account struct {
	key  *hdkeychain.ExtendedKey
	Desc *descriptor.Descriptor
}

// NewAccount returns the account on network net.
func NewAccount(t testing.TB, net *chaincfg.Params) Account {
	t.Helper()
	master, err := hdkeychain.NewMaster(make([]byte, 32), net)
	if err != nil {
		t.Fatal(err)
	}
	k := master
	for _, step := range []uint32{84, 1, 0} {
		if k, err = k.Derive(step + hdkeychain.HardenedKeyStart); err != nil {
			t.Fatal(err)
		}
	}
	pub, err := k.Neuter()
	if err != nil {
		t.Fatal(err)
	}
	d, err := descriptor.Parse("wpkh([00000000/84h/1h/0h]"+pub.String()+"/<0;1>/*)", net)
	if err != nil {
		t.Fatal(err)
	}
	return Account{key: k, Desc: d}
}

// Child returns the key and the output script of index i of chain.
func (a Account) Child(t testing.TB, chain, i uint32) (*btcec.PrivateKey, []byte) {
	t.Helper()
	k, err := a.key.Derive(chain)
	if err == nil {
		k, err = k.Derive(i)
	}
	if err != nil {
		t.Fatal(err)
	}
	priv, err := k.ECPrivKey()
	if err != nil {
		t.Fatal(err)
	}
	script, err := a.Desc.Expand()[chain].Script(i)
	if err != nil {
		t.Fatal(err)
	}
	return priv, script
}

// Spend returns a signed transaction that spends coin, worth value and
// paid to index i of chain, to the payments.
func (a Account) Spend(t testing.TB, coin wire.OutPoint, value int64, chain, i uint32, to ...livenode.Payment) *wire.MsgTx {
	t.Helper()
	priv, script := a.Child(t, chain, i)
	msg := wire.NewMsgTx(2)
	msg.AddTxIn(wire.NewTxIn(&coin, nil, nil))
	for _, p := range to {
		msg.AddTxOut(wire.NewTxOut(p.Value, p.Script))
	}
	fetcher := txscript.NewCannedPrevOutputFetcher(script, value)
	wit, err := txscript.WitnessSignature(msg, txscript.NewTxSigHashes(msg, fetcher), 0, value, script, txscript.SigHashAll, priv, true)
	if err != nil {
		t.Fatal(err)
	}
	msg.TxIn[0].Witness = wit
	return msg
}
