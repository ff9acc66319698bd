// Package beacon finds a trusted anchor for an Ethereum execution chain:
// the newest finalized beacon block, proven by the beacon chain's sync
// committee from a trusted checkpoint, and the execution block hash it
// commits to. It runs the Altair light-client protocol (consensus-specs
// specs/altair/light-client/sync-protocol.md and its Capella to Gloas
// successors) over an untrusted beacon node's REST API (beacon-APIs
// /eth/v1/beacon/light_client/*) in one shot: [Anchor] bootstraps from
// the checkpoint, verifies one sync committee update per period, then the
// latest finality update, and returns a [Finalized].
//
// What it proves: if two thirds of each sync committee from the
// checkpoint's on were honest, the execution block Finalized.BlockHash
// was finalized by the beacon chain, no longer ago than Config.MaxAge.
// What it assumes: the checkpoint is a finalized block root from a source
// the caller trusts, inside the weak-subjectivity period (its age is
// checked); the chain configuration is pinned by the caller (the server's
// own is never read); the local clock is right. What it does not prove:
// that no later block was finalized (a server may withhold finality up to
// Config.MaxAge), or anything about blocks after the anchor. docs/beacon.md
// has the details and a trust table.
//
// The proofs are go-ethereum's (beacon/merkle, beacon/params,
// beacon/types, BLS via SerializedSyncCommittee); this package adds what
// go-ethereum's light client leaves out: the spec's signing fork
// (epoch(signature_slot − 1)), signature_slot > attested_slot, a clock
// (no future slots, stale finality refused), a two-thirds participation
// floor everywhere, a state file that refuses a rolled-back finalized
// header, bounded answers and timeouts, and errors ([*Error]) that name
// the request, the object and the [Check] that failed.
//
// Only the mainnet preset (512 sync committee members, 32-slot epochs,
// 12-second slots) exists, as in go-ethereum's beacon packages; the
// package refuses to build if theirs changes. Package beacontest serves a
// synthetic chain with a real BLS sync committee for tests and demos.
package beacon
