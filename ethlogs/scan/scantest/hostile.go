package scantest

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// The hooks below answer as a node trying to exhaust its client's memory
// or terminal would, each an [Proxy.Intercept] hook. They write their
// answers as streams, so the proxy holds none of it; sizes are in bytes.

// Escapes is the terminal escape sequences HugeErrorMessage and
// HugeErrorBody repeat: a window title change, a colour, a screen clear.
const Escapes = "\x1b]0;pwned\x07\x1b[31mRED\x1b[2J"

// PadAnswers forwards every request to the node and adds n bytes of
// whitespace to its answer, half before it and half after the first
// result's name: valid JSON holding the node's own answer.
func PadAnswers(p *Proxy, n int64) func([]Request) *Fault {
	return func(calls []Request) *Fault {
		out, err := p.Forward(calls)
		if err != nil {
			return &Fault{Status: 502, Body: err.Error()}
		}
		return &Fault{Stream: func(w io.Writer) error {
			if err := repeat(w, " \n\t\r", n/2); err != nil {
				return err
			}
			at := bytes.Index(out, []byte(`"result":`))
			if at < 0 {
				at = 0
			} else {
				at += len(`"result":`)
			}
			if _, err := w.Write(out[:at]); err != nil {
				return err
			}
			if err := repeat(w, "\r\n \t", n-n/2); err != nil {
				return err
			}
			_, err := w.Write(out[at:])
			return err
		}}
	}
}

// HugeExtraData answers each request for headers by number
// (eth_getHeaderByNumber, as a scan fetches them in batches) with blocks
// whose extraData holds n bytes, and refuses raw headers
// (debug_getRawHeader), as a node without them, so that a scan asks for
// JSON; other requests go to the node.
func HugeExtraData(n int64) func([]Request) *Fault {
	huge := replace("eth_getHeaderByNumber", nil, func(w io.Writer, c Request) error {
		if _, err := io.WriteString(w, `{"number":"`+jsonString(c.Params, 0)+`","extraData":"0x`); err != nil {
			return err
		}
		if err := repeat(w, "ab", 2*n); err != nil {
			return err
		}
		_, err := io.WriteString(w, `"}`)
		return err
	})
	return func(calls []Request) *Fault {
		if f := refuse(nil, "debug_getRawHeader", calls); f != nil {
			return f
		}
		return huge(calls)
	}
}

// HugeRawHeader answers each debug_getRawHeader call with n bytes of hex
// (n/2 bytes of "header"); other requests go to the node.
func HugeRawHeader(n int64) func([]Request) *Fault {
	return replace("debug_getRawHeader", nil, func(w io.Writer, c Request) error {
		if _, err := io.WriteString(w, `"0x`); err != nil {
			return err
		}
		if err := repeat(w, "ab", n); err != nil {
			return err
		}
		_, err := io.WriteString(w, `"`)
		return err
	})
}

// refuse answers a request holding calls of method with error -32601 for
// each of them, as a node without the method, and the node's answers
// through p for the others (without p: only a request whose calls are all
// of method is answered). nil for other requests.
func refuse(p *Proxy, method string, calls []Request) *Fault {
	refused := map[int]bool{}
	for i, c := range calls {
		if c.Method == method {
			refused[i] = true
		}
	}
	if len(refused) == 0 || p == nil && len(refused) < len(calls) {
		return nil
	}
	if p != nil {
		return p.serveSome(calls, refused, nil)
	}
	answers := make([]answer, len(calls))
	for i, c := range calls {
		answers[i] = answer{Version: "2.0", ID: c.ID, Error: json.RawMessage(`{"code":-32601,"message":"the method ` + method + ` does not exist/is not available"}`)}
	}
	var b []byte
	if len(answers) == 1 {
		b, _ = json.Marshal(answers[0])
	} else {
		b, _ = json.Marshal(answers)
	}
	return &Fault{Body: string(b)}
}

// HugeLogData answers each eth_getBlockReceipts with a receipt, well
// formed but not the block's, whose one log holds n bytes of data, and
// refuses raw receipts (debug_getRawReceipts), as a node without them, so
// that a scan asks for JSON; the other calls of a request get the node's
// answers.
func HugeLogData(p *Proxy, n int64) func([]Request) *Fault {
	huge := replace("eth_getBlockReceipts", p, func(w io.Writer, c Request) error {
		head := `[{"type":"0x0","status":"0x1","cumulativeGasUsed":"0x5208","logsBloom":"0x` + strings.Repeat("0", 512) +
			`","logs":[{"address":"0x` + strings.Repeat("11", 20) + `","topics":[],"data":"0x`
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		if err := repeat(w, "cd", 2*n); err != nil {
			return err
		}
		tx := `"transactionHash":"0x` + strings.Repeat("22", 32) + `","transactionIndex":"0x0","blockHash":"` + jsonString(c.Params, 0) + `"`
		_, err := io.WriteString(w, `",`+tx+`,"logIndex":"0x0","removed":false}],`+tx+`,"gasUsed":"0x5208"}]`)
		return err
	})
	return func(calls []Request) *Fault {
		if f := refuse(p, "debug_getRawReceipts", calls); f != nil {
			return f
		}
		return huge(calls)
	}
}

