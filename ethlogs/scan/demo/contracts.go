package demo

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// EmitterCode returns the creation code of a contract that, called with
// calldata of n topics (32 bytes each, n from 0 to 4) followed by any data,
// emits LOGn with those topics and that data. Calldata shorter than 32n
// bytes makes the size underflow and the call run out of gas: a failed
// transaction with no log.
func EmitterCode(n int) []byte {
	runtime := []byte{0x36, 0x60, 0x00, 0x60, 0x00, 0x37} // CALLDATACOPY(0, 0, CALLDATASIZE)
	for i := n - 1; i >= 0; i-- {
		runtime = append(runtime, 0x60, byte(32*i), 0x51) // MLOAD(32i): topic i
	}
	runtime = append(runtime, 0x60, byte(32*n), 0x36, 0x03) // size = CALLDATASIZE - 32n
	runtime = append(runtime, 0x60, byte(32*n), 0xa0+byte(n), 0x00)
	init := []byte{0x60, byte(len(runtime)), 0x60, 12, 0x60, 0x00, 0x39, 0x60, byte(len(runtime)), 0x60, 0x00, 0xf3}
	return append(init, runtime...)
}

// The demo's event declarations, as "chainsieve eth scan --event" takes them.
const (
	Transfer   = "Transfer(address indexed from, address indexed to, uint256 value)"
	Approval   = "Approval(address indexed owner, address indexed spender, uint256 value)"
	Swap       = "Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
	Sync       = "Sync(uint112 reserve0, uint112 reserve1)"
	Registered = "Registered(address indexed owner, bytes32 indexed label, uint256 indexed id, string name)"
	Ping       = "Ping(address indexed from, bytes data)"
)

// topic returns topic 0 of a canonical signature.
func topic(sig string) common.Hash { return crypto.Keccak256Hash([]byte(sig)) }

var (
	transferTopic   = topic("Transfer(address,address,uint256)")
	approvalTopic   = topic("Approval(address,address,uint256)")
	swapTopic       = topic("Swap(address,uint256,uint256,uint256,uint256,address)")
	syncTopic       = topic("Sync(uint112,uint112)")
	registeredTopic = topic("Registered(address,bytes32,uint256,string)")
	pingTopic       = topic("Ping(address,bytes)")
)

// Users are the accounts that appear in the demo's events.
var Users = func() []common.Address {
	var us []common.Address
	for _, name := range []string{"alice", "bob", "carol", "dave", "erin", "frank"} {
		us = append(us, common.BytesToAddress(crypto.Keccak256([]byte(name))))
	}
	return us
}()
