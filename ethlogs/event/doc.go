// Package event reads Solidity event declarations, such as
//
//	Transfer(address indexed from, address indexed to, uint256 value)
//
// or an ABI JSON file, turns the values of indexed arguments into the
// topics of an eth_getLogs query, and decodes the logs it finds into
// display strings, Go values or your own structs.
//
// An event's topic 0 is the Keccak-256 of its canonical signature: the name
// and the parameter types, without names, without "indexed" and without
// spaces, with uint and int written uint256 and int256
// ("Transfer(address,address,uint256)"). Indexed parameters follow in topics
// 1 to 3, each one 32-byte word: the value itself for a type that fits a
// word, else the Keccak-256 of its encoding, which cannot be inverted
// ([EncodeTopic]). The other parameters are ABI-encoded in the log's data,
// in declaration order.
//
// Where to start:
//
//   - [Parse] reads a declaration, with or without "indexed" (cast's
//     Transfer(address,address,uint256) works: each log's topic count then
//     says which parameters are indexed, see [Event.Layouts]); [ParseABI]
//     and [ABI.Event] select an event from an ABI file.
//   - [Event.Filter] and [Event.FilterPositional] turn NAME=VALUE
//     conditions, or cast's positional values, into topics
//     ([Filter.Apply] adds them to an [ethlogs.Query]); [ParseValue] reads
//     one value as cast does.
//   - [Event.Unpack] fills a struct, [Event.Values] gives Go values and
//     [Event.Decode] display strings.
//   - A verified scan that asks by value and fills a struct for each log is
//     package ethlogs/scan's Example (eventFilter).
//
// Every type the ABI gives events is supported: address, bool, uintN, intN,
// bytesN, bytes, string, fixed and dynamic arrays, and tuples (structs);
// Solidity's function type and fixed-point numbers are not. The decoder is
// our own rather than go-ethereum's accounts/abi (which reads the ABI JSON
// here): it refuses any word whose padding is not canonical, bounds every
// offset and length read from log data, which comes from an untrusted
// contract, and budgets the words it reads so that overlapping offsets
// cannot inflate a small log; its tests check it against accounts/abi and
// against logs emitted by Solidity-compiled code.
package event
