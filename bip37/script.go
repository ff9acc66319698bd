package bip37

import "encoding/binary"

// Script opcodes the matcher and the output classifier read.
const (
	op0             = 0x00
	opPushData1     = 0x4c
	opPushData2     = 0x4d
	opPushData4     = 0x4e
	op1             = 0x51
	op16            = 0x60
	opCheckSig      = 0xac
	opCheckMultiSig = 0xae
	opInvalid       = 0xff
)

// maxMultisigKeys is MAX_PUBKEYS_PER_MULTISIG.
const maxMultisigKeys = 20

// nextOp reads one operation from the front of script as Core's GetOp does:
// the opcode, the bytes it pushes (empty for OP_0 and for non-push opcodes)
// and the rest of the script. ok is false at the end of the script and when
// a push runs past it, in which case Core stops reading the script too.
func nextOp(script []byte) (op byte, data, rest []byte, ok bool) {
	if len(script) == 0 {
		return opInvalid, nil, nil, false
	}
	op, rest = script[0], script[1:]
	if op > opPushData4 {
		return op, nil, rest, true
	}
	n := uint64(op)
	switch op {
	case opPushData1:
		if len(rest) < 1 {
			return opInvalid, nil, nil, false
		}
		n, rest = uint64(rest[0]), rest[1:]
	case opPushData2:
		if len(rest) < 2 {
			return opInvalid, nil, nil, false
		}
		n, rest = uint64(binary.LittleEndian.Uint16(rest)), rest[2:]
	case opPushData4:
		if len(rest) < 4 {
			return opInvalid, nil, nil, false
		}
		n, rest = uint64(binary.LittleEndian.Uint32(rest)), rest[4:]
	}
	if uint64(len(rest)) < n {
		return opInvalid, nil, nil, false
	}
	return op, rest[:n], rest[n:], true
}

// isPayToPubKey reports whether script is Core's PUBKEY template:
// <33- or 65-byte key> OP_CHECKSIG, the key's first byte agreeing with its
// length.
func isPayToPubKey(script []byte) bool {
	switch len(script) {
	case 35, 67:
		n := len(script) - 2
		return int(script[0]) == n && script[n+1] == opCheckSig && validKeySize(script[1:n+1])
	}
	return false
}

// validKeySize is CPubKey::ValidSize: 33 bytes after a 02 or 03 header, 65
// after 04, 06 or 07. The point itself is not checked.
func validKeySize(key []byte) bool {
	if len(key) == 0 {
		return false
	}
	switch key[0] {
	case 2, 3:
		return len(key) == 33
	case 4, 6, 7:
		return len(key) == 65
	}
	return false
}

// isMultisig reports whether script is Core's bare MULTISIG template:
// <m> <key>… <n> OP_CHECKMULTISIG with 1 ≤ m ≤ n ≤ 20 and exactly n keys of
// valid size. Current Core (solver.cpp GetScriptNumber) also accepts m and n
// from 17 to 20 written as minimal one-byte pushes.
func isMultisig(script []byte) bool {
	if len(script) == 0 || script[len(script)-1] != opCheckMultiSig {
		return false
	}
	op, data, rest, ok := nextOp(script)
	if !ok {
		return false
	}
	m, ok := scriptNumber(op, data, 1, maxMultisigKeys)
	if !ok {
		return false
	}
	keys := 0
	for {
		op, data, rest, ok = nextOp(rest)
		if !ok {
			return false
		}
		if !validKeySize(data) {
			break
		}
		keys++
	}
	n, ok := scriptNumber(op, data, m, maxMultisigKeys)
	return ok && keys == n && len(rest) == 1
}

// scriptNumber reads a count in [lo, hi] the way Core's solver does: OP_1 to
// OP_16, or a minimally pushed, minimally encoded script number.
func scriptNumber(op byte, data []byte, lo, hi int) (int, bool) {
	var v int
	switch {
	case op >= op1 && op <= op16:
		v = int(op-op1) + 1
	case op > op0 && op <= opPushData4:
		n, ok := minimalNumber(op, data)
		if !ok {
			return 0, false
		}
		v = n
	default:
		return 0, false
	}
	return v, v >= lo && v <= hi
}

// minimalNumber decodes a push that CheckMinimalPush accepts, holding a
// CScriptNum of at most 4 bytes with no superfluous sign byte.
func minimalNumber(op byte, data []byte) (int, bool) {
	n := len(data)
	switch {
	case n == 0:
		return 0, false // only OP_0 may push nothing, and it is not a count
	case n == 1 && (data[0] >= 1 && data[0] <= 16 || data[0] == 0x81):
		return 0, false // OP_1…OP_16 or OP_1NEGATE should have been used
	case n <= 75 && int(op) != n, n > 4:
		return 0, false // not the shortest push, or too long for a number
	case data[n-1]&0x7f == 0 && (n == 1 || data[n-2]&0x80 == 0):
		return 0, false // a zero or sign byte that could have been dropped
	}
	var v int64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | int64(data[i])
	}
	if sign := int64(0x80) << (8 * (n - 1)); v&sign != 0 {
		v = -(v &^ sign)
	}
	return int(v), true
}
