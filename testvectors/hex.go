package testvectors

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// Hex is a byte string written in hex, with or without a 0x prefix.
type Hex []byte

// UnmarshalJSON decodes a JSON string of hex digits.
func (h *Hex) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	raw, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		return fmt.Errorf("bad hex %q: %w", clip(s), err)
	}
	*h = raw
	return nil
}

// String returns the bytes as hex without a prefix.
func (h Hex) String() string { return hex.EncodeToString(h) }

// DisplayHash is a 32-byte Bitcoin hash (block hash, txid, filter header). In
// the files it is written in RPC display order, the reverse of the internal
// order; the value holds the internal order, as chainhash.Hash does.
type DisplayHash [32]byte

// UnmarshalJSON decodes 64 hex digits in display order.
func (d *DisplayHash) UnmarshalJSON(b []byte) error {
	var h Hex
	if err := h.UnmarshalJSON(b); err != nil {
		return err
	}
	if len(h) != 32 {
		return fmt.Errorf("hash of %d bytes, want 32", len(h))
	}
	for i := range 32 {
		d[i] = h[31-i]
	}
	return nil
}

// String returns the display (byte-reversed) hex, as chainhash.Hash prints.
func (d DisplayHash) String() string { return chainhash.Hash(d).String() }

// Uint32Hex is a uint32 written as 8 hex digits, most significant first (the
// way a 0x literal reads).
type Uint32Hex uint32

// UnmarshalJSON decodes the hex numeral.
func (u *Uint32Hex) UnmarshalJSON(b []byte) error {
	v, err := hexNumeral(b, 32)
	*u = Uint32Hex(v)
	return err
}

// Uint64Hex is a uint64 written as 16 hex digits, most significant first.
type Uint64Hex uint64

// UnmarshalJSON decodes the hex numeral.
func (u *Uint64Hex) UnmarshalJSON(b []byte) error {
	v, err := hexNumeral(b, 64)
	*u = Uint64Hex(v)
	return err
}

func hexNumeral(b []byte, bitSize int) (uint64, error) {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, bitSize)
	if err != nil {
		return 0, fmt.Errorf("bad hex numeral %q: %w", clip(s), err)
	}
	return v, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Element is a byte string written in hex or, when too long to list,
// summarised as "<N bytes, sha256 H>".
type Element struct {
	Bytes  []byte // nil when summarised
	Len    int
	SHA256 []byte // set only when summarised
}

// UnmarshalJSON decodes either form.
func (e *Element) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if strings.HasPrefix(s, "<") {
		var digest string
		if _, err := fmt.Sscanf(s, "<%d bytes, sha256 %64s>", &e.Len, &digest); err != nil {
			return fmt.Errorf("bad element summary %q: %w", clip(s), err)
		}
		sum, err := hex.DecodeString(digest)
		if err != nil || len(sum) != sha256.Size {
			return fmt.Errorf("bad element digest %q", clip(s))
		}
		e.SHA256 = sum
		return nil
	}
	var h Hex
	if err := h.UnmarshalJSON(b); err != nil {
		return err
	}
	*e = Element{Bytes: h, Len: len(h)}
	return nil
}

// Equal reports whether b is the element.
func (e Element) Equal(b []byte) bool {
	if e.SHA256 == nil {
		return bytes.Equal(e.Bytes, b)
	}
	sum := sha256.Sum256(b)
	return len(b) == e.Len && bytes.Equal(sum[:], e.SHA256)
}
