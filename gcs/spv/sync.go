package spv

import (
	"context"
	"fmt"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// SyncHeaders downloads the peer's block headers after c's tip into c,
// verifying each ([Chain.Connect]), until the peer has no more, one
// getheaders round trip per 2,000 headers, and commits them as it goes
// ([ChainConfig.CommitEvery]: a commit costs three fsyncs, about 25 ms on
// a common disk, so committing every message would double a long sync). A
// chain that starts from an anchor first fetches the anchor's headers. A
// peer whose headers end below the height it announced in its version
// message is misbehaving.
func SyncHeaders(ctx context.Context, s *Session, c *Chain) error {
	err := syncHeaders(ctx, s, c)
	if err != nil {
		s.Drop(err)
	}
	return err
}

func syncHeaders(ctx context.Context, s *Session, c *Chain) error {
	if c.pending != nil {
		if err := c.fetchAnchor(ctx, s); err != nil {
			return err
		}
	}
	committed := time.Now()
	for {
		n, err := syncBatch(ctx, s, c)
		if err != nil {
			return err
		}
		if n < wire.MaxBlockHeadersPerMsg {
			break
		}
		if c.CommitDue(committed) {
			if err := c.Commit(); err != nil {
				return err
			}
			committed = time.Now()
		}
	}
	if err := c.Commit(); err != nil {
		return err
	}
	if c.Height() < s.StartHeight() {
		return fmt.Errorf("spv: peer %s announced height %d, but its headers end at %d: %w",
			s.Addr(), s.StartHeight(), c.Height(), ErrMisbehaving)
	}
	return nil
}

// syncBatch runs one getheaders round trip and returns the number of
// headers the peer sent.
func syncBatch(ctx context.Context, s *Session, c *Chain) (int, error) {
	loc, err := c.Locator()
	if err != nil {
		return 0, err
	}
	got, err := getHeaders(ctx, s, loc, &chainhash.Hash{})
	if err != nil {
		return 0, err
	}
	added, err := c.Connect(got)
	if err != nil {
		return 0, err
	}
	if added == 0 && len(got) == wire.MaxBlockHeadersPerMsg {
		return 0, fmt.Errorf("spv: peer %s sent %d headers that do not extend the chain: %w", s.Addr(), len(got), ErrMisbehaving)
	}
	return len(got), nil
}

// getHeaders runs one getheaders round trip.
func getHeaders(ctx context.Context, s *Session, locator []*chainhash.Hash, stop *chainhash.Hash) ([]*wire.BlockHeader, error) {
	gh := wire.NewMsgGetHeaders()
	for _, h := range locator {
		gh.AddBlockLocatorHash(h)
	}
	gh.HashStop = *stop
	nonce, err := s.Request(ctx, gh)
	if err != nil {
		return nil, err
	}
	var got *wire.MsgHeaders
	err = s.Replies(ctx, nonce, func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgHeaders)
		if !ok || got != nil {
			return Unexpected(s, msg, "getheaders")
		}
		got = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	if got == nil {
		return nil, fmt.Errorf("spv: peer %s did not answer getheaders (btcd ignores it while its tip is over 24 hours old, Core during initial block download): %w",
			s.Addr(), ErrMisbehaving)
	}
	return got.Headers, nil
}

// Unexpected returns the error for msg, a message that does not answer
// request (a command name), naming a reject's reason. It wraps
// [ErrMisbehaving].
func Unexpected(s *Session, msg wire.Message, request string) error {
	if r, ok := msg.(*wire.MsgReject); ok {
		return fmt.Errorf("spv: peer %s rejected %s: %s (code %v): %w", s.Addr(), untrusted.Text(r.Cmd), untrusted.Text(r.Reason), r.Code, ErrMisbehaving)
	}
	return fmt.Errorf("spv: peer %s answered %s with an unexpected %s: %w", s.Addr(), request, msg.Command(), ErrMisbehaving)
}
