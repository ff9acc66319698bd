package descriptor

import (
	"fmt"
	"strings"
)

// The BIP380 character sets. The input set is three groups of 32 in this
// order so that a case error or a substitution inside the first group (hex
// and key paths) costs a single symbol of the code.
const (
	inputCharset = "0123456789()[],'/*abcdefgh@:$%{}" +
		"IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~" +
		"ijklmnopqrstuvwxyzABCDEFGH`#\"\\ "
	checksumCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
)

// ChecksumLen is the length of a descriptor checksum, the part after '#'.
const ChecksumLen = 8

// inputPos maps a byte to its position in inputCharset, or -1.
var inputPos = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(inputCharset); i++ {
		t[inputCharset[i]] = int8(i)
	}
	return t
}()

// polymod is one step of BIP380's BCH code over GF(32): the generator
// constants are the code's, from the BIP.
func polymod(c uint64, v int8) uint64 {
	top := c >> 35
	c = (c&0x7ffffffff)<<5 ^ uint64(v)
	if top&1 != 0 {
		c ^= 0xf5dee51989
	}
	if top&2 != 0 {
		c ^= 0xa9fdca3312
	}
	if top&4 != 0 {
		c ^= 0x1bab10e32d
	}
	if top&8 != 0 {
		c ^= 0x3706b1677a
	}
	if top&16 != 0 {
		c ^= 0x644d626ffd
	}
	return c
}

// Checksum returns the BIP380 checksum of a descriptor without one (the
// eight characters that follow '#'). A byte outside the descriptor
// character set is an error naming its offset.
func Checksum(desc string) (string, error) {
	c := uint64(1)
	var groups int8
	n := 0
	for i := 0; i < len(desc); i++ {
		pos := inputPos[desc[i]]
		if pos < 0 {
			return "", errorf(i, ErrChecksum, "byte 0x%02x is outside the descriptor character set", desc[i])
		}
		c = polymod(c, pos&31)
		groups = groups*3 + pos>>5
		if n++; n == 3 {
			c = polymod(c, groups)
			groups, n = 0, 0
		}
	}
	if n > 0 {
		c = polymod(c, groups)
	}
	for range ChecksumLen {
		c = polymod(c, 0)
	}
	c ^= 1
	var sum [ChecksumLen]byte
	for j := range sum {
		sum[j] = checksumCharset[(c>>(5*(7-j)))&31]
	}
	return string(sum[:]), nil
}

// SplitChecksum separates desc into the descriptor and its '#' checksum and
// checks the checksum when there is one, in Bitcoin Core's order: one '#'
// at most, eight characters after it, a descriptor in the character set,
// then the match ([ErrChecksum] otherwise). It returns the descriptor and
// its correct checksum, computed when desc has none.
func SplitChecksum(desc string) (body, sum string, err error) {
	body, given, has := strings.Cut(desc, "#")
	if has && strings.Contains(given, "#") {
		return "", "", errorf(len(body)+1+strings.IndexByte(given, '#'), ErrChecksum, "more than one '#'")
	}
	if has && len(given) != ChecksumLen {
		return "", "", errorf(len(body)+1, ErrChecksum, "checksum has %d characters, want %d", len(given), ChecksumLen)
	}
	if sum, err = Checksum(body); err != nil {
		return "", "", err
	}
	if has && given != sum {
		return "", "", errorf(len(body)+1, ErrChecksum, "checksum %q does not match the descriptor (its checksum is %q)", given, sum)
	}
	return body, sum, nil
}

// clip shortens user text quoted in an error.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

func errorf(off int, sentinel error, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}
