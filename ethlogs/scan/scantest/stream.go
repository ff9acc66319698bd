package scantest

import (
	"encoding/json"
	"net"
	"net/http"

	"github.com/gorilla/websocket"
)

// maxRequest bounds a request read from a WebSocket client.
const maxRequest = 16 << 20

var upgrader = websocket.Upgrader{ReadBufferSize: 64 << 10, WriteBufferSize: 64 << 10}

// serveWS answers each message of a WebSocket with one message, in turn.
func (p *Proxy) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	p.track(ws.NetConn())
	defer p.untrack(ws.NetConn())
	defer ws.Close()
	ws.SetReadLimit(maxRequest)
	for {
		_, body, err := ws.ReadMessage()
		if err != nil {
			return
		}
		f := p.handle(body)
		if f.failed() {
			return
		}
		mw, err := ws.NextWriter(websocket.TextMessage)
		if err != nil {
			return
		}
		if f.write(mw) != nil || mw.Close() != nil {
			return
		}
	}
}

func (p *Proxy) acceptIPC() {
	for {
		c, err := p.ipc.Accept()
		if err != nil {
			return
		}
		p.conns.Add(1)
		p.track(c)
		go func() {
			defer p.conns.Done()
			defer p.untrack(c)
			defer c.Close()
			p.serveIPC(c)
		}()
	}
}

// serveIPC answers each JSON value a client writes with one, in turn,
// followed by a newline as geth writes them.
func (p *Proxy) serveIPC(c net.Conn) {
	d := json.NewDecoder(c)
	for {
		var body json.RawMessage
		if err := d.Decode(&body); err != nil {
			return
		}
		f := p.handle(body)
		if f.failed() {
			return
		}
		if f.write(c) != nil {
			return
		}
		if _, err := c.Write([]byte("\n")); err != nil {
			return
		}
	}
}

func (p *Proxy) track(c net.Conn)   { p.open.Store(c, struct{}{}) }
func (p *Proxy) untrack(c net.Conn) { p.open.Delete(c) }
