package scan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// readAll reads answer as Client.Batch reads one over HTTP.
func readAll(answer string, calls []Call, budget int) error {
	return readWhole(strings.NewReader(answer), calls, budget)
}

func headerCalls(n int) []Call {
	calls := make([]Call, n)
	for i := range calls {
		calls[i] = Call{Method: "eth_getHeaderByNumber", Params: []any{hexutil.Uint64(5 + i)}}
	}
	return calls
}

// TestReadAnswer reads answers as nodes write them (any member order,
// whitespace anywhere) and as hostile ones do, each to a batch of two
// header calls.
func TestReadAnswer(t *testing.T) {
	big := `"0x` + strings.Repeat("ab", 1<<19) + `"` // 1 MiB + 4 bytes
	for _, tt := range []struct {
		name, answer string
		want         []string // each call's outcome
		wantErr      string
	}{
		{"geth's order", `[{"jsonrpc":"2.0","id":0,"result":{"a":1}},{"jsonrpc":"2.0","id":1,"result":null}]`,
			[]string{`result {"a":1}`, "result null"}, ""},
		{"result before id, out of order", `[{"result":[1,2],"id":1,"jsonrpc":"2.0"},{"jsonrpc":"2.0","result":"0x1","id":0}]`,
			[]string{`result "0x1"`, "result [1,2]"}, ""},
		{"whitespace compacted, escapes kept", " \r\n[ { \"id\" : 0 ,\t\"result\" : { \"a\\n\" : [ true , false , null , -1.5e+3 ] } } ,{\"id\":1,\"error\":{\"code\":-32000,\"message\":\"missing trie node\"}} ]\n",
			[]string{`result {"a\n":[true,false,null,-1.5e+3]}`, "error -32000 missing trie node"}, ""},
		{"an answer missing", `[{"id":1,"result":1}]`, []string{"failed: eth_getHeaderByNumber: no answer in the batch", "result 1"}, ""},
		{"neither result nor error", `[{"id":0},{"id":1,"result":1}]`,
			[]string{"failed: eth_getHeaderByNumber: answer has neither result nor error", "result 1"}, ""},
		{"error beats result", `[{"id":0,"result":1,"error":{"code":5}},{"id":1,"error":null,"result":2}]`,
			[]string{"error 5 ", "result 2"}, ""},
		{"escapes in the message", `[{"id":0,"error":{"code":1,"message":"\u001b[31mred\u001b]0;title\u0007\ud83d\ude00\ud800"}},{"id":1,"result":1}]`,
			[]string{`error 1 \x1b[31mred\x1b]0;title\a😀�`, "result 1"}, ""},
		{"refused as a whole", `{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"batch too large"}}`, nil, "rpc error -32005: batch too large"},
		{"repeated id", `[{"id":0,"result":1},{"id":0,"result":1}]`, nil, "unknown or repeated id"},
		{"unknown id", `[{"id":2,"result":1}]`, nil, "unknown or repeated id"},
		{"more answers than calls", `[{"id":0,"result":1},{"id":1,"result":1},{"id":0,"result":1}]`, nil, "unknown or repeated id"},
		{"string id", `[{"id":"0","result":1}]`, nil, "where a number belongs"},
		{"fractional id", `[{"id":0.5,"result":1}]`, nil, `0.…: not an integer`},
		{"repeated member", `[{"id":0,"result":1,"result":2}]`, nil, `member "result" repeated`},
		{"single object for a batch", `{"id":0,"result":1}`, nil, "unknown id"},
		{"nested too deep", `[{"id":0,"result":` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + `}]`, nil, "nested deeper than 64"},
		{"a header over its limit", `[{"id":0,"result":` + big + `}]`, nil,
			"the answer to eth_getHeaderByNumber(0x5) is larger than its limit of 1 MiB"},
		{"over its limit, id after the result", `[{"result":` + big + `,"id":1}]`, nil,
			"an answer in a batch of 2 calls, eth_getHeaderByNumber(0x5) to eth_getHeaderByNumber(0x6) is larger than 1 MiB, the largest limit of its calls"},
		{"cut off", `[{"id":0,"result":{"a":`, nil, "answer cut off at byte 23"},
		{"garbage after", `[{"id":0,"result":1},{"id":1,"result":1}] x`, nil, "'x' after the answer"},
		{"not JSON", `<html>502 Bad Gateway</html>`, nil, "'<' where a JSON-RPC answer belongs"},
		{"control character", "[{\"id\":0,\"result\":\"\x1b\"}]", nil, `control character '\x1b' in a string`},
		{"bad escape", `[{"id":0,"result":"\x"}]`, nil, `invalid escape "\\x"`},
		{"bad literal", `[{"id":0,"result":nul}]`, nil, `"nul}" where null belongs`},
		{"leading zero", `[{"id":0,"result":01}]`, nil, `'1' after a member`},
	} {
		calls := headerCalls(2)
		err := readAll(tt.answer, calls, DefaultBudget)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: readAnswer = %v, want an error with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: readAnswer = %v", tt.name, err)
			continue
		}
		for i, c := range calls {
			if got := outcome(c); got != tt.want[i] {
				t.Errorf("%s: call %d = %s, want %s", tt.name, i, got, tt.want[i])
			}
		}
	}
}

