package beacon

import "github.com/ethereum/go-ethereum/beacon/params"

// Decode runs the decoder of one endpoint's answer (0 bootstrap, 1
// updates, 2 finality update) and returns its error as Anchor reports it.
func Decode(kind byte, body []byte, chain *params.ChainConfig) error {
	var err error
	switch kind % 3 {
	case 0:
		_, err = decodeBootstrap(body, chain)
	case 1:
		_, err = decodeUpdates(body, chain)
	case 2:
		_, err = decodeUpdate(body, chain, false)
	}
	if err != nil {
		return decodeError(err, body)
	}
	return nil
}

// ForgetCommitteeKeys empties the cache of deserialized committees, so
// that each Anchor of a benchmark pays for them, as one run of the CLI
// does.
func ForgetCommitteeKeys() {
	committeeKeys.mu.Lock()
	defer committeeKeys.mu.Unlock()
	committeeKeys.entries = nil
}
