package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

const (
	demoABI      = "testdata/eth-scan-demo-abi.json"      // the demo contracts' events, and an anonymous one
	demoArtifact = "testdata/eth-scan-demo-artifact.json" // the token's, as Foundry writes out/Token.sol/Token.json
	transferSig  = "Transfer(address,address,uint256)"    // cast's signature: no indexed
)

// demoScanner runs eth scan against the shared demo node and one index
// shared by a test's subtests.
type demoScanner struct {
	url, index string
}

func startDemoScanner(t *testing.T) *demoScanner {
	t.Helper()
	return &demoScanner{url: sharedDemo(t).URL, index: t.TempDir()}
}

// scan runs eth scan with args and returns stdout and the notes of the
// query forms on stderr (its layout: and abi: lines); anything but exit 0
// fails the test.
func (d *demoScanner) scan(t *testing.T, args ...string) (stdout, notes string) {
	t.Helper()
	all := append([]string{"eth", "scan", "--rpc", d.url, "--from", "0", "--index", d.index}, args...)
	code, stdout, stderr := runCLI(t, all...)
	if code != exitOK {
		t.Fatalf("eth scan %q: exit %d\n%s", args, code, stderr)
	}
	for _, line := range splitLines(stderr) {
		if strings.HasPrefix(line, "layout: ") || strings.HasPrefix(line, "abi: ") {
			notes += line + "\n"
		}
	}
	return stdout, notes
}

// TestEthScanQuery runs the query forms on one demo node.
func TestEthScanQuery(t *testing.T) {
	t.Parallel()
	d := startDemoScanner(t)
	t.Run("forms", d.testForms)
	t.Run("arg-matches-decoded", d.testArgMatchesDecoded)
	t.Run("abi-json", d.testABIJSON)
}

// testForms pins the output of each query form: the command, the rows,
// and what the form said on stderr, each note once.
func (d *demoScanner) testForms(t *testing.T) {
	bob, carol := demo.Users[1].Hex(), demo.Users[2].Hex()
	bobTopic := common.BytesToHash(demo.Users[1][:]).Hex()
	label := crypto.Keccak256Hash([]byte("bob.demo")).Hex()
	forms := []struct {
		name string
		args []string
	}{
		{"arg", []string{"--event", demo.Transfer, "--arg", "to=" + bob}},
		{"arg-or-and", []string{"--event", demo.Approval, "--arg", "owner=" + bob + "," + carol, "--arg", "spender=" + strings.ToLower(carol)}},
		{"arg-word-types", []string{"--event", demo.Registered, "--arg", "label=" + label, "--to", "150"}},
		{"positional", []string{demo.Swap, "null", bob}},
		{"cast-signature", []string{"--event", transferSig, "--to", "60"}},
		{"cast-signature-positional", []string{transferSig, "null", bob}},
		{"topics-positional", []string{crypto.Keccak256Hash([]byte(transferSig)).Hex(), "null", bobTopic}},
		{"abi-every-event", []string{"--abi", demoABI, "--to", "40"}},
		{"abi-artifact-name", []string{"--abi", demoArtifact, "--event", "Approval", "--arg", "spender=" + bob}},
		{"abi-positional-name", []string{"--abi", demoABI, "Registered", bob}},
		{"abi-topics-positional", []string{"--abi", demoABI, crypto.Keccak256Hash([]byte("Ping(address,bytes)")).Hex(), bobTopic}},
	}
	for _, form := range forms {
		t.Run(form.name, func(t *testing.T) {
			stdout, notes := d.scan(t, form.args...)
			if len(splitLines(stdout)) < 3 {
				t.Errorf("%d rows, want some", len(splitLines(stdout)))
			}
			if strings.Contains(stdout, "(event:") {
				t.Errorf("a row does not decode:\n%s", stdout)
			}
			if lines := splitLines(notes); len(lines) != len(slices.Compact(slices.Sorted(slices.Values(lines)))) {
				t.Errorf("a note said twice:\n%s", notes)
			}
			if strings.HasPrefix(form.name, "cast-signature") && strings.Count(notes, "layout: logs of Transfer(address,address,uint256) with 3 topics read as Transfer(address indexed arg0, address indexed arg1, uint256 arg2)") != 1 {
				t.Errorf("the layout is not said once:\n%s", notes)
			}
			golden(t, "eth-scan-query-"+form.name+".golden", "$ chainsieve eth scan "+quoteArgs(form.args)+"\n"+notes+stdout)
		})
	}
}

