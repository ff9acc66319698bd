package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// maxABIFile bounds the --abi file read into memory: compiler artifacts
// carry bytecode and metadata besides the ABI, a few MB at most.
const maxABIFile = 64 << 20

// queryFlags are eth scan's flags and arguments that say which logs to
// find and how to decode them: --address, --topics, --event, --arg, --abi,
// and cast's positional forms, SIG [VALUE|null ...] and
// TOPIC0 [TOPIC|null ...].
type queryFlags struct {
	addresses  []common.Address
	topics     string   // --topics, eth_getLogs JSON
	eventSig   string   // --event: a declaration; with --abi also a name or topic 0
	args       []string // --arg NAME=VALUE[,VALUE...]
	abiFile    string   // --abi
	positional []string // the arguments after the flags

	// decodes names the events that decode the output, for the resume
	// key: set by query.
	decodes string
}

func (f *queryFlags) register(fs *flag.FlagSet) {
	fs.Func("address", "contract address to match (repeatable: any of them)", func(s string) error {
		if !common.IsHexAddress(s) || !strings.HasPrefix(s, "0x") || len(s) != 42 {
			return fmt.Errorf("%q is not a 0x-prefixed 20-byte address", s)
		}
		f.addresses = append(f.addresses, common.HexToAddress(s))
		return nil
	})
	fs.StringVar(&f.topics, "topics", "", `topics array exactly as eth_getLogs takes it, e.g. '[null, ["0x…","0x…"]]' (null: any)`)
	fs.StringVar(&f.eventSig, "event", "", `event declaration, e.g. 'Transfer(address indexed from,address indexed to,uint256 value)' or cast's 'Transfer(address,address,uint256)': sets topic 0 and decodes the arguments; with --abi, a name, signature or topic 0 of the ABI's events`)
	fs.Func("arg", "`NAME=VALUE[,VALUE...]`: logs whose indexed parameter NAME (from the --event signature; argN if unnamed) holds any of the values (repeatable: all of them)", func(s string) error {
		f.args = append(f.args, s)
		return nil
	})
	fs.StringVar(&f.abiFile, "abi", "", "ABI JSON `FILE` (an array, or a Foundry/Hardhat artifact with an \"abi\" field): --event selects one of its events; without --event every event is matched by topic 0 and decoded")
}

// query builds the filter of the flags and positional arguments and the
// events that decode its logs (nil: none). Any error is a usage error;
// what it had to assume is said on e's stderr.
func (f *queryFlags) query(e *env) (ethlogs.Query, *eventSet, error) {
	q := ethlogs.Query{Addresses: f.addresses}
	if f.topics != "" {
		if err := jsonFlag("topics", f.topics); err != nil {
			return q, nil, err
		}
		parsed, err := ethlogs.ParseQuery([]byte(`{"topics":` + f.topics + `}`))
		if err != nil {
			return q, nil, fmt.Errorf("--topics: %v", err)
		}
		q.Topics = parsed.Topics
	}
	r, err := f.request(e.stderr)
	if err != nil || r == nil {
		return q, nil, err
	}
	if err := r.filter.Apply(&q); err != nil {
		return q, nil, fmt.Errorf("--topics conflicts with %s: %s", r.who, strings.TrimPrefix(err.Error(), "event: "))
	}
	if err := q.Validate(); err != nil {
		return q, nil, errors.New(strings.TrimPrefix(err.Error(), "ethlogs: "))
	}
	for _, n := range r.notes {
		fmt.Fprintln(e.stderr, n)
	}
	f.decodes = r.events.key()
	if len(r.events.byTopic) == 0 {
		return q, nil, nil
	}
	return q, r.events, nil
}

// request is what the event forms ask for.
type request struct {
	filter *event.Filter
	events *eventSet // decode the rows
	who    string    // the flags or arguments that ask, for a conflict with --topics
	notes  []string  // for stderr, once the query is known to be good
}

