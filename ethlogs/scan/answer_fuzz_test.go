package scan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// FuzzAnswer reads arbitrary answers to batches of 1 to 8 calls with the
// streaming reader, whole or a byte at a time, and with encoding/json as
// the oracle: on input encoding/json accepts, the same results, compacted
// as json.Compact does, and the same error objects (message through
// untrusted.Text); on input it refuses, an error. The reader may refuse
// more only for what it bounds: nesting deeper than maxDepth and a member
// repeated in an answer.
func FuzzAnswer(f *testing.F) {
	f.Add([]byte(`[{"jsonrpc":"2.0","id":0,"result":`+sampleBlock+`},{"jsonrpc":"2.0","id":1,"result":null}]`), uint8(2))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"limit"}}`), uint8(3))
	f.Add([]byte(`[{"id":1,"error":{"code":1,"message":""}},{"id":1}]`), uint8(2))
	f.Add([]byte(" \n[ {\"result\" : [ 1 , 2.5e-3, \"a\\u00e9\\ud83d\\ude00\\/\" ] ,\"id\":0 } ]\t"), uint8(1))
	f.Add([]byte(`{"id":0,"error":{"message":"\u001b]0;x\u0007\ud800 `+strings.Repeat("é", 700)+`","code":-1,"data":[{}]}}`), uint8(1))
	f.Add([]byte(`[{"id":0,"result":{"a":[[[[]]]]}},{"id":2,"result":true},{"result":false,"id":1}]`), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		calls := make([]Call, 1+int(n)%8)
		for i := range calls {
			calls[i].Method = "m" + strconv.Itoa(i)
		}
		var src io.Reader = bytes.NewReader(data)
		if n&0x80 != 0 {
			src = iotest.OneByteReader(src)
		}
		r := newJSONReader()
		r.reset(src)
		err := readAnswer(r, calls, DefaultBudget, DefaultBudget)
		if err == nil {
			err = r.atEnd()
		}
		want, werr := oracleAnswer(data, len(calls))
		switch {
		case werr != nil && err == nil:
			t.Fatalf("accepted what encoding/json refuses (%v)", werr)
		case werr != nil:
			return
		case err != nil:
			if deeper(data, maxDepth) || repeatedMember(data) {
				return
			}
			t.Fatalf("refused what encoding/json accepts: %v", err)
		}
		for i, c := range calls {
			if got := outcome(c); got != want[i] {
				t.Fatalf("call %d: %s, encoding/json: %s", i, got, want[i])
			}
		}
	})
}

// outcome writes a call's result or error for comparison.
func outcome(c Call) string {
	var re *RPCError
	switch {
	case errors.As(c.Err, &re):
		return "error " + strconv.Itoa(re.Code) + " " + re.Message
	case c.Err != nil:
		return "failed: " + c.Err.Error()
	}
	return "result " + string(c.Result)
}

// oracleAnswer decodes an answer with encoding/json, with the semantics
// documented for readAnswer: ids are the calls' indexes, an error object
// takes precedence over a result, a single object with a null id and an
// error refuses the whole batch.
func oracleAnswer(data []byte, n int) ([]string, error) {
	var objs []map[string]json.RawMessage
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var one map[string]json.RawMessage
		if err := json.Unmarshal(data, &one); err != nil {
			return nil, err
		}
		objs = []map[string]json.RawMessage{one}
	} else if err := json.Unmarshal(data, &objs); err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "failed: m" + strconv.Itoa(i) + ": no answer in the batch"
	}
	seen := make([]bool, n)
	for _, o := range objs {
		if o == nil {
			return nil, errors.New("null answer")
		}
		id, err := oracleID(o["id"])
		if err != nil {
			return nil, err
		}
		e, err := oracleError(o["error"])
		if err != nil {
			return nil, err
		}
		single := len(trimmed) > 0 && trimmed[0] == '{'
		if single && e != "" && id == -1 {
			return nil, errors.New("batch refused")
		}
		if id < 0 || id >= n || seen[id] || single && n > 1 {
			return nil, errors.New("unknown or repeated id")
		}
		seen[id] = true
		result, ok := o["result"]
		switch {
		case e != "":
			out[id] = e
		case !ok:
			out[id] = "failed: m" + strconv.Itoa(id) + ": answer has neither result nor error"
		default:
			var buf bytes.Buffer
			if err := json.Compact(&buf, result); err != nil {
				return nil, err
			}
			out[id] = "result " + buf.String()
		}
	}
	return out, nil
}

func oracleID(raw json.RawMessage) (int, error) {
	var id *int64
	if err := json.Unmarshal(orNull(raw), &id); err != nil {
		return 0, err
	}
	if id == nil {
		return -1, nil
	}
	if *id < 0 || *id > 1<<20 {
		return 1 << 20, nil
	}
	return int(*id), nil
}

// oracleError returns an error object as outcome writes it, "" for none.
func oracleError(raw json.RawMessage) (string, error) {
	var e map[string]json.RawMessage
	if err := json.Unmarshal(orNull(raw), &e); err != nil || e == nil {
		return "", err
	}
	var code int
	var msg string
	if err := json.Unmarshal(orNull(e["code"]), &code); err != nil {
		return "", err
	}
	if err := json.Unmarshal(orNull(e["message"]), &msg); err != nil {
		return "", err
	}
	return "error " + strconv.Itoa(code) + " " + untrusted.Text(msg), nil
}

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// deeper reports whether valid JSON nests more than depth levels.
func deeper(data []byte, depth int) bool {
	level, in, esc := 0, false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '[' || c == '{':
			if level++; level > depth {
				return true
			}
		case c == ']' || c == '}':
			level--
		}
	}
	return false
}

// repeatedMember reports whether an answer object of valid JSON, or its
// error object, names a member twice.
func repeatedMember(data []byte) bool {
	type frame struct {
		object, checked, wantName bool
		last                      string
		names                     map[string]bool
	}
	var stack []*frame
	top := func() *frame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	valueDone := func() {
		if f := top(); f != nil && f.object {
			f.wantName = true
		}
	}
	d := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			p := top()
			answer := p == nil || len(stack) == 1 && !p.object
			errObj := p != nil && p.object && p.checked && p.last == "error"
			stack = append(stack, &frame{object: true, checked: answer || errObj, wantName: true, names: map[string]bool{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
			continue
		}
		f := top()
		if name, ok := tok.(string); ok && f != nil && f.object && f.wantName {
			if f.checked && f.names[name] {
				return true
			}
			f.names[name], f.last, f.wantName = true, name, false
			continue
		}
		valueDone()
	}
}

// FuzzNotification reads arbitrary eth_subscription notifications for
// subscription 0xab, with encoding/json as the oracle: on input it
// accepts as a notification of 0xab, the same result, compacted; on any
// other input, an error. As in FuzzAnswer, the reader may refuse more
// only for nesting deeper than maxDepth and a repeated member.
func FuzzNotification(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0xab","result":` + sampleBlock + `}}`))
	f.Add([]byte(`{"params":{"result":[1, {"a":null}],"subscription":"0xab"},"method":"eth_subscription"}`))
	f.Add([]byte(`{"method":"eth_subscription","params":{"subscription":"0xac","result":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := newJSONReader()
		r.reset(iotest.HalfReader(bytes.NewReader(data)))
		got, err := readNotification(r, "0xab", 1<<20)
		if err == nil {
			err = r.atEnd()
		}
		want, ok := oracleNotification(data)
		switch {
		case !ok && err == nil:
			t.Fatalf("accepted %s, which encoding/json does not read as a notification of 0xab", got)
		case ok && err != nil && !deeper(data, maxDepth) && !repeatedName(data):
			t.Fatalf("refused a notification encoding/json reads: %v", err)
		case ok && err == nil && string(got) != want:
			t.Fatalf("result %s, encoding/json's %s", got, want)
		}
	})
}

// oracleNotification decodes a notification of subscription 0xab with
// encoding/json and returns its result, compacted.
func oracleNotification(data []byte) (string, bool) {
	var n struct {
		Method *string
		Params *struct {
			Subscription *string
			Result       json.RawMessage
		}
	}
	var members, params map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil || json.Unmarshal(orNull(members["params"]), &params) != nil ||
		json.Unmarshal(orNull(members["method"]), &n.Method) != nil || n.Method == nil || *n.Method != "eth_subscription" ||
		params == nil || params["result"] == nil {
		return "", false
	}
	var sub *string
	if json.Unmarshal(orNull(params["subscription"]), &sub) != nil || sub == nil || *sub != "0xab" {
		return "", false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, params["result"]) != nil {
		return "", false
	}
	return buf.String(), true
}

// repeatedName reports whether any object of valid JSON names a member
// twice.
func repeatedName(data []byte) bool {
	d := json.NewDecoder(bytes.NewReader(data))
	var names []map[string]bool // per open object; nil for an array
	var wantName []bool
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		top := len(names) - 1
		switch tok {
		case json.Delim('{'):
			names, wantName = append(names, map[string]bool{}), append(wantName, true)
			continue
		case json.Delim('['):
			names, wantName = append(names, nil), append(wantName, false)
			continue
		case json.Delim('}'), json.Delim(']'):
			names, wantName = names[:top], wantName[:top]
			top--
		default:
			if s, ok := tok.(string); ok && top >= 0 && names[top] != nil && wantName[top] {
				if names[top][s] {
					return true
				}
				names[top][s], wantName[top] = true, false
				continue
			}
		}
		if top >= 0 && names[top] != nil {
			wantName[top] = true
		}
	}
}
