// Package event parses Solidity event declarations, such as
//
//	Transfer(address indexed from, address indexed to, uint256 value)
//
// and decodes the logs they describe for display.
//
// An event's topic 0 is the Keccak-256 of its canonical signature: the name
// and the parameter types, without names, without "indexed" and without
// spaces, with uint and int written uint256 and int256
// ("Transfer(address,address,uint256)"). Indexed parameters follow in topics
// 1 to 3, each one 32-byte word; the others are ABI-encoded in the log's
// data, in declaration order.
//
// Decoding covers the types events use in practice: address, bool, uintN,
// intN, bytesN, and, not indexed, bytes and string. An indexed bytes or
// string parameter is stored as the Keccak-256 of its value, which cannot be
// inverted: it is shown as that hash. Arrays and tuples are refused when
// parsing. The decoder is our own rather than go-ethereum's accounts/abi:
// it returns display strings directly, refuses any word whose padding is not
// canonical, and bounds every offset and length read from log data, which
// comes from an untrusted contract; its tests check it against accounts/abi.
package event
