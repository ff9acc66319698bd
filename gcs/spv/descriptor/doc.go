// Package descriptor parses the single-key output script descriptors a
// watch-only Bitcoin wallet is described by, and derives their output
// scripts and addresses: pkh(KEY), wpkh(KEY), sh(wpkh(KEY)) and tr(KEY)
// (BIP380, BIP381, BIP382, BIP386), where KEY is a hex public key or an
// extended public key with an optional origin, derivation steps, a BIP389
// multipath step such as /<0;1> (receiving and change) and a final /*.
//
// Derivation, hashing, address encoding and script assembly are btcd's
// (hdkeychain, address, txscript); this package adds the descriptor
// language on top: the BIP380 checksum ([Checksum]), the grammar, and the
// rules a descriptor of public keys must follow. It refuses what it cannot
// derive with an [*Error] naming the byte offset: private keys (a
// watch-only wallet never needs them), hardened steps after an extended
// public key, the other BIP380 forms (pk, multi, wsh, tr with a script
// tree, …), and extended keys of another network than the one the caller
// names. That last rule settles an ambiguity of the encoding: testnet3,
// testnet4, signet and regtest all write their keys as tpub, so the caller
// names the network and the addresses follow it.
//
// For the gap-limit bookkeeping of a wallet that watches ranged
// descriptors, see package gcs/spv/wallet.
package descriptor
