package scan_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// ExampleConfig_resume stops a scan after its first batch of logs (as a
// crash would), keeps its last checkpoint as JSON (a real caller makes the
// logs durable first, then the checkpoint), and resumes from it: the two
// runs emit every log once.
func ExampleConfig_resume() {
	chain, err := demo.Start(demo.DefaultBlocks)
	if err != nil {
		panic(err)
	}
	defer chain.Close()
	index, err := os.MkdirTemp("", "index")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(index)
	client := scan.NewClient(chain.URL)
	defer client.Close() // before the node's: an unused connection holds its shutdown for 5 s

	var written int
	resumed := false
	var saved []byte // where the checkpoint is persisted
	cfg := scan.Config{
		Client:   client,
		Query:    ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}, Topics: [][]common.Hash{{crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))}}},
		IndexDir: index,
		Emit: func(logs []*types.Log) error {
			written += len(logs)
			return nil
		},
		Checkpoint: func(c scan.Checkpoint) error {
			if saved, err = json.Marshal(c); err != nil {
				return err
			}
			if c.Logs > 0 && !resumed {
				return errors.New("stopped after the first batch")
			}
			return nil
		},
	}
	_, err = scan.Run(context.Background(), cfg)
	fmt.Println("stopped:", err)

	var last scan.Checkpoint
	if err := json.Unmarshal(saved, &last); err != nil {
		panic(err)
	}
	// How far the first batch reaches depends on the batch sizes the
	// client chose; the checkpoint says it.
	fmt.Printf("checkpoint: from block %d, anchor %d, some logs: %t\n", last.From, last.AnchorNumber, last.Logs > 0)
	written = int(last.Logs) // what the checkpoint vouches for
	cfg.Resume, resumed = &last, true
	st, err := scan.Run(context.Background(), cfg)
	if err != nil {
		panic(err)
	}
	fmt.Printf("resumed after the checkpoint: %t; %d logs in all\n", st.From == last.Next, written)
	// Output:
	// stopped: stopped after the first batch
	// checkpoint: from block 0, anchor 268, some logs: true
	// resumed after the checkpoint: true; 70 logs in all
}