// request reads the event forms: raw topics, an event and its values, or
// every event of --abi; nil if none is given.
func (f *queryFlags) request(notes io.Writer) (*request, error) {
	abi, err := f.readABI()
	if err != nil {
		return nil, err
	}
	sel, values, raw := f.split()
	r := &request{events: &eventSet{notes: notes}}
	switch {
	case raw != nil:
		r.who = "the topics after TOPIC0"
		if abi != nil { // else the rows are not decoded
			r.events.add(abi.Events...)
			r.events.asked = "--abi " + f.abiFile
		}
		r.filter, err = rawTopics(raw)
	case sel.text != "":
		r.who = sel.String()
		r.filter, err = f.eventFilter(sel, abi, values)
		if err == nil {
			r.events.add(r.filter.Event)
			r.events.asked, r.events.topic0 = "--event '"+r.filter.Event.String()+"'", true
			if r.filter.Assumed != "" {
				r.notes = []string{"layout: " + r.filter.Assumed}
			}
		}
	case len(f.args) > 0:
		return nil, errors.New("--arg needs the event: --event SIG, or SIG as the first argument (the names are its parameters')")
	case abi != nil:
		r.who = "--abi " + f.abiFile + " (every event's topic 0)"
		r.events.add(abi.Events...)
		r.events.asked, r.events.topic0 = "--abi "+f.abiFile, true
		r.filter, err = f.everyEvent(abi)
		r.notes = everyEventNotes(f.abiFile, abi)
	default:
		return nil, nil
	}
	return r, err
}

// selector is how the event was named: by --event or by the first
// positional argument.
type selector struct {
	text string
	flag bool // --event
}

func (s selector) String() string {
	if s.flag {
		return "--event " + s.text
	}
	return "the signature " + s.text
}

// split sorts the positional arguments: with --event they are all values;
// otherwise the first is the signature and the rest values, or, where the
// first is a 32-byte topic, all are raw topics (cast's two forms).
func (f *queryFlags) split() (sel selector, values, raw []string) {
	switch {
	case f.eventSig != "":
		return selector{text: f.eventSig, flag: true}, f.positional, nil
	case len(f.positional) == 0:
		return selector{}, nil, nil
	case isTopic(f.positional[0]):
		return selector{}, nil, f.positional
	}
	return selector{text: f.positional[0]}, f.positional[1:], nil
}

// event parses the declaration or selects the event from the ABI.
func (s selector) event(abi *event.ABI) (*event.Event, error) {
	where := "the first argument"
	if s.flag {
		where = "--event"
	}
	if abi != nil {
		ev, err := abi.Event(s.text)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", where, strings.TrimPrefix(err.Error(), "event: "))
		}
		return ev, nil
	}
	switch {
	case isTopic(s.text):
		return nil, fmt.Errorf("%s %s: a topic selects an event of --abi; without --abi give the signature, or the topic as the first argument followed by raw topics", where, s.text)
	case !s.flag && !strings.Contains(s.text, "("):
		return nil, fmt.Errorf("unexpected argument %q: want an event signature, Name(type [indexed] [name], ...), or a 32-byte topic 0 (a name selects an event of --abi)", s.text)
	}
	ev, err := event.Parse(s.text)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", where, strings.TrimPrefix(err.Error(), "event: "))
	}
	return ev, nil
}

// eventFilter selects the event and turns --arg conditions or the values
// after the signature into a filter on its topics.
func (f *queryFlags) eventFilter(sel selector, abi *event.ABI, values []string) (*event.Filter, error) {
	ev, err := sel.event(abi)
	if err != nil {
		return nil, err
	}
	switch {
	case len(f.args) > 0 && len(values) > 0:
		return nil, fmt.Errorf("values both by --arg and after the signature (%q): give them one way", values[0])
	case len(values) > 0:
		filter, err := ev.FilterPositional(values...)
		if err != nil {
			return nil, fmt.Errorf("the values after the signature: %s", strings.TrimPrefix(err.Error(), "event: "))
		}
		return filter, nil
	case len(f.args) == 0:
		return &event.Filter{Event: ev, Topics: [][]common.Hash{{ev.Topic()}}}, nil
	}
	conds := make([]event.Condition, len(f.args))
	for i, a := range f.args {
		c, err := event.ParseCondition(a)
		if err != nil {
			return nil, fmt.Errorf("--arg %s", strings.TrimPrefix(err.Error(), "event: "))
		}
		conds[i] = c
	}
	filter, err := ev.Filter(conds...)
	if err != nil {
		return nil, fmt.Errorf("--arg: %s", strings.TrimPrefix(err.Error(), "event: "))
	}
	return filter, nil
}

