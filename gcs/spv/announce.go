package spv

import (
	"context"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// maxAnnounced bounds the headers, and the block hashes, a session keeps
// of announcements not taken yet: a peer cannot make it hold more than
// about 200 kB.
const maxAnnounced = 2000

// Announcement is what a peer sent unasked since the last
// [Session.Announced]: new blocks by hash (inv) or, once asked with
// [Session.SendHeaders], by their headers (BIP130).
type Announcement struct {
	// Headers holds one run of headers per headers message, in the order
	// the messages came.
	Headers [][]*wire.BlockHeader
	// Blocks are the block hashes of inv messages, in order.
	Blocks []chainhash.Hash
	// Dropped is true if the peer announced more than the session keeps:
	// ask it for headers from a locator.
	Dropped bool
}

// owed counts the headers replies a request still owes: a headers message
// is a reply while one is owed, and an announcement otherwise.
type owed struct {
	nonce   uint64 // the ping that ends the request
	headers int
}

// SendHeaders asks the peer to announce new blocks with their headers
// instead of inv (BIP130). A headers message that no getheaders request
// awaits then goes to [Session.Announced]. One the peer sent before it
// read a request can still pass for the reply while the reply passes for
// an announcement, so a caller treats every run of headers alike: connect
// it if it links, otherwise ask from a locator.
func (s *Session) SendHeaders(ctx context.Context) error {
	return s.Send(ctx, wire.NewMsgSendHeaders())
}

// Announcing returns a channel that holds a value while the peer has
// announced something [Session.Announced] has not taken.
func (s *Session) Announcing() <-chan struct{} { return s.news }

// Announced returns and clears what the peer announced since the last
// call.
func (s *Session) Announced() Announcement {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.announced
	s.announced = Announcement{}
	select {
	case <-s.news:
	default:
	}
	return a
}

// owe records that the request ended by nonce owes a headers reply for
// each getheaders among msgs. The caller holds s.mu.
func (s *Session) owe(nonce uint64, msgs []wire.Message) {
	n := 0
	for _, m := range msgs {
		if _, ok := m.(*wire.MsgGetHeaders); ok {
			n++
		}
	}
	if n > 0 {
		s.owes = append(s.owes, owed{nonce, n})
	}
}

// settle forgets what the requests up to the one nonce ends still owe:
// their pong came. The caller holds s.mu.
func (s *Session) settle(nonce uint64) {
	for i, o := range s.owes {
		if o.nonce == nonce {
			s.owes = append(s.owes[:0], s.owes[i+1:]...)
			return
		}
	}
}

// isReply reports whether a headers message answers a request, counting it
// against the oldest that owes one; otherwise it keeps its headers as an
// announcement.
func (s *Session) isReply(m *wire.MsgHeaders) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.owes {
		if s.owes[i].headers > 0 {
			s.owes[i].headers--
			return true
		}
	}
	if n := countHeaders(s.announced.Headers); n+len(m.Headers) > maxAnnounced {
		s.announced.Dropped = true
	} else if len(m.Headers) > 0 {
		s.announced.Headers = append(s.announced.Headers, m.Headers)
	}
	s.signal()
	return false
}

// announceInv keeps the block hashes of an inv message.
func (s *Session) announceInv(m *wire.MsgInv) {
	s.mu.Lock()
	defer s.mu.Unlock()
	found := false
	for _, iv := range m.InvList {
		if iv.Type != wire.InvTypeBlock && iv.Type != wire.InvTypeWitnessBlock {
			continue
		}
		found = true
		if len(s.announced.Blocks) == maxAnnounced {
			s.announced.Dropped = true
			continue
		}
		s.announced.Blocks = append(s.announced.Blocks, iv.Hash)
	}
	if found {
		s.signal()
	}
}

// signal marks news; the caller holds s.mu.
func (s *Session) signal() {
	select {
	case s.news <- struct{}{}:
	default:
	}
}

func countHeaders(runs [][]*wire.BlockHeader) int {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	return n
}
