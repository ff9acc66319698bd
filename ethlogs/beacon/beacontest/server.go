package beacontest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/attestantio/go-eth2-client/spec/phase0"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Server serves a [Chain] over the beacon API's light-client endpoints on
// 127.0.0.1, honestly or with one [Lie].
type Server struct {
	URL string // http://127.0.0.1:port

	chain      *Chain
	lie        Lie
	attacker   *committee // for ForgedCommittee
	maxUpdates int
	finality   []byte // the finality update's answer, lie applied
	optimistic []byte
	srv        *http.Server
	requests   atomic.Int64
	bytes      atomic.Int64
}

// Serve starts a server for the chain on a port of 127.0.0.1 the kernel
// picks. maxUpdates > 0 caps the updates in one answer: a server may send
// fewer than asked. Close stops it.
func (c *Chain) Serve(lie Lie, maxUpdates int) (*Server, error) {
	if lie < 0 || lie >= lies {
		return nil, fmt.Errorf("beacontest: unknown lie %d", lie)
	}
	s := &Server{chain: c, lie: lie, maxUpdates: maxUpdates}
	if lie == ForgedCommittee {
		var err error
		if s.attacker, err = c.attacker(); err != nil {
			return nil, err
		}
	}
	if err := s.prepareFinality(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("beacontest: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /eth/v1/beacon/light_client/bootstrap/{root}", s.bootstrap)
	mux.HandleFunc("GET /eth/v1/beacon/light_client/updates", s.updates)
	mux.HandleFunc("GET /eth/v1/beacon/light_client/finality_update", s.finalityUpdate)
	mux.HandleFunc("GET /eth/v1/beacon/light_client/optimistic_update", s.optimisticUpdate)
	s.URL = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Stats returns the requests answered and the bytes of their bodies.
func (s *Server) Stats() (requests int, bytes int64) {
	return int(s.requests.Load()), s.bytes.Load()
}

func (s *Server) write(w http.ResponseWriter, status int, body []byte) {
	s.requests.Add(1)
	s.bytes.Add(int64(len(body)))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.write(w, http.StatusOK, b)
}

// fail answers with the beacon API's error object.
func (s *Server) fail(w http.ResponseWriter, status int, message string) {
	b, _ := json.Marshal(map[string]any{"code": status, "message": message})
	s.write(w, status, b)
}

func (s *Server) bootstrap(w http.ResponseWriter, r *http.Request) {
	c := s.chain
	root, ok := parseRoot(r.PathValue("root"))
	if !ok {
		s.fail(w, http.StatusBadRequest, "invalid block root")
		return
	}
	b := c.blocks[root]
	if b == nil {
		s.fail(w, http.StatusNotFound, "no light client bootstrap for this block root")
		return
	}
	if s.lie == OtherCheckpoint {
		b = c.updates[FirstPeriod].finalized
	}
	s.writeJSON(w, c.bootstrapJSON(b))
}

func parseRoot(s string) (common.Hash, bool) {
	if len(s) != 66 || !strings.HasPrefix(s, "0x") {
		return common.Hash{}, false
	}
	b, err := hex.DecodeString(s[2:])
	return common.BytesToHash(b), err == nil
}

func (s *Server) updates(w http.ResponseWriter, r *http.Request) {
	c := s.chain
	start, err1 := strconv.ParseUint(r.URL.Query().Get("start_period"), 10, 64)
	count, err2 := strconv.ParseUint(r.URL.Query().Get("count"), 10, 64)
	if err := errors.Join(err1, err2); err != nil || count > 128 {
		s.fail(w, http.StatusBadRequest, "start_period and count (at most 128) are required")
		return
	}
	var list []*update
	for p := start; p-start < count && c.updates[p] != nil; p++ {
		list = append(list, c.updates[p])
	}
	if s.maxUpdates > 0 && len(list) > s.maxUpdates {
		list = list[:s.maxUpdates]
	}
	switch s.lie {
	case UnprovenPeriod:
		list = nil
	case UpdatesOutOfOrder:
		if len(list) >= 2 {
			list[0], list[1] = list[1], list[0]
		} else if next := c.updates[start+1]; len(list) == 1 && next != nil {
			list[0] = next
		}
	}
	out := make([]envelope, len(list))
	for i, u := range list {
		env, j := c.updateJSON(u, true)
		switch p := u.attested.header.Slot / params.SyncPeriodLength; {
		case s.lie == WrongCommitteeBranch && i == 0:
			j.NextBranch = corrupt(j.NextBranch)
		case s.lie == ForgedCommittee && p+1 == c.last:
			j.Next = s.attacker.serialized
		}
		out[i] = env
	}
	s.writeJSON(w, out)
}

func (s *Server) finalityUpdate(w http.ResponseWriter, _ *http.Request) {
	switch s.lie {
	case ServerError:
		body := bytes.Repeat([]byte("\x1b[31minternal error\x07 at the beacon node\x00 "), 40)
		s.write(w, http.StatusInternalServerError, body)
	default:
		s.write(w, http.StatusOK, s.finality)
	}
}

func (s *Server) optimisticUpdate(w http.ResponseWriter, _ *http.Request) {
	s.write(w, http.StatusOK, s.optimistic)
}

// prepareFinality writes the finality update's answer once, with the
// lie, re-signing where the lie changes what is signed.
func (s *Server) prepareFinality() error {
	c := s.chain
	u := c.finality
	switch s.lie {
	case Stale:
		u = c.stale
	case RolledBack:
		u = c.rolledBack
	}
	env, j := c.updateJSON(u, false)
	attested := u.attested.root()
	signers := c.committees[u.signatureSlot/params.SyncPeriodLength]
	resign := func(k *committee, n int, root common.Hash, epoch uint64) (err error) {
		j.Aggregate, err = c.sign(k, n, root, epoch)
		return err
	}
	var err error
	switch s.lie {
	case BadSignature:
		err = resign(signers, params.SyncCommitteeSize, c.checkpoint.root(), c.signingEpoch(u.signatureSlot))
	case LowParticipation:
		err = resign(signers, params.SyncCommitteeSupermajority-1, attested, c.signingEpoch(u.signatureSlot))
	case ForgedCommittee:
		err = resign(s.attacker, params.SyncCommitteeSize, attested, c.signingEpoch(u.signatureSlot))
	case AttestedForkSignature:
		err = resign(signers, params.SyncCommitteeSize, attested, u.attested.header.Slot/params.EpochLength)
	case SignatureSlotNotAfterAttested, FutureSignature:
		sig := u.attested.header.Slot
		if s.lie == FutureSignature {
			sig = u.signatureSlot + 100
		}
		j.SignatureSlot = decimal(sig)
		err = resign(signers, params.SyncCommitteeSize, attested, c.signingEpoch(sig))
	case WrongFinalityBranch:
		j.FinalityBranch = corrupt(j.FinalityBranch)
	case WrongExecutionBranch:
		j.Finalized.ExecutionBranch = corrupt(j.Finalized.ExecutionBranch)
	case ForgedBlockHash:
		hash := crypto.Keccak256Hash([]byte("beacontest forged block"))
		if j.Finalized.Execution == nil {
			j.Finalized.ExecutionBlockHash = &hash
			break
		}
		forged := *j.Finalized.Execution
		forged.BlockHash = phase0.Hash32(hash)
		j.Finalized.Execution = &forged
	}
	if err != nil {
		return err
	}
	if s.finality, err = json.Marshal(env); err != nil {
		return fmt.Errorf("beacontest: %w", err)
	}
	optimistic := map[string]any{"attested_header": j.Attested, "sync_aggregate": j.Aggregate, "signature_slot": j.SignatureSlot}
	if s.optimistic, err = json.Marshal(envelope{Version: env.Version, Data: optimistic}); err != nil {
		return fmt.Errorf("beacontest: %w", err)
	}
	switch s.lie {
	case Oversized:
		s.finality = append(bytes.Repeat([]byte(" "), 2<<20), s.finality...)
	case Garbage:
		s.finality = []byte("\x1b[2J\x1b[31mnot JSON\x00\x07 <html><body>502 Bad Gateway</body></html>")
	}
	return nil
}
