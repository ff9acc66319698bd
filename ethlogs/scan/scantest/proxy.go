// Package scantest provides a JSON-RPC proxy for testing scans against a
// node that lies, fails, enforces a provider's limits or tries to exhaust
// its client's memory: it sits on 127.0.0.1 in front of a real node's
// HTTP endpoint, serves HTTP, WebSocket and an IPC socket, and rewrites
// or refuses what passes. [Main] runs a test binary that starts demo
// nodes in its own process.
package scantest

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Request is one JSON-RPC call passing through the proxy.
type Request struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

// Fault is the proxy's answer instead of the node's: an HTTP status with a
// body, or, when Status is 0, Body as a 200 answer. Stream, if set, writes
// the body instead of Body, for bodies too large to hold. Over WebSocket
// and IPC, where there is no status, a Status other than 0 and 200 closes
// the connection, and the body is the answer's message.
type Fault struct {
	Status int
	Body   string
	Header http.Header
	Stream func(w io.Writer) error
}

// Proxy forwards JSON-RPC to a node's HTTP endpoint. Its hooks may be
// changed at any time; they run on the proxy's goroutines.
type Proxy struct {
	URL     string // http://127.0.0.1:PORT
	WSURL   string // ws://127.0.0.1:PORT, the same server upgraded
	IPCPath string // a unix socket in a directory of its own

	srv      *httptest.Server
	ipc      net.Listener
	ipcDir   string
	conns    sync.WaitGroup
	open     sync.Map // net.Conn → struct{}: stream connections to close
	upstream atomic.Pointer[string]
	client   *http.Client

	mu       sync.Mutex
	disabled map[string]bool
	// Intercept, if set, sees every HTTP request's calls first; a non-nil
	// Fault is answered instead of forwarding.
	intercept func(calls []Request) *Fault
	// Rewrite, if set, may replace the result of each call answered.
	rewrite func(call Request, result json.RawMessage) json.RawMessage
}

// NewProxy starts a proxy on 127.0.0.1 and on a unix socket in front of
// the node at upstream. It panics if it cannot listen.
func NewProxy(upstream string) *Proxy {
	// Uncompressed from the node, as the scan's own client asks a node on
	// loopback: gzip cost the scan tests about 0.6 of their 11 s of CPU.
	p := &Proxy{client: &http.Client{Transport: &http.Transport{DisableCompression: true}}}
	p.upstream.Store(&upstream)
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	p.URL, p.WSURL = p.srv.URL, "ws"+p.srv.URL[len("http"):]
	dir, err := os.MkdirTemp("", "scantest")
	if err != nil {
		panic("scantest: " + err.Error())
	}
	p.ipcDir, p.IPCPath = dir, filepath.Join(dir, "node.ipc")
	if p.ipc, err = net.Listen("unix", p.IPCPath); err != nil {
		panic("scantest: " + err.Error())
	}
	go p.acceptIPC()
	return p
}

// Close stops the proxy, closes its connections and removes its socket.
func (p *Proxy) Close() {
	p.ipc.Close()
	p.open.Range(func(c, _ any) bool { c.(io.Closer).Close(); return true })
	p.srv.CloseClientConnections()
	p.srv.Close()
	p.conns.Wait()
	p.client.CloseIdleConnections()
	os.RemoveAll(p.ipcDir)
}

// SetUpstream points the proxy at another node address (a restarted node).
func (p *Proxy) SetUpstream(url string) { p.upstream.Store(&url); p.client.CloseIdleConnections() }

// Intercept sets the fault hook; nil removes it.
func (p *Proxy) Intercept(f func(calls []Request) *Fault) {
	p.mu.Lock()
	p.intercept = f
	p.mu.Unlock()
}

// Disable makes the proxy answer calls of method with error -32601, as a
// node without that method does; the other calls of a batch go through.
func (p *Proxy) Disable(method string) {
	p.mu.Lock()
	if p.disabled == nil {
		p.disabled = map[string]bool{}
	}
	p.disabled[method] = true
	p.mu.Unlock()
}

// Rewrite sets the result hook; nil removes it.
func (p *Proxy) Rewrite(f func(call Request, result json.RawMessage) json.RawMessage) {
	p.mu.Lock()
	p.rewrite = f
	p.mu.Unlock()
}

