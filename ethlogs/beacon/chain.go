package beacon

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"gopkg.in/yaml.v3"
)

// The mainnet preset (consensus-specs presets/mainnet), which go-ethereum's
// beacon packages compile in. These array lengths stop the build if a
// go-ethereum upgrade ever changes it under us: they are negative unless
// each constant has exactly the value this package's rules assume.
var (
	_ [params.SyncCommitteeSize - 512]struct{}
	_ [512 - params.SyncCommitteeSize]struct{}
	_ [params.EpochLength - 32]struct{}
	_ [32 - params.EpochLength]struct{}
	_ [params.SyncPeriodLength - 8192]struct{}
	_ [8192 - params.SyncPeriodLength]struct{}
)

// SecondsPerSlot is the slot time of every chain this package supports;
// go-ethereum's beacon packages assume it too.
const SecondsPerSlot = 12

// supermajority is the participation that applies an update: 2/3 of the
// committee, rounded up (sync-protocol.md, process_light_client_update).
const supermajority = (2*params.SyncCommitteeSize + 2) / 3

// forkOrder lists the forks go-ethereum's beacon packages know, oldest
// first. A fork outside it would get generalized index 0 in
// beacon/params, failing every proof, so configurations may not name one
// at a reachable epoch.
var forkOrder = []string{"GENESIS", "ALTAIR", "BELLATRIX", "CAPELLA", "DENEB", "ELECTRA", "FULU", "GLOAS"}

// forkIndex returns a fork's position in forkOrder, or -1; the name is
// matched without regard to case (the beacon API writes it in lower case).
func forkIndex(name string) int { return slices.Index(forkOrder, strings.ToUpper(name)) }

// Mainnet returns Ethereum mainnet's configuration: go-ethereum's
// params.MainnetLightConfig, copied so that changing it changes no one
// else's. Its Checkpoint field is go-ethereum's and is not used here.
func Mainnet() *params.ChainConfig { return clone(params.MainnetLightConfig) }

// Sepolia returns the Sepolia test network's configuration (a copy of
// go-ethereum's params.SepoliaLightConfig).
func Sepolia() *params.ChainConfig { return clone(params.SepoliaLightConfig) }

// Hoodi returns the Hoodi test network's configuration (a copy of
// go-ethereum's params.HoodiLightConfig).
func Hoodi() *params.ChainConfig { return clone(params.HoodiLightConfig) }

func clone(c *params.ChainConfig) *params.ChainConfig {
	cp := *c
	cp.Forks = slices.Clone(c.Forks)
	return &cp
}

// Fork is one step of a fork schedule.
type Fork struct {
	Name    string // as in config.yaml: GENESIS, ALTAIR, … GLOAS
	Epoch   uint64
	Version [4]byte
}

// Custom returns the configuration of a chain with the mainnet preset and
// the given genesis time (Unix seconds), genesis validators root and fork
// schedule: a private network or a test chain. The schedule must start
// with GENESIS at epoch 0 and name only forks go-ethereum knows, in order.
func Custom(genesisTime uint64, genesisValidatorsRoot common.Hash, forks ...Fork) (*params.ChainConfig, error) {
	if len(forks) == 0 || forks[0].Name != "GENESIS" || forks[0].Epoch != 0 {
		return nil, fmt.Errorf("beacon: a fork schedule starts with GENESIS at epoch 0")
	}
	last := -1
	for i, f := range forks {
		k := slices.Index(forkOrder, f.Name)
		switch {
		case k < 0:
			return nil, fmt.Errorf("beacon: fork %q is not one of %s", f.Name, strings.Join(forkOrder, ", "))
		case k <= last:
			return nil, fmt.Errorf("beacon: fork %s is out of order or repeated", f.Name)
		case i > 0 && f.Epoch < forks[i-1].Epoch:
			return nil, fmt.Errorf("beacon: fork %s at epoch %d precedes %s at epoch %d", f.Name, f.Epoch, forks[i-1].Name, forks[i-1].Epoch)
		}
		last = k
	}
	// The genesis validators root goes in first: AddFork computes each
	// fork's signature domain from it.
	c := &params.ChainConfig{GenesisTime: genesisTime, GenesisValidatorsRoot: genesisValidatorsRoot}
	for _, f := range forks {
		c.AddFork(f.Name, f.Epoch, f.Version[:])
	}
	return c, nil
}