// quoteArgs writes args as a shell would take them.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if strings.ContainsAny(a, " (),") {
			q[i] = "'" + a + "'"
		}
	}
	return strings.Join(q, " ")
}

// decodedLogs scans with --json and returns each line with its decoded
// arguments.
func (d *demoScanner) decodedLogs(t *testing.T, args ...string) (lines []string, argsOf []map[string]string) {
	t.Helper()
	stdout, _ := d.scan(t, append([]string{"--json"}, args...)...)
	lines = splitLines(stdout)
	for _, line := range lines {
		_, args := stripArgs(t, line)
		if args == nil {
			t.Fatalf("a log without decoded arguments: %s", line)
		}
		argsOf = append(argsOf, args)
	}
	return lines, argsOf
}

// testArgMatchesDecoded asks for logs by argument values, by --arg and
// by cast's positional form, and checks the answer against the unfiltered
// scan filtered by its decoded arguments: exactly the logs whose decoded
// argument is one of the values, and the positional form byte for byte
// the --arg form. -short runs every third case.
func (d *demoScanner) testArgMatchesDecoded(t *testing.T) {
	lower := func(s string) string { return strings.ToLower(s) }
	hexInt := func(s string) string {
		n, _ := new(big.Int).SetString(s, 10)
		return "0x" + n.Text(16)
	}
	same := func(s string) string { return s }
	tests := []struct {
		sig    string
		param  string
		before int                            // indexed parameters before it: nulls in the positional form
		spell  func(string) string            // how the value is written: another spelling of the decoded value
		pick   func(values []string) []string // the values asked for, from those the scan decoded
	}{
		{demo.Transfer, "to", 1, same, firstValues(1)},
		{demo.Transfer, "to", 1, lower, firstValues(2)},
		{demo.Transfer, "from", 0, same, firstValues(3)},
		{transferSig, "arg1", 1, same, firstValues(1)},
		{transferSig, "arg0", 0, lower, firstValues(2)},
		{demo.Approval, "spender", 1, same, firstValues(1)},
		{demo.Swap, "to", 1, same, firstValues(2)},
		{demo.Registered, "label", 1, same, firstValues(1)},
		{demo.Registered, "id", 2, hexInt, firstValues(3)},
		{demo.Registered, "owner", 0, lower, firstValues(1)},
		{demo.Ping, "from", 0, same, firstValues(2)},
	}
	unfiltered := map[string][]string{}
	decoded := map[string][]map[string]string{}
	for i, tt := range tests {
		if testing.Short() && i%3 != 0 {
			continue
		}
		if unfiltered[tt.sig] == nil {
			unfiltered[tt.sig], decoded[tt.sig] = d.decodedLogs(t, "--event", tt.sig)
		}
		all, args := unfiltered[tt.sig], decoded[tt.sig]
		var seen []string
		for _, a := range args {
			if v := a[tt.param]; !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
		values := tt.pick(seen)
		var want []string
		for i, a := range args {
			if slices.Contains(values, a[tt.param]) {
				want = append(want, all[i])
			}
		}
		written := make([]string, len(values))
		for i, v := range values {
			written[i] = tt.spell(v)
		}
		list := strings.Join(written, ",")
		got, _ := d.scan(t, "--json", "--event", tt.sig, "--arg", tt.param+"="+list)
		if lines := splitLines(got); !slices.Equal(lines, want) || len(want) == 0 || len(want) == len(all) {
			t.Errorf("--event %q --arg %s=%s: %d logs; the unfiltered scan (%d logs) has %d whose decoded %s is one of %v",
				tt.sig, tt.param, list, len(lines), len(all), len(want), tt.param, values)
		}
		positional := append(append([]string{"--json", tt.sig}, slices.Repeat([]string{"null"}, tt.before)...), list)
		if pos, _ := d.scan(t, positional...); pos != got {
			t.Errorf("eth scan %q differs from --arg %s=%s:\n%s\n--arg:\n%s", positional, tt.param, list, pos, got)
		}
	}
}

// firstValues returns a pick of the first n values.
func firstValues(n int) func([]string) []string {
	return func(values []string) []string { return values[:min(n, len(values))] }
}

// TestEthScanQueryTopics builds the topics of random events' indexed
// arguments with --arg and with the positional form, and checks them
// against go-ethereum's abi.MakeTopics.
func TestEthScanQueryTopics(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(17, 1))
	for i := range n {
		ev := randomIndexedEvent(r, i)
		query := [][]any{{ev.topic}}
		var flags, positional []string
		for _, p := range ev.params {
			if !p.indexed {
				continue
			}
			if r.IntN(4) == 0 {
				query = append(query, nil)
				positional = append(positional, "null")
				continue
			}
			var values []any
			var texts []string
			for range 1 + r.IntN(3) {
				v, text := p.value(r)
				values, texts = append(values, v), append(texts, text)
			}
			query = append(query, values)
			flags = append(flags, "--arg", p.ref+"="+strings.Join(texts, ","))
			positional = append(positional, strings.Join(texts, ","))
		}
		want, err := abi.MakeTopics(query...)
		if err != nil {
			t.Fatal(err)
		}
		want = trimOpen(want)
		for _, args := range [][]string{
			append([]string{"--event", ev.decl}, flags...),
			positionalArgs(ev.decl, positional),
		} {
			if len(flags) == 0 && args[0] == "--event" {
				args = args[:2]
			}
			got, err := queryTopics(args)
			if err != nil {
				t.Fatalf("eth scan %q: %v", args, err)
			}
			if !sameTopics(got, want) {
				t.Fatalf("eth scan %q: topics\n%v\nabi.MakeTopics:\n%v", args, got, want)
			}
		}
	}
}

