package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"gopkg.in/yaml.v3"
)

// anchorFlags are eth scan's flags for the range and the anchor: which
// block the header chain is verified from, and who vouches for it.
type anchorFlags struct {
	from, to, anchor *scan.Block
	confirm          []string
	confirmSet       bool // --confirm-rpc given: ETH_CONFIRM_RPC is not used
	confirmMin       int
	beaconAPI        string
	checkpoint       string
	beaconChain      string
	beaconConfig     string
	proveTx          bool

	chain *params.ChainConfig // from --beacon-chain or --beacon-config
	lie   beacontest.Lie      // --beacon-api demo:LIE
}

// beaconDemo is the --beacon-api value that serves a synthetic beacon
// chain over the demo chain, in process.
const beaconDemo = "demo"

func (a *anchorFlags) register(fs *flag.FlagSet, e *env) {
	block := func(dst **scan.Block, name string, hashes bool) func(string) error {
		return func(s string) error {
			b, err := scan.ParseBlock(s)
			if err != nil {
				return errors.New(strings.TrimPrefix(err.Error(), "scan: "))
			}
			if b.Hash != (common.Hash{}) && !hashes {
				return fmt.Errorf("--%s takes a number or a tag, not a hash", name)
			}
			*dst = b
			return nil
		}
	}
	fs.Func("from", "first block: a number, earliest, latest, safe, finalized or TAG-N such as latest-100 (required with --rpc; default 0 on the demo chain)", block(&a.from, "from", false))
	fs.Func("to", "last block, as --from (default latest; blocks after the anchor are linked to it and unfinalized)", block(&a.to, "to", false))
	fs.Func("anchor", "the block the header chain is verified from: HASH or NUMBER:HASH (yours), or a number or tag as --from (the node's) (default: the node's finalized block, else its tip)", block(&a.anchor, "anchor", true))
	if env := e.getenv("ETH_CONFIRM_RPC"); env != "" {
		for _, u := range strings.Split(env, ",") {
			a.confirm = append(a.confirm, strings.TrimSpace(u))
		}
	}
	fs.Func("confirm-rpc", "another JSON-RPC endpoint that must report the same anchor block (repeatable; default $ETH_CONFIRM_RPC, comma-separated)", func(s string) error {
		if !a.confirmSet {
			a.confirm, a.confirmSet = nil, true
		}
		a.confirm = append(a.confirm, s)
		return nil
	})
	fs.IntVar(&a.confirmMin, "confirm-min", 0, "how many --confirm-rpc endpoints must answer and agree (default: all)")
	fs.StringVar(&a.beaconAPI, "beacon-api", "", "beacon node REST API: anchor at the execution block it proves finalized with the light-client protocol; demo (or demo:LIE): a synthetic beacon chain over the demo chain")
	fs.StringVar(&a.checkpoint, "checkpoint", "", "trusted finalized beacon block root to start the light client from (default: the one remembered in the index directory)")
	fs.StringVar(&a.beaconChain, "beacon-chain", "", "mainnet, sepolia or hoodi (default: by the node's chain id)")
	fs.StringVar(&a.beaconConfig, "beacon-config", "", "a private network's consensus config.yaml with GENESIS_TIME and GENESIS_VALIDATORS_ROOT added")
	fs.BoolVar(&a.proveTx, "prove-tx", true, "fetch the transactions of blocks with matching logs and prove transactionHash against transactionsRoot (false: pass it on unproven)")
}

// check refuses inconsistent flags, before any network work. rpc is the
// execution endpoint, "" for the demo chain.
func (a *anchorFlags) check(rpc string) error {
	for _, u := range a.confirm {
		if err := scan.CheckEndpoint(u); err != nil {
			return fmt.Errorf("--confirm-rpc %v", err)
		}
	}
	switch {
	case a.from != nil && a.to != nil && a.from.Tag == "" && a.to.Tag == "" && a.from.Number > a.to.Number:
		return fmt.Errorf("--from %d is after --to %d", a.from.Number, a.to.Number)
	case a.confirmMin < 0 || a.confirmMin > len(a.confirm):
		return fmt.Errorf("--confirm-min %d: there are %d --confirm-rpc endpoints", a.confirmMin, len(a.confirm))
	case a.beaconAPI == "" && (a.checkpoint != "" || a.beaconChain != "" || a.beaconConfig != ""):
		return errors.New("--checkpoint, --beacon-chain and --beacon-config need --beacon-api")
	case a.beaconAPI != "" && a.anchor != nil:
		return errors.New("--anchor and --beacon-api exclude each other: the beacon chain chooses the anchor")
	case a.beaconChain != "" && a.beaconConfig != "":
		return errors.New("--beacon-chain and --beacon-config exclude each other")
	}
	if a.beaconAPI == "" {
		return nil
	}
	if name, ok := strings.CutPrefix(a.beaconAPI, beaconDemo); ok && (name == "" || name[0] == ':') {
		return a.checkDemo(rpc, strings.TrimPrefix(name, ":"))
	}
	if err := httpURL(a.beaconAPI); err != nil {
		return fmt.Errorf("--beacon-api %v", err)
	}
	if a.checkpoint != "" {
		if _, err := hexHash(a.checkpoint); err != nil {
			return fmt.Errorf("--checkpoint: %v", err)
		}
	}
	switch a.beaconChain {
	case "":
	case "mainnet":
		a.chain = beacon.Mainnet()
	case "sepolia":
		a.chain = beacon.Sepolia()
	case "hoodi":
		a.chain = beacon.Hoodi()
	default:
		return fmt.Errorf("--beacon-chain %q: mainnet, sepolia or hoodi (others: --beacon-config)", a.beaconChain)
	}
	if a.beaconConfig != "" {
		var err error
		if a.chain, err = readBeaconConfig(a.beaconConfig); err != nil {
			return fmt.Errorf("--beacon-config %s: %v", a.beaconConfig, err)
		}
	}
	return nil
}

