package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// btcFilterFile is the file in the store directory that keeps a BIP37
// wallet's filter parameters between runs. Filters of one tweak and one
// capacity put each element on the same bits, so a peer that sees the
// filters of several runs learns nothing from comparing them that one
// filter does not tell (docs/bip37.md, "Privacy"); a new tweak at each
// restart would let it intersect them.
const btcFilterFile = "bip37-filter.json"

// btcFilterState is what the file holds.
type btcFilterState struct {
	Tweak    uint32 `json:"tweak"`
	Capacity uint32 `json:"capacity"` // elements the last filter was sized for; only grows
}

// loadBTCFilterState reads the state kept in dir, or picks a random tweak
// if there is none yet.
// An empty dir (a store in memory) keeps nothing.
func loadBTCFilterState(dir string) (btcFilterState, error) {
	var st btcFilterState
	var b []byte
	err := fs.ErrNotExist
	if dir != "" {
		b, err = os.ReadFile(filepath.Join(dir, btcFilterFile))
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return st, err
	default:
		if err := json.Unmarshal(b, &st); err != nil || st.Tweak == 0 {
			return st, fmt.Errorf("%s: not a filter state (%s): remove it to start a new one", btcFilterFile, untrusted.Line(string(b), 80))
		}
	}
	for st.Tweak == 0 {
		var r [4]byte
		if _, err := rand.Read(r[:]); err != nil {
			return st, err
		}
		st.Tweak = binary.LittleEndian.Uint32(r[:])
	}
	return st, nil
}

// saveBTCFilterState writes st to dir atomically (a temporary file renamed
// over the old one). A capacity already kept that is larger stays.
func saveBTCFilterState(dir string, st btcFilterState) error {
	if old, err := os.ReadFile(filepath.Join(dir, btcFilterFile)); err == nil {
		var kept btcFilterState
		if json.Unmarshal(old, &kept) == nil && kept.Tweak == st.Tweak {
			st.Capacity = max(st.Capacity, kept.Capacity)
		}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, btcFilterFile+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	err = errors.Join(err, tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, btcFilterFile))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
