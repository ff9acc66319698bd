package beacon

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/beacon/types"
	blsu "github.com/protolambda/bls12-381-util"
)

// sameKeyCommittee is a committee whose 512 members and aggregate are all
// the public key of secret key sk.
func sameKeyCommittee(t *testing.T, sk int64) *types.SerializedSyncCommittee {
	t.Helper()
	var b [32]byte
	big.NewInt(sk).FillBytes(b[:])
	s := new(blsu.SecretKey)
	if err := s.Deserialize(&b); err != nil {
		t.Fatal(err)
	}
	pk, err := blsu.SkToPk(s)
	if err != nil {
		t.Fatal(err)
	}
	key := pk.Serialize()
	c := new(types.SerializedSyncCommittee)
	for i := 0; i <= params.SyncCommitteeSize; i++ {
		copy(c[i*params.BLSPubkeySize:], key[:])
	}
	return c
}

// TestKeyCache: a committee's keys come from the cache the second time,
// equal to go-ethereum's deserialization; the cache holds keyCacheSize
// committees, dropping the least recently used; an invalid key is an
// error, never kept.
func TestKeyCache(t *testing.T) {
	var kc keyCache
	committees := make([]*types.SerializedSyncCommittee, keyCacheSize+1)
	first := make([]*types.SyncCommittee, len(committees))
	for i := range committees {
		committees[i] = sameKeyCommittee(t, int64(i+1))
		keys, err := kc.deserialize(committees[i])
		if err != nil {
			t.Fatal(err)
		}
		want, err := committees[i].Deserialize()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(keys, want) {
			t.Fatalf("committee %d: the cache's keys are not go-ethereum's", i)
		}
		first[i] = keys
		if i == 1 {
			if again, _ := kc.deserialize(committees[0]); again != first[0] { // 0 is now the most recent
				t.Fatal("committee 0 asked again: deserialized again, want the cached keys")
			}
		}
	}
	if len(kc.entries) != keyCacheSize {
		t.Fatalf("%d committees kept, want %d", len(kc.entries), keyCacheSize)
	}
	if again, _ := kc.deserialize(committees[0]); again != first[0] {
		t.Error("committee 0, used after committee 1, was dropped")
	}
	if again, _ := kc.deserialize(committees[1]); again == first[1] {
		t.Error("committee 1, the least recently used, is still cached")
	}

	bad := *committees[2]
	for i := range params.BLSPubkeySize {
		bad[5*params.BLSPubkeySize+i] = 0xff // not a compressed point
	}
	kept := len(kc.entries)
	if _, err := kc.deserialize(&bad); err == nil {
		t.Error("a committee with an invalid key deserialized")
	}
	if len(kc.entries) != kept || kc.entries[len(kc.entries)-1].committee == bad {
		t.Error("the invalid committee was kept")
	}
}
