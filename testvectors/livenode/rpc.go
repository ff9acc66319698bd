package livenode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// maxResponse bounds a JSON-RPC answer read into memory; a regtest block
// in hex is far smaller.
const maxResponse = 64 << 20

// RPC is a JSON-RPC client for one node on 127.0.0.1: HTTP POST, basic
// auth when a user is set. It is safe for concurrent use.
type RPC struct {
	url        string
	user, pass string
	version    string // the "jsonrpc" member: "1.0" for Bitcoin nodes, "2.0" for geth
	client     *http.Client
	id         atomic.Uint64
}

// newRPC returns a client for the server at hostport, which must be a
// loopback address.
func newRPC(hostport, user, pass, version string) (*RPC, error) {
	if err := checkLoopback(hostport); err != nil {
		return nil, err
	}
	// An own transport: no proxy from the environment, and closing idle
	// connections touches this node only.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	return &RPC{url: "http://" + hostport + "/", user: user, pass: pass, version: version, client: client}, nil
}

// URL returns the server's address, such as http://127.0.0.1:18334/.
func (c *RPC) URL() string { return c.url }

// Auth returns the basic-auth user and password, empty for geth, for
// tests that hand the node to another client (the CLI, rpcclient).
func (c *RPC) Auth() (user, pass string) { return c.user, c.pass }

// closeIdle closes the client's idle keep-alive connections.
func (c *RPC) closeIdle() { c.client.CloseIdleConnections() }

// RPCError is an error answer from the node.
type RPCError struct {
	Method  string
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("livenode: %s: rpc error %d: %s", e.Method, e.Code, e.Message)
}

// Call invokes method with params and decodes the result into result,
// which may be nil to discard it. An error answer is an [*RPCError].
func (c *RPC) Call(ctx context.Context, result any, method string, params ...any) error {
	if params == nil {
		params = []any{} // btcd rejects a null params member
	}
	body, err := json.Marshal(map[string]any{
		"jsonrpc": c.version, "id": c.id.Add(1), "method": method, "params": params,
	})
	if err != nil {
		return fmt.Errorf("livenode: %s: %v", method, err)
	}
	raw, err := c.post(ctx, method, body)
	if err != nil {
		return err
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return fmt.Errorf("livenode: %s: bad answer %.200q: %v", method, raw, err)
	}
	if resp.Error != nil {
		resp.Error.Method = method
		return resp.Error
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Result, result); err != nil {
		return fmt.Errorf("livenode: %s: decode result %.200q: %v", method, resp.Result, err)
	}
	return nil
}

// post sends one request and returns the body. Bitcoin Core answers
// errors with HTTP 404 or 500 and a JSON body, so any status with a body
// is handed back for decoding; an empty one (401) is an error here.
func (c *RPC) post(ctx context.Context, method string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("livenode: %s: %v", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.user != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("livenode: %s: %w", method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("livenode: %s: read answer: %w", method, err)
	case len(raw) > maxResponse:
		return nil, fmt.Errorf("livenode: %s: answer over %d bytes", method, maxResponse)
	case len(bytes.TrimSpace(raw)) == 0:
		return nil, fmt.Errorf("livenode: %s: HTTP %s with an empty body", method, resp.Status)
	}
	return raw, nil
}
