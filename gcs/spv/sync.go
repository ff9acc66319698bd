package spv

import (
	"context"
	"fmt"

	"github.com/btcsuite/btcd/wire/v2"
)

// SyncHeaders downloads the peer's block headers after c's tip into c,
// verifying each ([Chain.Connect]), until the peer has no more, one
// getheaders round trip per 2,000 headers. A peer whose headers end below
// the height it announced in its version message is misbehaving.
func SyncHeaders(ctx context.Context, s *Session, c *Chain) error {
	for {
		n, err := syncBatch(ctx, s, c)
		if err != nil {
			s.Drop(err)
			return err
		}
		if n < wire.MaxBlockHeadersPerMsg {
			break
		}
	}
	if c.Height() < s.StartHeight() {
		err := fmt.Errorf("spv: peer %s announced height %d, but its headers end at %d: %w",
			s.Addr(), s.StartHeight(), c.Height(), ErrMisbehaving)
		s.Drop(err)
		return err
	}
	return nil
}

// syncBatch runs one getheaders round trip and returns the number of
// headers the peer sent.
func syncBatch(ctx context.Context, s *Session, c *Chain) (int, error) {
	gh := wire.NewMsgGetHeaders()
	for _, h := range c.Locator() {
		gh.AddBlockLocatorHash(h)
	}
	nonce, err := s.Request(ctx, gh)
	if err != nil {
		return 0, err
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
		return 0, err
	}
	if got == nil {
		return 0, fmt.Errorf("spv: peer %s did not answer getheaders (btcd ignores it while its tip is over 24 hours old, Core during initial block download): %w",
			s.Addr(), ErrMisbehaving)
	}
	added, err := c.Connect(got.Headers)
	if err != nil {
		return 0, err
	}
	if added == 0 && len(got.Headers) == wire.MaxBlockHeadersPerMsg {
		return 0, fmt.Errorf("spv: peer %s sent %d headers that do not extend the chain: %w", s.Addr(), len(got.Headers), ErrMisbehaving)
	}
	return len(got.Headers), nil
}

// Unexpected returns the error for msg, a message that does not answer
// request (a command name), naming a reject's reason. It wraps
// [ErrMisbehaving].
func Unexpected(s *Session, msg wire.Message, request string) error {
	if r, ok := msg.(*wire.MsgReject); ok {
		return fmt.Errorf("spv: peer %s rejected %s: %s (code %v): %w", s.Addr(), r.Cmd, r.Reason, r.Code, ErrMisbehaving)
	}
	return fmt.Errorf("spv: peer %s answered %s with an unexpected %s: %w", s.Addr(), request, msg.Command(), ErrMisbehaving)
}
