package lightclient

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net"
	"strconv"
	"time"

	"github.com/btcsuite/btcd/connmgr"
	"github.com/btcsuite/btcd/wire/v2"
)

const (
	// reseedAfter is how long the client waits before asking the DNS
	// seeds again once their addresses are used up.
	reseedAfter = 5 * time.Minute
	// seedTimeout bounds the DNS queries of one seeding.
	seedTimeout = 30 * time.Second
)

// seedServices are the services asked of seeds that filter by service
// bits (their host prefixed x<hex>.): NETWORK|WITNESS|COMPACT_FILTERS
// (x49, which Bitcoin Core's seeders serve) in BIP157 mode,
// NETWORK|BLOOM (x5) in BIP37 mode.
func seedServices(m Mode) wire.ServiceFlag {
	switch m {
	case BIP37:
		return wire.SFNodeNetwork | wire.SFNodeBloom
	case sendMode:
		return wire.SFNodeNetwork | wire.SFNodeWitness
	}
	return wire.SFNodeNetwork | wire.SFNodeWitness | wire.SFNodeCF
}

// seed asks the network's DNS seeds for peers with btcd's
// connmgr.SeedFromDNS and returns their addresses, on the network's
// default port, shuffled. Seeds that fail or time out give none.
func seed(ctx context.Context, cfg *Config, log *slog.Logger) []string {
	seeds := cfg.Network.Params.DNSSeeds
	lookup := cfg.Lookup
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]net.IP, error) {
			return net.DefaultResolver.LookupIP(ctx, "ip", host)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, seedTimeout)
	defer cancel()
	// SeedFromDNS calls the lookup once per seed, on a goroutine of its
	// own, then the callback only if it found addresses: one report each.
	found := make(chan []*wire.NetAddressV2, len(seeds))
	none := make(chan struct{}, len(seeds))
	connmgr.SeedFromDNS(cfg.Network.Params, seedServices(cfg.Mode), func(host string) ([]net.IP, error) {
		ips, err := lookup(ctx, host)
		log.Info("DNS seed", "host", host, "addresses", len(ips), "err", err)
		if err != nil || len(ips) == 0 {
			none <- struct{}{}
		}
		return ips, err
	}, func(addrs []*wire.NetAddressV2) { found <- addrs })
	var out []string
	for range seeds {
		select {
		case addrs := <-found:
			for _, a := range addrs {
				out = append(out, net.JoinHostPort(a.Addr.String(), strconv.Itoa(int(a.Port))))
			}
		case <-none:
		case <-ctx.Done():
			return shuffle(out)
		}
	}
	return shuffle(out)
}

func shuffle(s []string) []string {
	rand.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}
