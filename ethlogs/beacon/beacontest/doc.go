// Package beacontest serves a synthetic beacon chain over the beacon
// API's light-client endpoints (beacon-APIs apis/beacon/light_client:
// bootstrap, updates, finality_update, optimistic_update) on 127.0.0.1,
// for tests of package beacon and for the CLI's offline demo.
//
// The chain is small but real where a light client looks: its sync
// committees are 512 BLS keys each (one committee per period, drawn from
// a seed), its aggregate signatures verify with go-ethereum's BLS, its
// beacon blocks carry execution payload headers built from the
// go-ethereum headers the caller gives, so the anchor a client finds is a
// real execution block. Everything a client cannot see is filler: the
// beacon state and block body are sparse Merkle trees holding only the
// leaves light clients prove (sync committees, finalized root, execution
// payload or, in Gloas, execution block hash) at go-ethereum's
// generalized indices for Deneb, Electra, Fulu and Gloas.
//
// A [Server] can tell one [Lie] at a time — a bad signature, a short
// committee, a corrupted branch, a stale or rolled-back finalized header,
// garbage — each of which a correct client must reject with its own
// check.
//
// Not modelled: Capella-only headers, a chain crossing into Gloas (a
// Gloas chain is Gloas from genesis), SSZ answers, the events
// stream, parent links between beacon blocks, and the transactions and
// withdrawals roots of payloads (zero: a header does not carry them).
package beacontest
