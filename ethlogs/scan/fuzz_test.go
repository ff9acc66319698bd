package scan

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
)

const sampleBlock = `{"baseFeePerGas":"0x3b9aca00","blobGasUsed":"0x0","difficulty":"0x0","excessBlobGas":"0x0","extraData":"0x","gasLimit":"0x1c9c380","gasUsed":"0x0","hash":"0x9d0c5bcb0e0b7e1a0d72b5c3b4a2e7e48b8cd2b6b1b3e6f1c8f2b4e5d6c7a8b9","logsBloom":"0x00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000","miner":"0x0000000000000000000000000000000000000000","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","nonce":"0x0000000000000000","number":"0x1","parentBeaconBlockRoot":"0x0000000000000000000000000000000000000000000000000000000000000000","parentHash":"0xa1a4831780e6695a189b3cd0717a536bdbe74757e73b7591939e38016a1208a0","receiptsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","requestsHash":"0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","sha3Uncles":"0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347","size":"0x269","stateRoot":"0x0000000000000000000000000000000000000000000000000000000000000000","timestamp":"0xa","transactions":[],"transactionsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","withdrawalsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"}`

// FuzzBlockJSON decodes arbitrary block objects two ways, with our
// one-pass blockJSON and with go-ethereum's types.Header decoder: they
// must accept the same objects and give headers with the same hash.
func FuzzBlockJSON(f *testing.F) {
	f.Add([]byte(sampleBlock))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var bj blockJSON
		err := json.Unmarshal(data, &bj)
		var ours *types.Header
		if err == nil {
			ours, err = bj.header()
		}
		var theirs types.Header
		gerr := json.Unmarshal(data, &theirs)
		if (err == nil) != (gerr == nil) {
			t.Fatalf("blockJSON: %v, types.Header: %v", err, gerr)
		}
		if err == nil && ours.Hash() != theirs.Hash() {
			t.Fatalf("hash %s, types.Header's %s", ours.Hash(), theirs.Hash())
		}
	})
}
