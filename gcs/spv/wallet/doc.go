// Package wallet keeps the state of a watch-only Bitcoin wallet that a
// light-client scan feeds: the output scripts to watch, derived from
// descriptors up to a gap limit ([Scripts]), and the wallet's
// transactions, unspent outputs and balance as blocks connect and, in a
// reorg, disconnect ([Ledger]). [Wallet] ties the two together for a scan
// that follows the chain: each connected block's transactions go to the
// ledger, and the scripts they use extend the watch list.
//
// It does no network work and trusts its caller for the chain: the scan
// packages (gcs/cfscan, bip37/bloomscan) verify blocks and report the
// wallet's transactions; this package does the bookkeeping, exactly and in
// bounded memory (what the wallet owns, nothing else).
//
// Gap limit: for each chain (a ranged descriptor, such as the receiving
// or the change branch of a BIP389 /<0;1>/* descriptor) it watches child
// indexes 0 to maxUsed+gap, maxUsed being the highest index a transaction
// has paid (BIP44 stops after 20 unused addresses in a row: [DefaultGap]).
// When a payment raises maxUsed, the newly watched scripts are returned so
// that the scan can match them from the wallet's birthday.
//
// Between runs: [Wallet.Snapshot] returns the state as plain values (the
// chains as descriptor text with their used indexes, the ledger's
// transactions and tip) for the caller to keep, and [Restore] rebuilds the
// wallet from them, checking that the ledger holds together.
//
// Nothing here is safe for concurrent use; callers synchronise.
package wallet