// TestReadAnswerBudget fills a batch's budget: the batch is refused as a
// whole with an error a scan splits on; the same call alone is refused
// for its own limit, which no split helps.
func TestReadAnswerBudget(t *testing.T) {
	result := `"` + strings.Repeat("a", 600) + `"`
	answer := `[{"id":0,"result":` + result + `},{"id":1,"result":` + result + `}]`
	calls := []Call{{Method: "eth_getBlockReceipts", Params: []any{"0x01"}}, {Method: "eth_getBlockReceipts", Params: []any{"0x02"}}}
	err := readAll(answer, calls, 1000)
	var te *TooLargeError
	if !errors.As(err, &te) || !te.Budget || !isLimit(err) ||
		err.Error() != "the answers to a batch of 2 calls, eth_getBlockReceipts(0x01) to eth_getBlockReceipts(0x02) are larger than their budget of 1000 bytes" {
		t.Errorf("over the budget: %v, want a *TooLargeError for the budget that isLimit", err)
	}
	one := calls[:1]
	err = readAll(`{"id":0,"result":`+result+`}`, one, 500)
	if !errors.As(err, &te) || te.Budget || isLimit(err) || te.Limit != 500 || te.Call != "eth_getBlockReceipts(0x01)" {
		t.Errorf("one call over the budget: %v, want its own limit, not a limit to split on", err)
	}
	if err := readAll(answer, calls, 1204); err != nil || len(calls[1].Result) != 602 {
		t.Errorf("at the budget: %v, %d bytes", err, len(calls[1].Result))
	}
}

// TestReadAnswerMessage reads an error message of megabytes: it is kept
// clipped and escaped, and its marker counts every byte of it.
func TestReadAnswerMessage(t *testing.T) {
	msg := strings.Repeat("\x1b]0;pwned\x07\x1b[31mRED\x1b[2J", 100_000)
	escaped, _ := json.Marshal(msg)
	calls := headerCalls(1)
	err := readAll(`{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":`+string(escaped)+`,"data":"x"}}`, calls, DefaultBudget)
	var re *RPCError
	if err != nil || !errors.As(calls[0].Err, &re) {
		t.Fatalf("readAnswer = %v, call error %v", err, calls[0].Err)
	}
	if want := untrusted.Text(msg); re.Message != want {
		t.Errorf("message = %s, want %s", re.Message, want)
	}
}

// TestReadAnswerStream reads answers with whitespace between every token
// and windows that cut every token in two.
func TestReadAnswerStream(t *testing.T) {
	answer := `[{"jsonrpc":"2.0","id":1,"result":{"n":"0x1","t":[true,false,null,-0.5E-7,"\u00e9\"\\"]}},{"id":0,"error":{"code":-1,"message":"\ud83d\ude00 x"}}]`
	want := headerCalls(2)
	if err := readAll(answer, want, DefaultBudget); err != nil {
		t.Fatal(err)
	}
	var padded bytes.Buffer
	for _, c := range []byte(answer) {
		padded.WriteByte(c)
		if strings.IndexByte(`[]{},:`, c) >= 0 {
			padded.WriteString(strings.Repeat(" \n", 40_000))
		}
	}
	for _, src := range []io.Reader{bytes.NewReader(padded.Bytes()), oneByte{strings.NewReader(answer)}} {
		calls := headerCalls(2)
		r := newJSONReader()
		r.reset(src)
		if err := readAnswer(r, calls, DefaultBudget, DefaultBudget); err != nil {
			t.Fatal(err)
		}
		for i := range calls {
			if outcome(calls[i]) != outcome(want[i]) {
				t.Errorf("call %d = %s, want %s", i, outcome(calls[i]), outcome(want[i]))
			}
		}
	}
}

// oneByte reads one byte at a time.
type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// TestCheckEndpoint takes every form of endpoint and refuses the common
// mistakes with the user's own text.
func TestCheckEndpoint(t *testing.T) {
	for _, tt := range []struct{ in, wantErr string }{
		{"http://127.0.0.1:8545", ""},
		{"https://mainnet.example/v3/KEY", ""},
		{"ws://localhost:8546", ""},
		{"wss://user:pass@node.example/ws", ""},
		{"/home/me/.ethereum/geth.ipc", ""},
		{"geth.ipc", ""},
		{"ftp://node.example", `"ftp://node.example": the scheme is not http, https, ws or wss`},
		{"http://", `"http://" has no host`},
		{"localhost:8545", `"localhost:8545" has no scheme: http://localhost:8545 or ws://localhost:8545`},
		{"", `"" is neither a URL nor the path of an IPC socket`},
	} {
		err := CheckEndpoint(tt.in)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CheckEndpoint(%q) = %v, want %q", tt.in, err, tt.wantErr)
		}
	}
}

// BenchmarkReadAnswer reads a batch of 500 headers as a scan receives
// them: streaming, each result kept compact (chainsieve), and as the
// client did before, the answer read whole and decoded by encoding/json
// into raw results (naive).
func BenchmarkReadAnswer(b *testing.B) {
	var batch bytes.Buffer
	batch.WriteString("[")
	for i := range 500 {
		if i > 0 {
			batch.WriteString(",")
		}
		batch.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"result":` + sampleBlock + `}`)
	}
	batch.WriteString("]")
	raw := batch.Bytes()
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		r := newJSONReader()
		for b.Loop() {
			calls := headerCalls(500)
			r.reset(bytes.NewReader(raw))
			if err := readAnswer(r, calls, DefaultBudget, DefaultBudget); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			body, _ := io.ReadAll(bytes.NewReader(raw))
			var answers []struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *RPCError       `json:"error"`
			}
			if err := json.Unmarshal(body, &answers); err != nil {
				b.Fatal(err)
			}
		}
	})
}
