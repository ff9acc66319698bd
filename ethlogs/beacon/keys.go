package beacon

import (
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/beacon/types"
)

// committeeKeys keeps the keys of the sync committees deserialized last.
// Decompressing and subgroup-checking a committee's 513 keys takes about
// 43 ms of CPU (go-ethereum's Deserialize, 2 cores, 2026-11-29), and a
// process that anchors again and again (a wallet before each scan, a test
// suite) meets the same committee for a whole period, 27 hours.
var committeeKeys keyCache

// keyCacheSize bounds the cache: the committees of this period and the
// next, for two chains.
const keyCacheSize = 4

// keyCache maps a committee's exact bytes to its deserialized keys, most
// recently used last.
type keyCache struct {
	mu      sync.Mutex
	entries []keyEntry
}

type keyEntry struct {
	committee types.SerializedSyncCommittee
	keys      *types.SyncCommittee // read-only once made
}

// deserialize returns c's keys, from the cache or deserialized; a
// committee with an invalid key is an error and is not kept.
func (kc *keyCache) deserialize(c *types.SerializedSyncCommittee) (*types.SyncCommittee, error) {
	kc.mu.Lock()
	if i := kc.index(c); i >= 0 {
		e := kc.entries[i]
		copy(kc.entries[i:], kc.entries[i+1:])
		kc.entries[len(kc.entries)-1] = e
		kc.mu.Unlock()
		return e.keys, nil
	}
	kc.mu.Unlock()
	keys, err := c.Deserialize()
	if err != nil {
		return nil, err
	}
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if kc.index(c) >= 0 {
		return keys, nil // another anchor kept it meanwhile
	}
	if len(kc.entries) == keyCacheSize {
		kc.entries = slices.Delete(kc.entries, 0, 1)
	}
	kc.entries = append(kc.entries, keyEntry{*c, keys})
	return keys, nil
}

// index is the position of c's entry, or -1; kc.mu is held.
func (kc *keyCache) index(c *types.SerializedSyncCommittee) int {
	for i := range kc.entries {
		if kc.entries[i].committee == *c {
			return i
		}
	}
	return -1
}
