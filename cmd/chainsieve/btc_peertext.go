package main

import "github.com/chainsieve/chainsieve/core/untrusted"

// maxPeerText bounds what one printed message shows of text that may
// quote a peer: a ban reason, an error, a user agent. Our own messages
// are far shorter; a peer's reject reason can be megabytes.
const maxPeerText = 1000

// peerText makes a message that may quote a peer one safe line for the
// terminal ([untrusted.Line]).
func peerText(s string) string { return untrusted.Line(s, maxPeerText) }