// everyEvent is the filter on every event of the ABI, by topic 0.
func (f *queryFlags) everyEvent(abi *event.ABI) (*event.Filter, error) {
	if len(abi.Events) == 0 {
		return nil, fmt.Errorf("--abi %s declares no event that can be selected by topic 0%s", f.abiFile, refusedList(abi))
	}
	topics := make([]common.Hash, len(abi.Events))
	for i, ev := range abi.Events {
		topics[i] = ev.Topic()
	}
	return &event.Filter{Topics: [][]common.Hash{topics}}, nil
}

// everyEventNotes say which events of the ABI are matched and which are
// left out, and why.
func everyEventNotes(file string, abi *event.ABI) []string {
	sigs := make([]string, len(abi.Events))
	for i, ev := range abi.Events {
		sigs[i] = ev.Signature()
	}
	notes := []string{fmt.Sprintf("abi: %s: every event, matched by topic 0 and decoded: %s", file, strings.Join(sigs, ", "))}
	refused := abi.Refused()
	for _, sig := range slices.Sorted(maps.Keys(refused)) {
		notes = append(notes, "abi: left out: "+strings.TrimPrefix(refused[sig].Error(), "event: "))
	}
	return notes
}

// readABI reads the --abi file.
func (f *queryFlags) readABI() (*event.ABI, error) {
	if f.abiFile == "" {
		return nil, nil
	}
	file, err := os.Open(f.abiFile)
	if err != nil {
		return nil, fmt.Errorf("--abi: %v", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxABIFile+1))
	if err != nil {
		return nil, fmt.Errorf("--abi: %v", err)
	}
	if len(data) > maxABIFile {
		return nil, fmt.Errorf("--abi %s: larger than %d MiB", f.abiFile, maxABIFile>>20)
	}
	abi, err := event.ParseABI(data)
	if err != nil {
		return nil, fmt.Errorf("--abi %s: %s", f.abiFile, strings.TrimPrefix(err.Error(), "event: ABI: "))
	}
	return abi, nil
}

// refusedList is ": " and the ABI's events that cannot be selected, with
// the reasons, or "".
func refusedList(abi *event.ABI) string {
	refused := abi.Refused()
	if len(refused) == 0 {
		return ""
	}
	var why []string
	for _, sig := range slices.Sorted(maps.Keys(refused)) {
		why = append(why, strings.TrimPrefix(refused[sig].Error(), "event: "))
	}
	return ": " + strings.Join(why, "; ")
}

// rawTopics reads cast's raw form: topic 0 and then up to three topics,
// each a 32-byte hash, an OR-list of them, or null (any).
func rawTopics(raw []string) (*event.Filter, error) {
	if len(raw) > ethlogs.MaxTopics {
		return nil, fmt.Errorf("TOPIC0 and %d topics after it: a log has at most %d topics", len(raw)-1, ethlogs.MaxTopics)
	}
	f := &event.Filter{Topics: make([][]common.Hash, len(raw))}
	for i, s := range raw {
		if w := strings.TrimSpace(s); w == "" || w == "null" {
			continue
		}
		list, err := event.SplitList(s)
		if err != nil {
			return nil, fmt.Errorf("topic %d: %v", i, err)
		}
		for _, h := range list {
			if !isTopic(strings.TrimSpace(h)) {
				return nil, fmt.Errorf("topic %d: %q is not a 0x-prefixed 32-byte topic (or null)", i, h)
			}
			f.Topics[i] = append(f.Topics[i], common.HexToHash(strings.TrimSpace(h)))
		}
	}
	return f, nil
}

// isTopic reports whether s is 0x and 64 hex digits.
func isTopic(s string) bool {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || len(h) != 64 {
		return false
	}
	for _, c := range h {
		if (c < '0' || c > '9') && (c|0x20 < 'a' || c|0x20 > 'f') {
			return false
		}
	}
	return true
}

