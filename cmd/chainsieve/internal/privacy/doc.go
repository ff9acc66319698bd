// Package privacy computes chainsieve's privacy and cost comparison of
// BIP37 Bloom filters, BIP157/158 compact block filters and Ethereum header
// blooms, and renders it as Markdown, self-contained HTML, JSON and CSV.
//
// Every number in a [Report] is a [Quantity] that carries its model, its
// assumptions and its source, and says what kind of number it is: an input,
// a value computed from a formula, a simulation, a size measured on the
// real data embedded in package testvectors, or a measurement read from a
// scan's statistics file. The filters are real: BIP37 filters are built with
// package bip37 under bitcoinj's historical wallet policy, Golomb-coded sets
// with package gcs, Ethereum blooms are the header blooms of real mainnet
// blocks read with package ethlogs. Formulas are evaluated exactly where
// that is cheap (binomial sums rather than Poisson approximations, finite-m
// Bloom fill rather than e^-x) and the report says where a model is only an
// approximation.
//
// [Build] is deterministic: the same [Config] (including its seed) gives
// the same report, byte for byte, so that a report can be regenerated and
// diffed. Random wallets, tweaks and candidates all come from one seeded
// generator.
//
// The package serves the "chainsieve report privacy" command and is not an
// API: its models are documented in docs/privacy.md.
package privacy
