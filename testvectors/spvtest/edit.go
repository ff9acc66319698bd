package spvtest

import "github.com/btcsuite/btcd/wire/v2"

// On returns an [Edit] that applies f to the messages of type M and passes
// the rest unchanged.
func On[M wire.Message](f func(m M) []wire.Message) Edit {
	return func(msg wire.Message) []wire.Message {
		if m, ok := msg.(M); ok {
			return f(m)
		}
		return Keep(msg)
	}
}

// Keep is what an [Edit] returns to pass msg unchanged.
func Keep(msg wire.Message) []wire.Message { return []wire.Message{msg} }

// Stall returns an [Edit] that drops every message whose command is one of
// commands and, from the first of them on, the pongs that would end the
// request: a peer that goes quiet while it owes them.
func Stall(commands ...string) Edit {
	stalled := false
	return func(msg wire.Message) []wire.Message {
		for _, c := range commands {
			if msg.Command() == c {
				stalled = true
				return nil
			}
		}
		if _, ok := msg.(*wire.MsgPong); ok && stalled {
			return nil
		}
		return Keep(msg)
	}
}