// checkDemo checks --beacon-api demo[:LIE].
func (a *anchorFlags) checkDemo(rpc, lie string) error {
	switch {
	case rpc != "":
		return errors.New("--beacon-api demo serves the demo chain only: drop --rpc (and ETH_RPC_URL)")
	case a.checkpoint != "" || a.beaconChain != "" || a.beaconConfig != "":
		return errors.New("--beacon-api demo brings its own checkpoint and chain: drop --checkpoint, --beacon-chain and --beacon-config")
	case lie == "":
		return nil
	}
	var names []string
	for _, l := range beacontest.Lies() {
		if l.String() == lie {
			a.lie = l
			return nil
		}
		names = append(names, l.String())
	}
	return fmt.Errorf("--beacon-api demo:%s: no such lie (%s)", lie, strings.Join(names, ", "))
}

func httpURL(s string) error {
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", s)
	}
	return nil
}

// readBeaconConfig reads a consensus config.yaml with the two values that
// live in the genesis state added: GENESIS_TIME and
// GENESIS_VALIDATORS_ROOT.
func readBeaconConfig(path string) (*params.ChainConfig, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return nil, err
	}
	if len(data) > 1<<20 {
		return nil, errors.New("larger than 1 MiB: not a config.yaml")
	}
	var genesis struct {
		Time *uint64 `yaml:"GENESIS_TIME"`
		Root string  `yaml:"GENESIS_VALIDATORS_ROOT"`
	}
	if err := yaml.Unmarshal(data, &genesis); err != nil {
		return nil, err
	}
	root, err := hexHash(genesis.Root)
	if genesis.Time == nil || err != nil {
		return nil, errors.New("GENESIS_TIME (Unix seconds) and GENESIS_VALIDATORS_ROOT (0x, 32 bytes) are required: take them from the network's genesis state or a beacon node you trust (/eth/v1/beacon/genesis)")
	}
	return beacon.ParseConfig(data, *genesis.Time, root)
}

// apply sets the range and the anchor of cfg.
func (a *anchorFlags) apply(cfg *scan.Config, timeout time.Duration, retries int) {
	cfg.FromBlock, cfg.ToBlock, cfg.Anchor.Block = a.from, a.to, a.anchor
	cfg.TrustTxHashes = !a.proveTx
	for _, u := range a.confirm {
		c := scan.NewClient(u)
		c.Timeout, c.Retry.Attempts = timeout, retries
		cfg.Anchor.Confirm = append(cfg.Anchor.Confirm, c)
	}
	cfg.Anchor.ConfirmMin = a.confirmMin
	if a.beaconAPI != "" && !a.isDemo() {
		cfg.Anchor.Beacon = &beacon.Config{URL: a.beaconAPI, Chain: a.chain, Timeout: timeout}
		if a.checkpoint != "" {
			cfg.Anchor.Beacon.Checkpoint = common.HexToHash(a.checkpoint)
		}
	}
}

func (a *anchorFlags) isDemo() bool {
	return a.beaconAPI == beaconDemo || strings.HasPrefix(a.beaconAPI, beaconDemo+":")
}

