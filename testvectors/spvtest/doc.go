// Package spvtest is test support for the light-client scans (packages
// gcs/spv, gcs/cfscan and bip37/bloomscan): a regtest chain with a wallet's
// history built on a real node ([NewScenario]) of each kind the scans are
// tested against ([Nodes]), what a scan of it needs ([Scenario.NewScan]),
// the network definition of Litecoin's regtest for tests against
// litecoind ([LitecoinRegtest]), and a loopback proxy that lets a test
// rewrite what a node sends ([Proxy], with edits such as [On] and
// [Stall]), to play a lying or stalling peer.
//
// Like testvectors/livenode, on which it builds, it talks to 127.0.0.1
// only, and its node tests are skipped under go test -short. It lives under
// testvectors, above the packages it tests, so that only their _test.go
// files import it and every non-test import points down.
package spvtest
