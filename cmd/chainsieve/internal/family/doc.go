// Package family builds each approximate-membership structure of chainsieve
// for n elements at a target false-positive rate ε and measures what it
// costs and what it gives: bits per element, the rate its own state predicts,
// the rate measured on random non-members, and (optionally) nanoseconds per
// insert and lookup.
//
// It is the one source of the numbers in docs/filters.md (chainsieve bench
// filters) and of the filter-family series in the privacy report's
// bits-per-element plot, so the two cannot disagree. Measurements are
// deterministic for a seed except the timings.
package family