// eventSet decodes each log with the event its topic 0 names: the one
// the query selects, or any event of --abi. Not safe for concurrent use.
type eventSet struct {
	byTopic map[common.Hash]*event.Event
	asked   string // the flags that ask for the events, for the query line
	topic0  bool   // asked sets topic 0

	notes io.Writer       // where each layout inferred for a signature without indexed is said
	said  map[string]bool // the layouts said
}

func (s *eventSet) add(evs ...*event.Event) {
	if s.byTopic == nil {
		s.byTopic = map[common.Hash]*event.Event{}
	}
	for _, ev := range evs {
		s.byTopic[ev.Topic()] = ev
	}
}

// key names the events, canonical declarations in topic order.
func (s *eventSet) key() string {
	var decls []string
	for _, t := range slices.SortedFunc(maps.Keys(s.byTopic), func(a, b common.Hash) int { return a.Cmp(b) }) {
		decls = append(decls, s.byTopic[t].String())
	}
	return strings.Join(decls, ";")
}

// single returns the set's event if it has exactly one, else nil.
func (s *eventSet) single() *event.Event {
	if s == nil || len(s.byTopic) != 1 {
		return nil
	}
	for _, ev := range s.byTopic {
		return ev
	}
	return nil
}

// decode decodes l with its event; nil and no error for a log of no event
// of the set.
func (s *eventSet) decode(l *types.Log) ([]event.Arg, error) {
	ev := s.of(l)
	if ev == nil {
		return nil, nil
	}
	args, err := ev.Decode(l.Topics, l.Data)
	if err == nil && ev.Unmarked() {
		s.sayLayout(ev, len(l.Topics), args)
	}
	return args, err
}

// name is the name of l's event, or "".
func (s *eventSet) name(l *types.Log) string {
	if ev := s.of(l); ev != nil {
		return ev.Name
	}
	return ""
}

func (s *eventSet) of(l *types.Log) *event.Event {
	if s == nil || len(l.Topics) == 0 {
		return nil
	}
	return s.byTopic[l.Topics[0]]
}

// sayLayout says, once for each, how logs of a signature without indexed
// were read: the reader cannot tell from the rows which values came from
// topics.
func (s *eventSet) sayLayout(ev *event.Event, topics int, args []event.Arg) {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Type
		if a.Indexed {
			parts[i] += " indexed"
		}
		parts[i] += " " + a.Name
	}
	layout := ev.Name + "(" + strings.Join(parts, ", ") + ")"
	if s.said[layout] {
		return
	}
	if s.said == nil {
		s.said = map[string]bool{}
	}
	s.said[layout] = true
	if s.notes == nil {
		return
	}
	fmt.Fprintf(s.notes, "layout: logs of %s with %d topics read as %s: the signature marks no parameter indexed, so each log's topics and data decide (addresses first, then earlier parameters); mark the indexed parameters to be sure\n",
		ev.Signature(), topics, layout)
}

// demoQuery is the demo's default question: every Transfer of its DEMO
// token.
func demoQuery(chain *demo.Chain) (ethlogs.Query, *eventSet) {
	ev, _ := event.Parse(demo.Transfer)
	set := &eventSet{asked: "--event '" + ev.String() + "'", topic0: true}
	set.add(ev)
	return ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}, Topics: [][]common.Hash{{ev.Topic()}}}, set
}

// describeQuery writes a query as the flags that ask it.
func describeQuery(q ethlogs.Query, set *eventSet) string {
	var parts []string
	for _, a := range q.Addresses {
		parts = append(parts, "--address "+a.Hex())
	}
	topics := q.Topics
	if set != nil && set.asked != "" {
		parts = append(parts, set.asked)
	}
	if set != nil && set.topic0 {
		topics = append([][]common.Hash{nil}, topics[1:]...)
	}
	if len(topics) > 0 && (set == nil || !set.topic0 || len(topics) > 1) {
		b, _ := ethlogs.Query{Topics: topics}.MarshalJSON()
		parts = append(parts, "--topics '"+strings.TrimSuffix(strings.TrimPrefix(string(b), `{"topics":`), "}")+"'")
	}
	if len(parts) == 0 {
		return "every log"
	}
	return strings.Join(parts, " ")
}