// startDemoBeacon serves a synthetic beacon chain whose finalized block
// carries the demo chain's finalized block, with real BLS sync
// committees, telling the lie asked for, and anchors cfg on it.
func (a *anchorFlags) startDemoBeacon(ctx context.Context, e *env, chain *demo.Chain, cfg *scan.Config) (func(), error) {
	el, err := ethclient.DialContext(ctx, chain.URL)
	if err != nil {
		return nil, err
	}
	defer el.Close()
	fin, err := el.HeaderByNumber(ctx, new(big.Int).SetUint64(chain.Finalized))
	if err != nil {
		return nil, err
	}
	head, err := el.HeaderByNumber(ctx, new(big.Int).SetUint64(chain.Head))
	if err != nil {
		return nil, err
	}
	// Two sync committee periods, so that the light client verifies a
	// committee handover, with a fork at the finality update's signature,
	// so that it signs in the fork the spec says.
	bc, err := beacontest.NewChain(beacontest.Options{Finalized: fin, Head: head, Periods: 2, ForkBoundary: true})
	if err != nil {
		return nil, err
	}
	srv, err := bc.Serve(a.lie, 0)
	if err != nil {
		return nil, err
	}
	cfg.Anchor.Beacon = &beacon.Config{URL: srv.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()}
	how := "honest"
	if a.lie != beacontest.Honest {
		how = "lying: " + a.lie.String()
	}
	fmt.Fprintf(e.stderr, "--beacon-api demo: a synthetic beacon chain (%s) whose sync committees (512 BLS keys each) finalized the demo's block %d, served at %s\n", how, chain.Finalized, srv.URL)
	return func() { srv.Close() }, nil
}

// printAnchor says which block the scan is anchored on, why, and what
// that means for trust; then the confirmations and the blocks after it.
func printAnchor(w io.Writer, cfg scan.Config, st scan.Stats) {
	pinned := ""
	if st.Resumed {
		pinned = "the stopped run's, pinned by hash; there: "
	}
	fmt.Fprintf(w, "anchor: block %d %s, %s%s\n", st.AnchorNumber, st.AnchorHash.Hex(), pinned, anchorSource(cfg, st))
	if len(st.Confirmations) > 0 {
		agree := 0
		for _, c := range st.Confirmations {
			if c.Err == nil {
				agree++
				fmt.Fprintf(w, "  confirmed by %s: the same block %d\n", c.Endpoint, st.AnchorNumber)
			} else {
				fmt.Fprintf(w, "  not confirmed by %s: %v\n", c.Endpoint, c.Err)
			}
		}
		need := cfg.Anchor.ConfirmMin
		if need == 0 {
			need = len(st.Confirmations)
		}
		fmt.Fprintf(w, "  %d of %d --confirm-rpc endpoints agree (%d required)\n", agree, len(st.Confirmations), need)
	}
	if st.Unfinalized > 0 {
		fmt.Fprintf(w, "blocks %d to %d are after the anchor: linked forward to it by parent hashes, %s\n", st.AnchorNumber+1, st.To, afterAnchor(st))
	}
}

// afterAnchor says what the blocks after the anchor are: unfinalized
// where the anchor is the finalized block, else merely not covered by it.
func afterAnchor(st scan.Stats) string {
	if st.AnchorSource == scan.NodeFinalized || st.AnchorSource == scan.BeaconChain {
		return "unfinalized: the node's chain now, which a reorganisation can still replace"
	}
	return "not covered by the anchor: the node's chain now"
}

func anchorSource(cfg scan.Config, st scan.Stats) string {
	const independently = "trusted as far as the node is; --confirm-rpc URL or --beacon-api URL checks it independently"
	switch st.AnchorSource {
	case scan.NodeTip:
		return fmt.Sprintf("the tip the node reports (%s); %s, --anchor HASH pins a block you trust", st.AnchorNote, independently)
	case scan.NodeFinalized:
		return "the node's finalized block (no --anchor): " + independently
	case scan.NodeBlock:
		return fmt.Sprintf("the node's block for --anchor %s: %s", cfg.Anchor.Block, independently)
	case scan.GivenHash:
		return "the hash you gave (--anchor)"
	}
	f := st.Beacon
	if f == nil {
		return "from the beacon chain"
	}
	return fmt.Sprintf("finalized by the beacon chain at slot %d (block root %s, %s, %s ago): signed by %d of 512 sync committee members, from checkpoint %s (slot %d) through %d sync committee update(s); the node's header hashes to it and matches every proven payload field",
		f.Slot, f.Root.Hex(), f.Fork, time.Since(f.Time).Round(time.Second), f.Signers, f.Checkpoint.Hex(), f.CheckpointSlot, f.Updates)
}

// printAnchorSummary ends the summary with what is not covered by the
// anchor and how transaction hashes were proven.
func printAnchorSummary(w io.Writer, cfg scan.Config, st scan.Stats) {
	if st.Unfinalized > 0 {
		fmt.Fprintf(w, "after the anchor: blocks %d to %d, %d of the logs printed; %s\n", st.AnchorNumber+1, st.To, st.UnfinalizedLogs, afterAnchor(st))
	}
	switch {
	case cfg.Mode == scan.None:
	case cfg.TrustTxHashes:
		fmt.Fprintf(w, "transactionHash: as the node's receipts give it, NOT proven (--prove-tx=false)\n")
	case st.Matched > 0:
		fmt.Fprintf(w, "transactions: %d blocks' transactions fetched (%s) and proven against transactionsRoot: every transactionHash printed is proven\n", st.TxProven, size(st.TxBytes))
	}
}