// positionalArgs writes cast's form; a negative value would read as a
// flag, so then the values follow "--".
func positionalArgs(sig string, values []string) []string {
	args := []string{sig}
	if slices.ContainsFunc(values, func(v string) bool { return strings.HasPrefix(v, "-") }) {
		args = []string{"--", sig}
	}
	return append(args, values...)
}

// queryTopics parses eth scan's flags and arguments and returns the
// query's topics, as the command does before any network work.
func queryTopics(args []string) ([][]common.Hash, error) {
	var out, errOut bytes.Buffer
	e := &env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	f, _, ok := parseEthScanFlags(e, args)
	if !ok {
		return nil, fmt.Errorf("flags: %s", errOut.String())
	}
	q, _, err := f.query(e)
	return q.Topics, err
}

// trimOpen drops the open positions at the end (a query need not name
// them) and repeated values (an OR-list holds each once).
func trimOpen(topics [][]common.Hash) [][]common.Hash {
	for len(topics) > 0 && len(topics[len(topics)-1]) == 0 {
		topics = topics[:len(topics)-1]
	}
	for i, pos := range topics {
		var once []common.Hash
		for _, h := range pos {
			if !slices.Contains(once, h) {
				once = append(once, h)
			}
		}
		topics[i] = once
	}
	return topics
}

func sameTopics(a, b [][]common.Hash) bool {
	return slices.EqualFunc(a, b, func(x, y []common.Hash) bool { return slices.Equal(x, y) })
}

// randomEvent is a random declaration whose indexed parameters are of
// the types the topic of which MakeTopics computes.
type randomEvent struct {
	decl   string
	topic  common.Hash
	params []randomParam
}

