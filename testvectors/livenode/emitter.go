package livenode

import "golang.org/x/crypto/sha3"

// The event topics the emitter contract logs: Keccak-256 of each event
// signature, as Solidity would compute them.
var (
	CreatedTopic = keccak256("Created()")
	PingTopic    = keccak256("Ping(address,bytes)")
)

// EVM opcodes the emitter uses.
const (
	opStop         = 0x00
	opCaller       = 0x33
	opCallDataSize = 0x36
	opCallDataCopy = 0x37
	opCodeCopy     = 0x39
	opPush1        = 0x60
	opPush32       = 0x7f
	opLog1         = 0xa1
	opLog2         = 0xa2
	opReturn       = 0xf3
)

// EmitterCode returns the creation code of an event-emitter contract,
// assembled by hand so that no Solidity compiler is needed. Deploying it
// logs Created() (one topic, no data). Every call to it, with any calldata
// and from any sender, logs Ping(address indexed caller, bytes data): topic
// 0 is [PingTopic], topic 1 the caller's address left-padded to 32 bytes,
// and the log data is the raw calldata (not ABI-encoded). It never reverts.
func EmitterCode() []byte {
	// Runtime: copy the calldata to memory at 0 and log it with LOG2.
	runtime := []byte{opCallDataSize, opPush1, 0, opPush1, 0, opCallDataCopy, opCaller, opPush32}
	runtime = append(runtime, PingTopic[:]...)
	runtime = append(runtime, opCallDataSize, opPush1, 0, opLog2, opStop)

	// Constructor: LOG1 Created(), then copy the runtime, which follows
	// the constructor, to memory and return it as the contract's code.
	code := append([]byte{opPush32}, CreatedTopic[:]...)
	code = append(code, opPush1, 0, opPush1, 0, opLog1)
	n := byte(len(runtime))
	code = append(code,
		opPush1, n, opPush1, 0 /* runtime offset, set below */, opPush1, 0, opCodeCopy,
		opPush1, n, opPush1, 0, opReturn)
	code[len(code)-9] = byte(len(code))
	return append(code, runtime...)
}

func keccak256(s string) EthHash {
	var h EthHash
	k := sha3.NewLegacyKeccak256()
	k.Write([]byte(s))
	k.Sum(h[:0])
	return h
}
