package lightclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// Mode is how the client filters blocks.
type Mode int

// The filtering modes.
const (
	// BIP157 downloads compact filters (BIP157/158) and only the blocks
	// whose filter matches; filter headers are compared across peers.
	BIP157 Mode = iota
	// BIP37 loads a Bloom filter into one peer at a time and verifies the
	// merkle blocks it sends. The peer learns the wallet's addresses up to
	// the filter's false-positive rate, and can hide transactions.
	BIP37
)

func (m Mode) String() string {
	switch m {
	case BIP157:
		return "bip157"
	case BIP37:
		return "bip37"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Defaults for the zero values of [Config].
const (
	DefaultTargetPeers = 4
	DefaultQuorum      = 2
	DefaultEvents      = 64
	DefaultBanDuration = 24 * time.Hour
)

// Config configures a [Client]. Network and a wallet (descriptors or
// addresses, here or added later) are required; the rest has defaults.
type Config struct {
	Network *spv.Network
	Mode    Mode

	// Peers are the host:port addresses to connect to. With none, the
	// client asks the network's DNS seeds (mainnet, testnet3, testnet4,
	// signet; regtest has none), for peers that serve compact filters in
	// BIP157 mode.
	Peers []string

	// TargetPeers is how many outbound peers the client keeps; zero means
	// DefaultTargetPeers, or as many as Peers lists if fewer.
	TargetPeers int

	// Quorum is how many peers must serve the same filter headers before
	// the client stores them (BIP157). Zero means DefaultQuorum, or 1 when
	// exactly one peer is given: that peer is then trusted for the filter
	// headers, as a one-peer scan does.
	Quorum int

	// Store is the directory of the header store (package
	// gcs/spv/store), where the client also keeps the wallet's state and
	// the peers it learnt (see the package doc): a restart downloads only
	// new headers and filter headers and scans only the blocks after
	// those the wallet's state holds. Empty keeps everything in memory
	// for one run.
	Store string

	// Wallet names the wallet's state in the store (letters, digits, '-'
	// and '_', up to 64). Empty derives the name from what Config's
	// wallet watches (descriptors, addresses, coins, birthday, gap), so
	// that another wallet on the same store gets its own state. Under a
	// name it gives, a wallet may grow between runs: descriptors,
	// addresses and coins the kept state lacks are added and scanned for
	// from the birthday; those it holds and Config lacks stay watched.
	Wallet string

	// Anchor is where a new store's header chain starts; nil picks the
	// network's highest published anchor at or below Birthday.
	Anchor *spv.Anchor

	// Birthday is the first height the wallet may have transactions at:
	// the first run scans from there, a restart from where the kept
	// state ends. A kept state of another birthday or gap limit is an
	// error.
	Birthday int32

	// To ends a run without Follow at that height; zero means the tip.
	// A kept state that has scanned past it is an error: its ledger
	// cannot go back.
	To int32

	// Checkpoint is a filter header the wallet trusts (BIP157), checked
	// besides the network's published ones.
	Checkpoint *gcs.Checkpoint

	// The wallet at start: descriptors (each path a chain with a gap
	// limit) and single addresses. Coins are outpoints received before
	// Birthday, so that their spends are found.
	Descriptors []*descriptor.Descriptor
	Addresses   []address.Address
	Coins       []wire.OutPoint
	// Gap is the gap limit of ranged descriptors; zero means
	// wallet.DefaultGap.
	Gap uint32

	// Follow keeps the client at the tip once it has scanned to it:
	// new blocks are verified and reported as they come, and
	// reorganisations are reported.
	Follow bool

	// Confirmations delays reports by that many blocks: a block is
	// reported once N blocks are on top of it (N+1 confirmations as
	// Bitcoin Core counts them; 0 reports at once), so a reorganisation
	// that replaces N blocks or fewer is never seen. The wallet's ledger
	// follows the tip regardless ([Client.Balance] takes its own depth).
	Confirmations int32

	// FPRate, Tweak and Capacity set the BIP37 filter (see
	// bloomscan.Config). A zero Tweak takes the one the wallet's state
	// keeps, or picks one at random for a new wallet. Capacity is the
	// least the filters are sized for; it only grows. The wallet's state
	// keeps both, so that a restarted wallet loads filters whose elements
	// sit on the same bits each time (docs/bip37.md).
	FPRate   float64
	Tweak    uint32
	Capacity uint32

	// Events is how many events the stream buffers; zero means
	// DefaultEvents.
	Events int

	// Timeout bounds each wait for a peer (spv.Config.Timeout); zero
	// means spv.DefaultTimeout.
	Timeout time.Duration

	// BanDuration is how long a peer proven to lie is not reconnected;
	// zero means DefaultBanDuration.
	BanDuration time.Duration

	// Lookup resolves a DNS seed; nil uses net.DefaultResolver.
	Lookup func(ctx context.Context, host string) ([]net.IP, error)

	// Logger receives what happens to peers (connections, bans, drops)
	// and reorganisations; nil discards it.
	Logger *slog.Logger
}

// check validates cfg and fills in its defaults.
func (cfg *Config) check() error {
	switch {
	case cfg.Network == nil:
		return errors.New("lightclient: Config.Network is nil")
	case cfg.Mode != BIP157 && cfg.Mode != BIP37:
		return fmt.Errorf("lightclient: unknown mode %v", cfg.Mode)
	case len(cfg.Peers) == 0 && len(cfg.Network.Params.DNSSeeds) == 0:
		return fmt.Errorf("lightclient: no peers given, and %s has no DNS seeds", cfg.Network.Name())
	case cfg.Birthday < 0 || cfg.To < 0 || cfg.Confirmations < 0 || cfg.Quorum < 0 || cfg.TargetPeers < 0:
		return errors.New("lightclient: Config.Birthday, To, Confirmations, Quorum and TargetPeers may not be negative")
	case cfg.To > 0 && cfg.To < cfg.Birthday:
		return fmt.Errorf("lightclient: range %d to %d is empty", cfg.Birthday, cfg.To)
	case cfg.Follow && cfg.To > 0:
		return errors.New("lightclient: Config.To ends a run, Follow never does: set one")
	}
	if err := checkWalletName(cfg.Wallet); err != nil {
		return err
	}
	if cfg.TargetPeers == 0 {
		cfg.TargetPeers = DefaultTargetPeers
		if n := len(cfg.Peers); n > 0 && n < cfg.TargetPeers {
			cfg.TargetPeers = n
		}
	}
	if cfg.Quorum == 0 {
		cfg.Quorum = DefaultQuorum
		if len(cfg.Peers) == 1 {
			cfg.Quorum = 1
		}
	}
	if cfg.Mode == BIP37 {
		cfg.Quorum = 1 // BIP37 commits to nothing a second peer could confirm
	}
	if cfg.Quorum > cfg.TargetPeers {
		return fmt.Errorf("lightclient: a quorum of %d peers needs a target of as many, not %d", cfg.Quorum, cfg.TargetPeers)
	}
	if cfg.Gap == 0 {
		cfg.Gap = wallet.DefaultGap
	}
	if cfg.Events <= 0 {
		cfg.Events = DefaultEvents
	}
	if cfg.BanDuration <= 0 {
		cfg.BanDuration = DefaultBanDuration
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return nil
}

// sendMode is the mode of a pool that only relays transactions (Send).
const sendMode Mode = -1

// services are what a peer must offer in the mode.
func (cfg *Config) services() wire.ServiceFlag {
	switch cfg.Mode {
	case BIP37:
		return wire.SFNodeBloom
	case sendMode:
		return 0
	}
	return wire.SFNodeCF
}
