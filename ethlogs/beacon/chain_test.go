package beacon_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
)

func TestNetworks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chain  func() *params.ChainConfig
		geth   *params.ChainConfig
		epoch  uint64
		wantAt string // the fork at epoch
	}{
		{"mainnet", beacon.Mainnet, params.MainnetLightConfig, 364032, "electra"},
		{"sepolia", beacon.Sepolia, params.SepoliaLightConfig, 353024, "gloas"},
		{"hoodi", beacon.Hoodi, params.HoodiLightConfig, 0, "deneb"},
	} {
		c := tc.chain()
		if got := c.ForkNameAtSlot(tc.epoch * params.EpochLength); got != tc.wantAt {
			t.Errorf("%s: fork at epoch %d = %s, want %s", tc.name, tc.epoch, got, tc.wantAt)
		}
		if c.GenesisValidatorsRoot != tc.geth.GenesisValidatorsRoot || c.GenesisTime != tc.geth.GenesisTime || len(c.Forks) != len(tc.geth.Forks) {
			t.Errorf("%s: %+v is not a copy of go-ethereum's %+v", tc.name, c, tc.geth)
		}
		// A copy: changing it leaves go-ethereum's alone.
		n := len(tc.geth.Forks)
		c.AddFork("GLOAS", 1<<40, []byte{9, 9, 9, 9})
		c.Forks[0] = nil
		if len(tc.geth.Forks) != n || tc.geth.Forks[0] == nil {
			t.Errorf("%s: changing the copy changed go-ethereum's configuration", tc.name)
		}
	}
}

// TestParseConfigMainnet reads the published mainnet config.yaml and
// checks that every fork it schedules signs as go-ethereum's mainnet
// configuration does.
func TestParseConfigMainnet(t *testing.T) {
	yaml, err := os.ReadFile("testdata/mainnet-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mainnet := beacon.Mainnet()
	c, err := beacon.ParseConfig(yaml, mainnet.GenesisTime, mainnet.GenesisValidatorsRoot)
	if err != nil {
		t.Fatal(err)
	}
	root := common.HexToHash("0xb10c")
	for _, epoch := range []uint64{0, 74240, 144896, 194048, 269568, 364032, 411391} {
		got, err1 := c.Forks.SigningRoot(epoch, root)
		want, err2 := mainnet.Forks.SigningRoot(epoch, root)
		if err1 != nil || err2 != nil || got != want || c.ForkNameAtSlot(epoch*32) != mainnet.ForkNameAtSlot(epoch*32) {
			t.Errorf("epoch %d: parsed %s %s, go-ethereum %s %s (%v, %v)", epoch, c.ForkNameAtSlot(epoch*32), got, mainnet.ForkNameAtSlot(epoch*32), want, err1, err2)
		}
	}
}

func TestParseConfigRefuses(t *testing.T) {
	base := "GENESIS_FORK_VERSION: 0x00000000\nALTAIR_FORK_VERSION: 0x01000000\nALTAIR_FORK_EPOCH: 0\n"
	for _, tc := range []struct{ yaml, want string }{
		{"PRESET_BASE: 'minimal'\n" + base, "only the mainnet preset"},
		{"SECONDS_PER_SLOT: 6\n" + base, "12-second slots"},
		{"SLOT_DURATION_MS: 6000\n" + base, "12-second slots"},
		{base + "EIP9999_FORK_VERSION: 0x63000000\nEIP9999_FORK_EPOCH: 10\n", "unknown to go-ethereum"},
		{base + "DENEB_FORK_VERSION: 0x04000000\n", "epoch number missing"},
		{"PRESET_BASE: [", "config.yaml"},
	} {
		if _, err := beacon.ParseConfig([]byte(tc.yaml), 0, common.Hash{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%q) = %v, want an error containing %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := beacon.ParseConfig([]byte("PRESET_BASE: mainnet\nSLOT_DURATION_MS: 12000\n"+base), 0, common.Hash{}); err != nil {
		t.Errorf("ParseConfig(a mainnet-preset config) = %v", err)
	}
}

func TestCustom(t *testing.T) {
	f := func(name string, epoch uint64) beacon.Fork { return beacon.Fork{Name: name, Epoch: epoch} }
	for _, tc := range []struct {
		forks []beacon.Fork
		want  string
	}{
		{nil, "starts with GENESIS"},
		{[]beacon.Fork{f("ALTAIR", 0)}, "starts with GENESIS"},
		{[]beacon.Fork{f("GENESIS", 1)}, "starts with GENESIS"},
		{[]beacon.Fork{f("GENESIS", 0), f("altair", 0)}, "is not one of"},
		{[]beacon.Fork{f("GENESIS", 0), f("DENEB", 0), f("CAPELLA", 0)}, "out of order"},
		{[]beacon.Fork{f("GENESIS", 0), f("ALTAIR", 0), f("ALTAIR", 1)}, "out of order"},
		{[]beacon.Fork{f("GENESIS", 0), f("ALTAIR", 5), f("BELLATRIX", 4)}, "precedes"},
	} {
		if _, err := beacon.Custom(0, common.Hash{}, tc.forks...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Custom(%v) = %v, want an error containing %q", tc.forks, err, tc.want)
		}
	}
	c, err := beacon.Custom(100, common.Hash{1}, f("GENESIS", 0), f("ALTAIR", 0), f("BELLATRIX", 2), f("CAPELLA", 2), f("DENEB", 3))
	if err != nil {
		t.Fatal(err)
	}
	for slot, want := range map[uint64]string{0: "altair", 63: "altair", 64: "capella", 96: "deneb", 1 << 40: "deneb"} {
		if got := c.ForkNameAtSlot(slot); got != want {
			t.Errorf("Custom: fork at slot %d = %s, want %s", slot, got, want)
		}
	}
}