// HugeRawReceipts answers each debug_getRawReceipts call with one
// "receipt" of n bytes of hex; the other calls of a request get the
// node's answers.
func HugeRawReceipts(p *Proxy, n int64) func([]Request) *Fault {
	return replace("debug_getRawReceipts", p, func(w io.Writer, c Request) error {
		if _, err := io.WriteString(w, `["0x`); err != nil {
			return err
		}
		if err := repeat(w, "cd", n); err != nil {
			return err
		}
		_, err := io.WriteString(w, `"]`)
		return err
	})
}

// DeepNesting answers every request with a result nested n arrays deep.
func DeepNesting(n int64) func([]Request) *Fault {
	return func(calls []Request) *Fault {
		return &Fault{Stream: func(w io.Writer) error {
			if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(calls[0].ID)+`,"result":`); err != nil {
				return err
			}
			if err := repeat(w, "[", n); err != nil {
				return err
			}
			if err := repeat(w, "]", n); err != nil {
				return err
			}
			_, err := io.WriteString(w, "}")
			return err
		}}
	}
}

// ManyAnswers answers every request with n tiny answers, all with the
// first call's id.
func ManyAnswers(n int64) func([]Request) *Fault {
	return func(calls []Request) *Fault {
		one := `{"jsonrpc":"2.0","id":` + string(calls[0].ID) + `,"result":"0x0"},`
		return &Fault{Stream: func(w io.Writer) error {
			if _, err := io.WriteString(w, "["); err != nil {
				return err
			}
			if err := repeat(w, one, n*int64(len(one))); err != nil {
				return err
			}
			_, err := io.WriteString(w, `{"jsonrpc":"2.0","id":-1,"result":"0x0"}]`)
			return err
		}}
	}
}

// HugeErrorMessage answers every request with an error object refusing it
// whose message is n bytes of terminal escape sequences, JSON-escaped.
func HugeErrorMessage(n int64) func([]Request) *Fault {
	escaped, _ := json.Marshal(Escapes)
	pattern := string(escaped[1 : len(escaped)-1])
	return func([]Request) *Fault {
		return &Fault{Stream: func(w io.Writer) error {
			if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"`); err != nil {
				return err
			}
			if err := repeat(w, pattern, n); err != nil {
				return err
			}
			_, err := io.WriteString(w, `"}}`)
			return err
		}}
	}
}

// HugeErrorBody answers every request with HTTP status and a body of n
// bytes of raw terminal escape sequences.
func HugeErrorBody(status int, n int64) func([]Request) *Fault {
	return func([]Request) *Fault {
		return &Fault{Status: status, Stream: func(w io.Writer) error { return repeat(w, Escapes, n) }}
	}
}

// replace answers requests holding calls of method: those calls get what
// write writes as their result, the others the node's answers through p
// (nil: null). Requests without such calls go to the node.
func replace(method string, p *Proxy, write func(w io.Writer, c Request) error) func([]Request) *Fault {
	return func(calls []Request) *Fault {
		var others []Request
		for _, c := range calls {
			if c.Method != method {
				others = append(others, c)
			}
		}
		if len(others) == len(calls) {
			return nil
		}
		theirs := map[string]json.RawMessage{}
		if p != nil && len(others) > 0 {
			out, err := p.Forward(others)
			if err != nil {
				return &Fault{Status: 502, Body: err.Error()}
			}
			for _, a := range answersOf(out) {
				theirs[string(a.ID)] = a.Result
			}
		}
		return &Fault{Stream: func(w io.Writer) error {
			for i, c := range calls {
				if _, err := io.WriteString(w, sep(i, len(calls))+`{"jsonrpc":"2.0","id":`+string(c.ID)+`,"result":`); err != nil {
					return err
				}
				var err error
				if c.Method == method {
					err = write(w, c)
				} else if r := theirs[string(c.ID)]; r != nil {
					_, err = w.Write(r)
				} else {
					_, err = io.WriteString(w, "null")
				}
				if err != nil {
					return err
				}
				if _, err := io.WriteString(w, "}"); err != nil {
					return err
				}
			}
			if len(calls) > 1 {
				_, err := io.WriteString(w, "]")
				return err
			}
			return nil
		}}
	}
}

// sep is what goes before answer i of n: "[" before the first of a batch.
func sep(i, n int) string {
	switch {
	case n == 1:
		return ""
	case i == 0:
		return "["
	}
	return ","
}

func answersOf(out []byte) []answer {
	var as []answer
	if json.Unmarshal(out, &as) == nil {
		return as
	}
	var a answer
	json.Unmarshal(out, &a)
	return []answer{a}
}

// jsonString returns parameter i, a hex string in the calls of a scan,
// "" if it is not a string.
func jsonString(params []json.RawMessage, i int) string {
	var s string
	if i < len(params) {
		json.Unmarshal(params[i], &s)
	}
	return s
}

// repeat writes pattern again and again, whole, until n bytes or more are
// written.
func repeat(w io.Writer, pattern string, n int64) error {
	per := max(1, (256<<10)/len(pattern))
	block := []byte(strings.Repeat(pattern, per))
	for left := (n + int64(len(pattern)) - 1) / int64(len(pattern)); left > 0; {
		k := min(left, int64(per))
		if _, err := w.Write(block[:k*int64(len(pattern))]); err != nil {
			return err
		}
		left -= k
	}
	return nil
}
