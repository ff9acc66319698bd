package main

import (
	"fmt"
	"net"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
)

// startDemo serves the demo chain on 127.0.0.1, first checking that this
// machine can: the node's own failure when loopback is down ("did not
// answer within 5 s") would not say why.
func startDemo() (*demo.Chain, error) {
	if err := checkLoopback(2 * time.Second); err != nil {
		return nil, fmt.Errorf("the demo chain is served on 127.0.0.1, and %v: is the loopback interface down? Scan a node with --rpc URL instead", err)
	}
	chain, err := demo.Start(demo.DefaultBlocks)
	if err != nil {
		return nil, fmt.Errorf("the demo chain's node on 127.0.0.1: %w", err)
	}
	return chain, nil
}

// checkLoopback binds a port on 127.0.0.1 and connects to it.
func checkLoopback(timeout time.Duration) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("no port on it can be bound (%v)", err)
	}
	defer l.Close()
	accepted := make(chan error, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			c.Close()
		}
		accepted <- err
	}()
	c, err := net.DialTimeout("tcp", l.Addr().String(), timeout)
	if err != nil {
		return fmt.Errorf("a port bound on it cannot be reached (%v)", err)
	}
	c.Close()
	return <-accepted
}
