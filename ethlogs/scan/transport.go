package scan

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// transport carries requests to an endpoint and streams each answer
// through a jsonReader.
type transport interface {
	// exchange sends body and hands the answer to read, within the
	// client's timeout.
	exchange(ctx context.Context, body []byte, read func(*jsonReader) error) error
	close() error
}

// endpoint is a parsed endpoint string.
type endpoint struct {
	scheme string // http, https, ws, wss; "" for an IPC socket
	where  string // host:port, or the socket's path
}

// CheckEndpoint reports whether NewClient can use s: an http://, https://,
// ws:// or wss:// URL with a host, or the path of a node's IPC socket (a
// string without "://"; HOST:PORT alone is refused as a URL that lost its
// scheme). It reads no file and dials nothing. Its error quotes s and has
// no package prefix: it follows the name of the flag that held s.
func CheckEndpoint(s string) error {
	_, err := parseEndpoint(s)
	return err
}

func parseEndpoint(s string) (endpoint, error) {
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return endpoint{}, fmt.Errorf("%q is not a URL", s)
		}
		switch u.Scheme {
		case "http", "https", "ws", "wss":
		default:
			return endpoint{}, fmt.Errorf("%q: the scheme is not http, https, ws or wss", s)
		}
		if u.Host == "" {
			return endpoint{}, fmt.Errorf("%q has no host", s)
		}
		return endpoint{scheme: u.Scheme, where: u.Host}, nil
	}
	if s == "" {
		return endpoint{}, errors.New(`"" is neither a URL nor the path of an IPC socket`)
	}
	if strings.ContainsRune(s, 0) {
		return endpoint{}, fmt.Errorf("%q: a path cannot hold a NUL byte", s)
	}
	if _, port, err := net.SplitHostPort(s); err == nil {
		if _, err := strconv.ParseUint(port, 10, 16); err == nil {
			return endpoint{}, fmt.Errorf("%q has no scheme: http://%s or ws://%s (or the path of an IPC socket)", s, s, s)
		}
	}
	return endpoint{where: s}, nil
}

// transport returns the client's transport, made on first use.
func (c *Client) transport() (transport, error) {
	c.once.Do(func() {
		e, err := parseEndpoint(c.URL)
		if err != nil {
			c.trErr = fmt.Errorf("scan: endpoint %v", err)
			return
		}
		switch e.scheme {
		case "http", "https":
			c.tr = &httpTransport{c: c}
		case "ws", "wss":
			c.tr = &streamTransport{c: c, dial: c.dialWS}
		default:
			c.tr = &streamTransport{c: c, dial: c.dialIPC}
		}
	})
	return c.tr, c.trErr
}

// UnreachableError is an endpoint that refused the connection, or whose
// host does not resolve, before it ever answered: retrying would only
// delay the error. (Once it has answered, such failures are retried as a
// node restarting.)
type UnreachableError struct {
	Endpoint string // host:port, or the socket's path
	Reason   string // "connection refused", "no such host", …
	Err      error
}

func (e *UnreachableError) Error() string {
	var dns *net.DNSError
	switch {
	case errors.As(e.Err, &dns):
		return fmt.Sprintf("the host of %s does not resolve (%s)", e.Endpoint, e.Reason)
	case errors.Is(e.Err, syscall.ENETUNREACH), errors.Is(e.Err, syscall.EHOSTUNREACH):
		return fmt.Sprintf("%s cannot be reached (%s)", e.Endpoint, e.Reason)
	}
	return fmt.Sprintf("nothing listens at %s (%s)", e.Endpoint, e.Reason)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// unreachable returns an *UnreachableError when err is a failure to dial
// rawURL for want of a listener, an address or a route; nil otherwise.
func unreachable(rawURL string, err error) error {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return nil
	}
	e, perr := parseEndpoint(rawURL)
	if perr != nil {
		return nil
	}
	where := e.where
	var dns *net.DNSError
	var errno syscall.Errno
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return &UnreachableError{Endpoint: where, Reason: dns.Err, Err: err}
	case errors.As(err, &errno) && (errno == syscall.ECONNREFUSED || errno == syscall.ENOENT ||
		errno == syscall.ENETUNREACH || errno == syscall.EHOSTUNREACH):
		return &UnreachableError{Endpoint: where, Reason: errno.Error(), Err: err}
	}
	return nil
}
