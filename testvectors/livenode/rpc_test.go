package livenode

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8332", true},
		{"127.1.2.3:8332", true},
		{"[::1]:8332", true},
		{"127.0.0.1:0", false},
		{"10.0.0.1:8332", false},
		{"192.168.1.1:8332", false},
		{"8.8.8.8:53", false},
		{"localhost:8332", false}, // names could resolve anywhere
		{"127.0.0.1", false},
	}
	for _, tt := range tests {
		if err := checkLoopback(tt.addr); (err == nil) != tt.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok %v", tt.addr, err, tt.ok)
		}
	}
}

func TestNewRPCRefusesRemote(t *testing.T) {
	if _, err := newRPC("93.184.216.34:80", "", "", "2.0"); err == nil {
		t.Error("newRPC(93.184.216.34:80) = nil error, want a refusal")
	}
}

// rpcServer answers every request with status and body, and records the
// last request body and basic-auth user.
func rpcServer(t *testing.T, status int, body string) (*RPC, *map[string]any, *string) {
	t.Helper()
	var got map[string]any
	var user string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &got)
		user, _, _ = r.BasicAuth()
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := newRPC(strings.TrimPrefix(srv.URL, "http://"), "u", "p", "1.0")
	if err != nil {
		t.Fatal(err)
	}
	return c, &got, &user
}

func TestRPCCall(t *testing.T) {
	c, req, user := rpcServer(t, http.StatusOK, `{"result":["00ff"],"error":null,"id":1}`)
	var res []string
	if err := c.Call(t.Context(), &res, "generate", 1); err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0] != "00ff" {
		t.Errorf("Call(generate) result = %q, want [00ff]", res)
	}
	if (*req)["method"] != "generate" || (*req)["jsonrpc"] != "1.0" || *user != "u" {
		t.Errorf("request = %v user %q, want method generate, jsonrpc 1.0, user u", *req, *user)
	}
	if params, ok := (*req)["params"].([]any); !ok || len(params) != 1 || params[0] != 1.0 {
		t.Errorf("request params = %v, want [1]", (*req)["params"])
	}
}

func TestRPCCallNoParams(t *testing.T) {
	c, req, _ := rpcServer(t, http.StatusOK, `{"result":5,"error":null,"id":1}`)
	if err := c.Call(t.Context(), nil, "getblockcount"); err != nil {
		t.Fatal(err)
	}
	if params, ok := (*req)["params"].([]any); !ok || len(params) != 0 {
		t.Errorf("request params = %#v, want [] (btcd rejects null)", (*req)["params"])
	}
}

func TestRPCCallErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantCode int // 0: not an *RPCError
	}{
		{"core error with HTTP 500", 500, `{"result":null,"error":{"code":-25,"message":"missing inputs"},"id":1}`, -25},
		{"method not found with HTTP 404", 404, `{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}`, -32601},
		{"unauthorized, empty body", 401, ``, 0},
		{"not JSON", 200, `<html>`, 0},
	}
	for _, tt := range tests {
		c, _, _ := rpcServer(t, tt.status, tt.body)
		err := c.Call(t.Context(), nil, "sendrawtransaction", "00")
		var re *RPCError
		switch {
		case err == nil:
			t.Errorf("%s: Call = nil error, want an error", tt.name)
		case tt.wantCode != 0 && (!errors.As(err, &re) || re.Code != tt.wantCode):
			t.Errorf("%s: Call = %v, want *RPCError code %d", tt.name, err, tt.wantCode)
		case tt.wantCode == 0 && errors.As(err, &re):
			t.Errorf("%s: Call = %v, want a non-RPC error", tt.name, err)
		}
	}
}
