package lightclient

import (
	"context"
	"fmt"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Send connects to cfg's peers (those given, or the DNS seeds'; up to
// TargetPeers, none of the mode's service bits required), relays tx to
// all of them at once (spv.Broadcast) and disconnects: a broadcast
// without a wallet or a scan, for a command that only sends. It fails if
// no peer could be reached; each peer's answer is in its Relay.
func Send(ctx context.Context, cfg Config, tx *wire.MsgTx) ([]spv.Relay, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.Mode = sendMode
	pl := newPool(&cfg, nil)
	defer pl.closeAll()
	if err := pl.fill(ctx, 1); err != nil {
		return nil, fmt.Errorf("lightclient: send: %w", err)
	}
	sessions := make([]*spv.Session, len(pl.peers))
	for i, p := range pl.peers {
		sessions[i] = p.s
	}
	return spv.Broadcast(ctx, tx, 0, sessions...), nil
}
