// Package store keeps a Bitcoin light client's block headers and BIP157
// filter headers on disk, crash-safe, so that a wallet verifies each header
// once and a rerun downloads only what is new.
//
// A store is a directory of four files:
//
//	headers  84-byte records: an 80-byte block header and a CRC-32C
//	filters  36-byte records: a 32-byte basic filter header and a CRC-32C
//	state    the committed tips (164 bytes, checksummed; see [State])
//	lock     flock'd by the one process that writes; holds its pid
//
// Both record files are append-only arrays indexed by height: record i of
// headers is the header at Base()+i, of filters the filter header at
// FilterBase()+i, so a lookup is one pread and memory does not grow with the
// chain. Each record's checksum covers its height too, so a record written
// at the wrong place fails like a torn one.
//
// Appends are written at once but are durable only after [Store.Commit]:
// it fsyncs the record files, then writes the state to a temporary file,
// fsyncs it, renames it over the old state and fsyncs the directory. A crash
// at any instant leaves the old state or the new one, and records beyond the
// state are dropped at the next [Open]. Lowering a tip (a reorganisation)
// commits the lowered state before the files shrink. Open also repairs what
// a lying disk can leave: a partial last record is dropped, a file shorter
// than the state lowers the tip, and the last records' checksums and header
// links are re-checked ([Store.Recovered] says what was repaired).
//
// Beside them a store keeps small files for its users, each replaced whole
// ([Store.PutFile]: temporary file, fsync, rename, directory fsync) and
// read back checked ([Store.ReadFile]: a CRC-32C over the file's name and
// data, its size bounded before it is read), under the same lock: package
// gcs/lightclient keeps a wallet's state and the peers it learnt there.
//
// The store checks no consensus rule: package gcs/spv verifies headers
// before it appends them, package gcs/cfscan filter headers. A Store is not
// safe for concurrent use.
package store