// ParseConfig returns the configuration of a chain from its consensus
// config.yaml (the fork versions and epochs; go-ethereum's LoadForks
// reads them), its genesis time and genesis validators root (which live in
// the genesis state, not in config.yaml). It refuses a file whose
// PRESET_BASE is not mainnet or whose slots are not 12 seconds long, and
// one that schedules a fork go-ethereum does not know.
func ParseConfig(configYAML []byte, genesisTime uint64, genesisValidatorsRoot common.Hash) (*params.ChainConfig, error) {
	var preset struct {
		Base     string  `yaml:"PRESET_BASE"`
		Seconds  *uint64 `yaml:"SECONDS_PER_SLOT"`
		Duration *uint64 `yaml:"SLOT_DURATION_MS"`
	}
	if err := yaml.Unmarshal(configYAML, &preset); err != nil {
		return nil, fmt.Errorf("beacon: config.yaml: %v", err)
	}
	switch {
	case preset.Base != "" && strings.Trim(preset.Base, `'"`) != "mainnet":
		return nil, fmt.Errorf("beacon: config.yaml: PRESET_BASE %q: only the mainnet preset (512 sync committee members) is supported", preset.Base)
	case preset.Seconds != nil && *preset.Seconds != SecondsPerSlot:
		return nil, fmt.Errorf("beacon: config.yaml: SECONDS_PER_SLOT %d: only %d-second slots are supported", *preset.Seconds, SecondsPerSlot)
	case preset.Duration != nil && *preset.Duration != SecondsPerSlot*1000:
		return nil, fmt.Errorf("beacon: config.yaml: SLOT_DURATION_MS %d: only %d-second slots are supported", *preset.Duration, SecondsPerSlot)
	}
	c := &params.ChainConfig{GenesisTime: genesisTime, GenesisValidatorsRoot: genesisValidatorsRoot}
	if err := c.LoadForks(configYAML); err != nil {
		return nil, fmt.Errorf("beacon: config.yaml: %v", err)
	}
	for _, f := range c.Forks {
		if forkIndex(f.Name) < 0 && f.Epoch != math.MaxUint64 {
			return nil, fmt.Errorf("beacon: config.yaml: fork %s at epoch %d is unknown to go-ethereum's beacon packages", f.Name, f.Epoch)
		}
	}
	if len(c.Forks) == 0 || c.Forks[0].Epoch != 0 {
		return nil, fmt.Errorf("beacon: config.yaml: no fork at epoch 0")
	}
	return c, nil
}

// clock tells slots and times apart for one chain.
type clock struct {
	genesis uint64 // Unix seconds of slot 0
	now     time.Time
}

// slotTime returns the start of a slot; slots too far ahead to have a
// time saturate at the latest time representable.
func (c clock) slotTime(slot uint64) time.Time {
	if slot > (math.MaxInt64-c.genesis)/SecondsPerSlot {
		return time.Unix(math.MaxInt64, 0)
	}
	return time.Unix(int64(c.genesis+slot*SecondsPerSlot), 0)
}

// maxClockDisparity is how far ahead of this machine's clock another's
// may run: consensus-specs p2p-interface.md, MAXIMUM_GOSSIP_CLOCK_DISPARITY.
const maxClockDisparity = 500 * time.Millisecond

// currentSlot returns the latest slot that may have started, allowing for
// maxClockDisparity, or an error before genesis.
func (c clock) currentSlot() (uint64, error) {
	t := c.now.Add(maxClockDisparity).Unix()
	if t < 0 || uint64(t) < c.genesis {
		return 0, fmt.Errorf("beacon: the clock (%s) is before the chain's genesis (%s)", c.now.UTC().Format(time.RFC3339), time.Unix(int64(c.genesis), 0).UTC().Format(time.RFC3339))
	}
	return (uint64(t) - c.genesis) / SecondsPerSlot, nil
}

// age returns how long ago a slot started, negative for the future.
func (c clock) age(slot uint64) time.Duration { return c.now.Sub(c.slotTime(slot)) }

func period(slot uint64) uint64 { return slot / params.SyncPeriodLength }

func epoch(slot uint64) uint64 { return slot / params.EpochLength }