func (p *Proxy) hooks() (func([]Request) *Fault, func(Request, json.RawMessage) json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.intercept, p.rewrite
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Upgrade") != "" {
		p.serveWS(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f := p.handle(body)
	for k, v := range f.Header {
		w.Header()[k] = v
	}
	if f.Status != 0 {
		w.WriteHeader(f.Status)
	}
	f.write(w)
}

// write writes the fault's body.
func (f *Fault) write(w io.Writer) error {
	if f.Stream != nil {
		return f.Stream(w)
	}
	_, err := io.WriteString(w, f.Body)
	return err
}

// failed reports whether the fault is a status a stream cannot carry.
func (f *Fault) failed() bool { return f.Status != 0 && f.Status != http.StatusOK }

// handle answers one request body, always with a Fault: the node's
// answer (Status 0), or a hook's.
func (p *Proxy) handle(body []byte) *Fault {
	calls, batch := decodeCalls(body)
	intercept, rewrite := p.hooks()
	if intercept != nil {
		if f := intercept(calls); f != nil {
			return f
		}
	}
	if refused := p.refused(calls); len(refused) > 0 {
		return p.serveSome(calls, refused, rewrite)
	}
	status, out, err := p.forward(body)
	if err != nil {
		return &Fault{Status: http.StatusBadGateway, Body: err.Error()}
	}
	if rewrite != nil && status == http.StatusOK {
		out = rewriteAnswer(out, calls, batch, rewrite)
	}
	if status == http.StatusOK {
		status = 0
	}
	return &Fault{Status: status, Body: string(out)}
}

// Forward sends calls to the node as a batch (one call: a single
// request) and returns its answer, for hooks that change the answer.
func (p *Proxy) Forward(calls []Request) ([]byte, error) {
	var body []byte
	if len(calls) == 1 {
		body, _ = json.Marshal(withVersion(calls)[0])
	} else {
		body, _ = json.Marshal(withVersion(calls))
	}
	_, out, err := p.forward(body)
	return out, err
}

func (p *Proxy) forward(body []byte) (int, []byte, error) {
	resp, err := p.client.Post(*p.upstream.Load(), "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// refused returns the calls of disabled methods.
func (p *Proxy) refused(calls []Request) map[int]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[int]bool{}
	for i, c := range calls {
		if p.disabled[c.Method] {
			out[i] = true
		}
	}
	return out
}

// serveSome forwards the calls not refused and answers the refused ones
// with -32601, always as a batch.
func (p *Proxy) serveSome(calls []Request, refused map[int]bool, rewrite func(Request, json.RawMessage) json.RawMessage) *Fault {
	var pass []Request
	var answers []answer
	for i, c := range calls {
		if refused[i] {
			answers = append(answers, answer{Version: "2.0", ID: c.ID, Error: json.RawMessage(`{"code":-32601,"message":"the method ` + c.Method + ` does not exist/is not available"}`)})
		} else {
			pass = append(pass, c)
		}
	}
	if len(pass) > 0 {
		body, _ := json.Marshal(withVersion(pass))
		status, out, err := p.forward(body)
		if err != nil || status != http.StatusOK {
			return &Fault{Status: http.StatusBadGateway, Body: "upstream failed"}
		}
		if rewrite != nil {
			out = rewriteAnswer(out, pass, true, rewrite)
		}
		var got []answer
		json.Unmarshal(out, &got)
		answers = append(answers, got...)
	}
	b, _ := json.Marshal(answers)
	return &Fault{Body: string(b)}
}

func withVersion(calls []Request) []map[string]any {
	out := make([]map[string]any, len(calls))
	for i, c := range calls {
		out[i] = map[string]any{"jsonrpc": "2.0", "id": c.ID, "method": c.Method, "params": c.Params}
	}
	return out
}

func decodeCalls(body []byte) ([]Request, bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var calls []Request
		json.Unmarshal(body, &calls)
		return calls, true
	}
	var c Request
	json.Unmarshal(body, &c)
	return []Request{c}, false
}

type answer struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

func rewriteAnswer(out []byte, calls []Request, batch bool, rewrite func(Request, json.RawMessage) json.RawMessage) []byte {
	var answers []answer
	if batch {
		if json.Unmarshal(out, &answers) != nil {
			return out
		}
	} else {
		var a answer
		if json.Unmarshal(out, &a) != nil {
			return out
		}
		answers = []answer{a}
	}
	byID := map[string]Request{}
	for _, c := range calls {
		byID[string(c.ID)] = c
	}
	for i, a := range answers {
		if c, ok := byID[string(a.ID)]; ok && a.Result != nil {
			answers[i].Result = rewrite(c, a.Result)
		}
	}
	var b []byte
	if batch {
		b, _ = json.Marshal(answers)
	} else {
		b, _ = json.Marshal(answers[0])
	}
	return b
}
