package beacon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/ethereum/go-ethereum/common"
)

// state is what one run leaves the next in the state file: the network,
// the newest finalized header accepted (a later run must not go back
// from it) and the checkpoint to bootstrap from when none is given.
type state struct {
	GenesisValidatorsRoot common.Hash `json:"genesis_validators_root"`
	Checkpoint            common.Hash `json:"checkpoint"`
	FinalizedSlot         uint64      `json:"finalized_slot,string"`
	FinalizedRoot         common.Hash `json:"finalized_root"`
}

const stateLimit = 4 << 10

// readState reads the state file at path; a missing file is the empty
// state. A file of another network is an error.
func readState(path string, gvr common.Hash) (state, error) {
	var st state
	if path == "" {
		return st, nil
	}
	fail := func(format string, args ...any) (state, error) {
		return state{}, &Error{Endpoint: path, Check: CheckState, Err: fmt.Errorf(format, args...)}
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return fail("%v", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, stateLimit+1))
	switch {
	case err != nil:
		return fail("%v", err)
	case len(b) > stateLimit:
		return fail("larger than %d bytes: not a state file", stateLimit)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return fail("corrupt (%s): remove it to start over from a checkpoint", untrusted.Text(err.Error()))
	}
	if st.GenesisValidatorsRoot != gvr {
		return fail("it belongs to the network with genesis validators root %s, not %s", st.GenesisValidatorsRoot, gvr)
	}
	return st, nil
}

// writeState replaces the state file at path atomically: a crash leaves
// the old file or the new one, never half of one.
func writeState(path string, st state) error {
	fail := func(err error) error { return &Error{Endpoint: path, Check: CheckState, Err: err} }
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fail(err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}
