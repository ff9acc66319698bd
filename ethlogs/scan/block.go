package scan

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// Tag is a block tag of the execution JSON-RPC API, resolved by the node.
type Tag string

// The tags a [Block] may name. "pending" is not one: it names no block of
// the chain.
const (
	Earliest  Tag = "earliest"  // the genesis block (or the node's first)
	Latest    Tag = "latest"    // the node's head
	Safe      Tag = "safe"      // the head the node's consensus client calls safe from reorganisation
	Finalized Tag = "finalized" // the newest block the node's consensus client saw finalized
)

// Block names a block of a scan's range or its anchor, in one of the forms
// the CLI's --from, --to and --anchor take ([ParseBlock]):
//
//   - a number: Tag "" and Number (Hash zero);
//   - a tag, or a tag less a number of blocks ("latest-10"): Tag, with
//     Number the distance below the tagged block;
//   - a hash, or a number and a hash (anchors only): Hash, and Number, when
//     not zero, the number the block must have.
//
// A tag or a number is resolved by the node and is as trustworthy as the
// node; a hash is the caller's.
type Block struct {
	Tag    Tag
	Number uint64
	Hash   common.Hash
}

// BlockNumber returns the block with number n.
func BlockNumber(n uint64) *Block { return &Block{Number: n} }

// BlockHash returns the block with hash h.
func BlockHash(h common.Hash) *Block { return &Block{Hash: h} }

// ParseBlock reads a block as the CLI takes it: a number in decimal or
// 0x-prefixed hex; earliest, latest, safe or finalized; one of the last
// three less a number ("latest-10", "finalized-0x20"); a 0x-prefixed
// 32-byte hash; or NUMBER:HASH.
func ParseBlock(s string) (*Block, error) {
	if num, hash, ok := strings.Cut(s, ":"); ok {
		n, err := parseNumber(num)
		if err != nil {
			return nil, fmt.Errorf("scan: block %q: %q is not a block number", s, num)
		}
		h, err := parseHash(hash)
		if err != nil {
			return nil, fmt.Errorf("scan: block %q: %v", s, err)
		}
		return &Block{Number: n, Hash: h}, nil
	}
	if len(s) == 66 && strings.HasPrefix(s, "0x") {
		h, err := parseHash(s)
		if err != nil {
			return nil, fmt.Errorf("scan: block %q: %v", s, err)
		}
		return BlockHash(h), nil
	}
	tag, back, relative := strings.Cut(s, "-")
	switch t := Tag(tag); t {
	case Earliest, Latest, Safe, Finalized:
		if !relative {
			return &Block{Tag: t}, nil
		}
		n, err := parseNumber(back)
		switch {
		case t == Earliest:
			return nil, fmt.Errorf("scan: block %q: nothing comes before earliest", s)
		case err != nil:
			return nil, fmt.Errorf("scan: block %q: %q is not a number of blocks", s, back)
		}
		return &Block{Tag: t, Number: n}, nil
	}
	n, err := parseNumber(s)
	if err != nil {
		return nil, fmt.Errorf("scan: block %q is not a number, earliest, latest, safe, finalized, TAG-N, a 0x hash or NUMBER:HASH", s)
	}
	return BlockNumber(n), nil
}

// String writes b in the form ParseBlock reads.
func (b *Block) String() string {
	switch {
	case b.Tag != "" && b.Number > 0:
		return string(b.Tag) + "-" + strconv.FormatUint(b.Number, 10)
	case b.Tag != "":
		return string(b.Tag)
	case b.Hash != (common.Hash{}) && b.Number > 0:
		return strconv.FormatUint(b.Number, 10) + ":" + b.Hash.Hex()
	case b.Hash != (common.Hash{}):
		return b.Hash.Hex()
	}
	return strconv.FormatUint(b.Number, 10)
}

// validate refuses what no block can be: a tag and a hash together, a
// distance below earliest or an unknown tag.
func (b *Block) validate() error {
	switch {
	case b.Tag != "" && b.Hash != (common.Hash{}):
		return errors.New("a tag and a hash together")
	case b.Tag == Earliest && b.Number > 0:
		return errors.New("a distance below earliest")
	case b.Tag != "" && b.Tag != Earliest && b.Tag != Latest && b.Tag != Safe && b.Tag != Finalized:
		return fmt.Errorf("unknown tag %q", b.Tag)
	}
	return nil
}

// parseNumber reads a block number in decimal or 0x hex.
func parseNumber(s string) (uint64, error) {
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		return strconv.ParseUint(h, 16, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}

func parseHash(s string) (common.Hash, error) {
	h, ok := strings.CutPrefix(s, "0x")
	b, err := hex.DecodeString(h)
	if !ok || err != nil || len(b) != common.HashLength {
		return common.Hash{}, fmt.Errorf("%q is not a 0x-prefixed 32-byte hash", s)
	}
	return common.Hash(b), nil
}
