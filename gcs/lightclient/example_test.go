package lightclient_test

import (
	"context"
	"fmt"
	"log"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// A descriptor wallet (BIP389 receiving and change paths over an xpub,
// from Bitcoin Core's descriptor tests) kept in sync with mainnet from
// DNS-seeded peers, across restarts (the store) and reorganisations. It
// needs the network, so it is compiled, not run.
func Example() {
	ctx := context.Background()
	desc, err := descriptor.Parse("wpkh(xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB/<0;1>/*)#34gyh0p0", &chaincfg.MainNetParams)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := store.DefaultDir("mainnet")
	if err != nil {
		log.Fatal(err)
	}
	c, err := lightclient.New(lightclient.Config{Network: spv.Mainnet, Store: dir, Birthday: 850000,
		Descriptors: []*descriptor.Descriptor{desc}, Follow: true, Confirmations: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	for ev := range c.Events() {
		switch ev.Kind {
		case lightclient.Connected:
			for _, tx := range ev.Txs {
				fmt.Println("found", tx.ID, "in block", ev.Height)
			}
		case lightclient.Disconnected:
			for _, tx := range ev.Txs {
				fmt.Println("removed", tx.ID, "with block", ev.Height)
			}
		case lightclient.Synced:
			fmt.Println("at", ev.Height, "balance", c.Balance(6).Confirmed)
		}
	}
	log.Fatal(c.Err()) // the stream closed: why
}