type randomParam struct {
	typ     string // canonical
	kind    string // address, bool, uint, int, bytesN, bytes, string
	bits    int    // of uintN, intN; N of bytesN
	indexed bool
	ref     string // the name --arg uses: the parameter's, or argN
}

var randomKinds = []string{"address", "bool", "uint", "int", "bytesN", "bytes", "string"}

func randomIndexedEvent(r *rand.Rand, n int) randomEvent {
	params := make([]randomParam, 1+r.IntN(6))
	var parts, types []string
	indexed := 0
	for i := range params {
		p := randomParam{kind: randomKinds[r.IntN(len(randomKinds))]}
		switch p.kind {
		case "uint", "int":
			p.bits = 8 * (1 + r.IntN(32))
			p.typ = p.kind + strconv.Itoa(p.bits)
		case "bytesN":
			p.bits = 1 + r.IntN(32)
			p.typ = "bytes" + strconv.Itoa(p.bits)
		default:
			p.typ = p.kind
		}
		p.indexed = indexed < 3 && (indexed == 0 || r.IntN(2) == 0)
		if p.indexed {
			indexed++
		}
		decl := p.typ
		if p.indexed {
			decl += " indexed"
		}
		if p.ref = fmt.Sprintf("arg%d", i); r.IntN(4) > 0 {
			p.ref = fmt.Sprintf("p%d_%s", i, p.kind)
			decl += " " + p.ref
		}
		params[i], parts, types = p, append(parts, decl), append(types, p.typ)
	}
	name := fmt.Sprintf("E%d", n)
	return randomEvent{
		decl:   name + "(" + strings.Join(parts, ", ") + ")",
		topic:  crypto.Keccak256Hash([]byte(name + "(" + strings.Join(types, ",") + ")")),
		params: params,
	}
}

