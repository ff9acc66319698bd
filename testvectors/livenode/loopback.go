package livenode

import (
	"fmt"
	"net"
	"net/netip"
	"testing"
)

// loopback is the only host this package binds or dials.
const loopback = "127.0.0.1"

// checkLoopback returns an error unless hostport names a loopback IP
// address with a port, so that no test can reach beyond this machine.
func checkLoopback(hostport string) error {
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		return fmt.Errorf("livenode: %q is not an IP:port: %v", hostport, err)
	}
	if !ap.Addr().IsLoopback() || ap.Port() == 0 {
		return fmt.Errorf("livenode: %q is not a loopback address with a port", hostport)
	}
	return nil
}

// freePort returns a port on 127.0.0.1 that was free a moment ago. Nodes
// that cannot bind port 0 and report the real one (litecoind) get such a
// port; a lost race shows up as a failed start and is retried.
func freePort() (int, error) {
	l, err := net.Listen("tcp", loopback+":0")
	if err != nil {
		return 0, fmt.Errorf("livenode: find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// skipShort skips integration tests under go test -short.
func skipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("livenode: real nodes are not started under -short")
	}
}