// value returns a random value of p's type as MakeTopics takes it, and
// the text that writes it, in one of the spellings cast accepts.
func (p randomParam) value(r *rand.Rand) (any, string) {
	switch p.kind {
	case "address":
		var a common.Address
		randomFill(r, a[:])
		return a, []string{a.Hex(), strings.ToLower(a.Hex()), "0x" + strings.ToUpper(a.Hex()[2:])}[r.IntN(3)]
	case "bool":
		b := r.IntN(2) == 1
		return b, strconv.FormatBool(b)
	case "uint", "int":
		return p.integer(r)
	case "bytesN":
		b := make([]byte, p.bits)
		randomFill(r, b)
		a := reflect.New(reflect.ArrayOf(p.bits, reflect.TypeFor[byte]())).Elem()
		reflect.Copy(a, reflect.ValueOf(b))
		return a.Interface(), "0x" + hex.EncodeToString(b)
	case "bytes":
		b := make([]byte, r.IntN(40))
		randomFill(r, b)
		return b, "0x" + hex.EncodeToString(b)
	}
	s := randomText(r)
	text := s
	if s == "" || s == "null" || strings.TrimSpace(s) != s || strings.ContainsAny(s, `,"[]()\`) || r.IntN(4) == 0 {
		text = strconv.Quote(s)
	}
	return s, text
}

// integer returns an integer of p's width, the extremes often, as a
// *big.Int or, for a width Go has, that Go type.
func (p randomParam) integer(r *rand.Rand) (any, string) {
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(p.bits))
	if p.kind == "int" {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	var v *big.Int
	switch r.IntN(4) {
	case 0:
		v = lo
	case 1:
		v = hi
	default:
		span := new(big.Int).Sub(hi, lo)
		b := make([]byte, len(span.Bytes())+1)
		randomFill(r, b)
		v = new(big.Int).Add(lo, new(big.Int).Mod(new(big.Int).SetBytes(b), span.Add(span, big.NewInt(1))))
	}
	text := v.String()
	if r.IntN(2) == 0 {
		text = "0x" + new(big.Int).Abs(v).Text(16)
		if v.Sign() < 0 {
			text = "-" + text
		}
	}
	if p.bits <= 64 && p.bits&(p.bits-1) == 0 && p.bits >= 8 && r.IntN(2) == 0 {
		return goInteger(p.kind, p.bits, v), text
	}
	return v, text
}

// goInteger converts v to the Go integer type of that kind and width, which
// MakeTopics encodes by its own code path.
func goInteger(kind string, bits int, v *big.Int) any {
	if kind == "int" {
		i := v.Int64()
		return map[int]any{8: int8(i), 16: int16(i), 32: int32(i), 64: i}[bits]
	}
	u := v.Uint64()
	return map[int]any{8: uint8(u), 16: uint16(u), 32: uint32(u), 64: u}[bits]
}

func randomText(r *rand.Rand) string {
	const chars = `ab Z09,"[]()\é€ null`
	runes := []rune(chars)
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	if r.IntN(10) == 0 {
		return "null"
	}
	return b.String()
}

func randomFill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// TestEthScanQueryUsage: every malformed query is a usage error (exit 2)
// named on stderr, before the demo node starts.
func TestEthScanQueryUsage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	event := func(name, inputs string) string {
		return `{"type":"event","name":"` + name + `","anonymous":false,"inputs":[` + inputs + `]}`
	}
	addr := func(name string, indexed bool) string {
		return fmt.Sprintf(`{"name":%q,"type":"address","indexed":%t}`, name, indexed)
	}
	overloaded := write("overloaded.json", "["+event("Transfer", addr("from", true)+","+addr("to", true)+`,{"name":"value","type":"uint256","indexed":false}`)+","+
		event("Transfer", addr("to", true)+`,{"name":"id","type":"uint256","indexed":true}`)+"]")
	anonymous := write("anonymous.json", `[{"type":"event","name":"Word","anonymous":true,"inputs":[]}]`)
	notJSON := write("not.json", "{nope")
	noABI := write("artifact.json", `{"bytecode":{"object":"0x6080"}}`)
	bob := demo.Users[1].Hex()
	topic := crypto.Keccak256Hash([]byte(transferSig)).Hex()
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--arg", "to=" + bob}, "--arg needs the event"},
		{[]string{"--abi", demoABI, "--arg", "to=" + bob}, "--arg needs the event"},
		{[]string{"--event", demo.Transfer, "--arg", "value=1"}, "--arg: value is not indexed"},
		{[]string{"--event", demo.Transfer, "--arg", "amount=1"}, `Transfer has no parameter "amount"; its parameters are from, to, value`},
		{[]string{"--event", transferSig, "--arg", "to=" + bob}, `no parameter "to"; its parameters are arg0, arg1, arg2`},
		{[]string{"--event", demo.Transfer, "--arg", "to=0x12"}, `address to: "0x12" is not an address`},
		{[]string{"--event", demo.Transfer, "--arg", "to=" + badChecksum(bob)}, "EIP-55"},
		{[]string{"--event", "E(uint8 indexed x)", "--arg", "x=256"}, "uint8 x"},
		{[]string{"--event", "E(int8 indexed x)", "--arg", "x=-129"}, "int8 x"},
		{[]string{"--event", "E(uint256 indexed x)", "--arg", "x=-1"}, "uint256 x"},
		{[]string{"--event", "E(bool indexed x)", "--arg", "x=yes"}, "not a bool"},
		{[]string{"--event", "E(bytes4 indexed x)", "--arg", "x=0x0102"}, "bytes4 x"},
		{[]string{"--event", "E(string indexed s)", "--arg", `s="abc`}, "unclosed quote"},
		{[]string{"--event", demo.Transfer, "--arg", "to"}, "want NAME=VALUE"},
		{[]string{"--event", demo.Transfer, "--arg", "to=" + bob, "--arg", "to=" + bob}, "to given twice"},
		{[]string{"--event", "E(address,address,address,uint256)", "--arg", "arg3=1"}, "more than 3: mark the indexed parameters"},
		{[]string{"--event", demo.Transfer, "--arg", "to=" + bob, "--topics", `[null,null,"` + topic + `"]`}, "--topics conflicts with --event"},
		{[]string{"--event", demo.Transfer, "--arg", "to=" + bob, "null", bob}, "give them one way"},
		{[]string{demo.Transfer, "null", bob, "1"}, "3 values, but Transfer"},
		{[]string{demo.Transfer, "0x12"}, "the values after the signature: address from"},
		{[]string{demo.Transfer, "null", bob, "--topics", `[null,null,"` + topic + `"]`}, "--topics conflicts with the signature"},
		{[]string{"Transfer"}, `unexpected argument "Transfer"`},
		{[]string{"Transfer(address,uint7)"}, `the first argument: "Transfer(address,uint7)"`},
		{[]string{topic, "0x12"}, `topic 1: "0x12" is not a 0x-prefixed 32-byte topic`},
		{[]string{topic, "null", "null", "null", topic}, "a log has at most 4 topics"},
		{[]string{topic, "null", "--topics", `["` + crypto.Keccak256Hash(nil).Hex() + `"]`}, "--topics conflicts with the topics after TOPIC0"},
		{[]string{"--event", topic}, "a topic selects an event of --abi"},
		{[]string{"--abi", demoABI, "--topics", `["` + crypto.Keccak256Hash(nil).Hex() + `"]`}, "--topics conflicts with --abi " + demoABI},
		{[]string{"--abi", filepath.Join(dir, "nosuch.json")}, "no such file"},
		{[]string{"--abi", notJSON}, "--abi " + notJSON},
		{[]string{"--abi", noABI}, `without an "abi" field`},
		{[]string{"--abi", anonymous}, "declares no event that can be selected by topic 0: Word() is anonymous"},
		{[]string{"--abi", demoABI, "--event", "Nope"}, `--event: the ABI has no event "Nope"; it declares Approval(address,address,uint256), Ping(address,bytes)`},
		{[]string{"--abi", demoABI, "Nope"}, `the first argument: the ABI has no event "Nope"`},
		{[]string{"--abi", demoABI, "--event", "Word"}, "Word(uint256) is anonymous"},
		{[]string{"--abi", overloaded, "--event", "Transfer"}, "the ABI overloads Transfer: select one of Transfer(address,address,uint256), Transfer(address,uint256)"},
		{[]string{"--abi", demoArtifact, "--event", "Transfer", "--arg", "value=1"}, "value is not indexed"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, append([]string{"eth", "scan", "--index", dir}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.wantErr) || stdout != "" || strings.Contains(stderr, "demo chain") {
			t.Errorf("eth scan %q = %d, %q, %s; want %d and %q before the demo node starts", tt.args, code, stdout, stderr, exitUsage, tt.wantErr)
		}
	}
}

// badChecksum flips the case of the first letter of an EIP-55 address.
func badChecksum(a string) string {
	i := strings.IndexAny(a[2:], "abcdefABCDEF") + 2
	return a[:i] + string(a[i]^0x20) + a[i+1:]
}

// testABIJSON: with --abi every event's logs carry their decoded
// arguments, named as the ABI names them.
func (d *demoScanner) testABIJSON(t *testing.T) {
	stdout, _ := d.scan(t, "--json", "--abi", demoABI, "--to", "60")
	names := map[string]int{}
	for _, line := range splitLines(stdout) {
		var l struct{ Args map[string]string }
		if err := json.Unmarshal([]byte(line), &l); err != nil || len(l.Args) == 0 {
			t.Fatalf("a log without decoded arguments (%v): %s", err, line)
		}
		names[strings.Join(slices.Sorted(maps.Keys(l.Args)), ",")]++
	}
	for _, want := range []string{"from,to,value", "owner,spender,value", "amount0In,amount0Out,amount1In,amount1Out,sender,to", "reserve0,reserve1", "id,label,name,owner", "data,from"} {
		if names[want] == 0 {
			t.Errorf("no log decoded with arguments %s; decoded: %v", want, names)
		}
	}
}
