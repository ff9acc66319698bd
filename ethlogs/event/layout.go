package event

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// maxLayouts bounds the layouts tried for one log of an unmarked event,
// each a decoding of the whole log: C(n, k) grows fast with the parameter
// count n. 512 covers three indexed parameters among fifteen.
const maxLayouts = 512

// Layouts returns the ways a log can be read as this event, most likely
// first, each as the event with its indexed parameters marked.
//
// For a declaration that marks its indexed parameters that is the event
// itself, if the log decodes. For an [Event.Unmarked] one, such as cast's
// Transfer(address,address,uint256), Solidity leaves the order of indexed
// parameters free, so the log decides: its topic count gives the number k
// of indexed parameters, and every choice of k parameters is tried. A
// choice fits when each topic is the canonical word of its parameter's
// type and the data decodes the rest; choices under which the data is
// exactly the canonical encoding, with nothing left over, come first.
// Where several fit (the topics and data of Transfer(address,address,uint256)
// with one uint256 topic would also read as an address, most often), the
// order is:
//
//  1. more address parameters indexed first: ERC-20, ERC-721, ERC-1155,
//     Uniswap and most other contracts index their addresses;
//  2. then the earlier parameters: Solidity code lists indexed
//     parameters first far more often than last.
//
// [Event.Decode], [Event.Values] and [Event.Unpack] use the first layout.
// A layout a [Filter] assumed (a value asked for at topic 2) binds: only
// layouts that put that parameter at that topic are tried.
func (e *Event) Layouts(topics []common.Hash, data []byte) []*Event {
	if len(topics) == 0 || topics[0] != e.Topic() {
		return nil
	}
	if !e.unmarked {
		if _, _, err := e.decodeLaidOut(topics, data); err != nil {
			return nil
		}
		return []*Event{e}
	}
	candidates, err := e.layoutsFor(len(topics) - 1)
	if err != nil {
		return nil
	}
	var exact, loose []*Event
	for _, ev := range candidates {
		if _, ok, err := ev.decodeLaidOut(topics, data); err == nil && ok {
			exact = append(exact, ev)
		} else if err == nil {
			loose = append(loose, ev)
		}
	}
	return append(exact, loose...)
}

// infer decodes a log of an unmarked event with its first layout.
func (e *Event) infer(topics []common.Hash, data []byte) (*Event, []any, error) {
	candidates, err := e.layoutsFor(len(topics) - 1)
	if err != nil {
		return nil, nil, err
	}
	var loose *Event
	var looseValues []any
	var firstErr error
	for _, ev := range candidates {
		values, exact, err := ev.decodeLaidOut(topics, data)
		switch {
		case err == nil && exact:
			return ev, values, nil
		case err == nil && loose == nil:
			loose, looseValues = ev, values
		case err != nil && firstErr == nil:
			firstErr = err
		}
	}
	if loose != nil {
		return loose, looseValues, nil
	}
	if len(candidates) == 1 && firstErr != nil {
		return nil, nil, firstErr // the topic count leaves one layout: its own error says it best
	}
	if firstErr == nil {
		return nil, nil, fmt.Errorf("event: %d topics: no layout of %s puts its values there", len(topics), e.Signature())
	}
	return nil, nil, fmt.Errorf("event: %d topics, and no choice of %d indexed parameters of %s decodes the log; the likeliest, %s, gives: %v",
		len(topics), len(topics)-1, e.Signature(), candidates[0], firstErr)
}

// layoutCache keeps an unmarked event's candidate layouts per topic
// count, worked out on first use.
type layoutCache struct {
	once    [MaxIndexed + 1]sync.Once
	layouts [MaxIndexed + 1][]*Event
	err     [MaxIndexed + 1]error
}

// layoutsFor returns the candidate layouts of an unmarked event for k
// indexed parameters, in the order Layouts documents.
func (e *Event) layoutsFor(k int) ([]*Event, error) {
	build := func() ([]*Event, error) {
		masks, err := e.candidates(k)
		evs := make([]*Event, len(masks))
		for i, m := range masks {
			evs[i] = e.withIndexed(m)
		}
		return evs, err
	}
	if e.cache == nil || k < 0 || k > MaxIndexed {
		return build()
	}
	c := e.cache
	c.once[k].Do(func() { c.layouts[k], c.err[k] = build() })
	return c.layouts[k], c.err[k]
}

// candidates lists the choices of k indexed parameters, as masks over
// e.Inputs, in the order Layouts documents, keeping only those that agree
// with e's pins.
func (e *Event) candidates(k int) ([][]bool, error) {
	n := len(e.Inputs)
	if k > MaxIndexed || k > n {
		return nil, fmt.Errorf("event: %d topics, %s has %d parameters, at most %d of them indexed", k+1, e.Signature(), n, min(n, MaxIndexed))
	}
	if binomial(n, k) > maxLayouts {
		return nil, fmt.Errorf("event: %s has too many parameters to work out which %d are indexed: mark them indexed", e.Signature(), k)
	}
	var masks [][]bool
	pick := make([]int, 0, k)
	var walk func(from int)
	walk = func(from int) {
		if len(pick) == k {
			m := make([]bool, n)
			for _, i := range pick {
				m[i] = true
			}
			if e.agrees(m) {
				masks = append(masks, m)
			}
			return
		}
		for i := from; i < n; i++ {
			pick = append(pick, i)
			walk(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	walk(0) // lexicographic: earlier parameters first
	slices.SortStableFunc(masks, func(a, b []bool) int { return e.addresses(b) - e.addresses(a) })
	if len(masks) == 0 {
		return nil, fmt.Errorf("event: a log of %s with %d topics cannot have %s, as the filter assumed", e.Signature(), k+1, e.pinNames())
	}
	return masks, nil
}

// agrees reports whether mask puts every pinned parameter at its topic.
func (e *Event) agrees(mask []bool) bool {
	for i, pos := range e.pins {
		if !mask[i] || 1+count(mask[:i]) != pos {
			return false
		}
	}
	return true
}

func (e *Event) addresses(mask []bool) int {
	n := 0
	for i, m := range mask {
		if m && e.Inputs[i].Type.Kind == Address {
			n++
		}
	}
	return n
}

func (e *Event) pinNames() string {
	var said []string
	for i := range e.Inputs {
		if pos, ok := e.pins[i]; ok {
			said = append(said, fmt.Sprintf("%s at topic %d", e.argName(i), pos))
		}
	}
	return strings.Join(said, ", ")
}

func count(mask []bool) int {
	n := 0
	for _, m := range mask {
		if m {
			n++
		}
	}
	return n
}

func binomial(n, k int) int {
	r := 1
	for i := range k {
		r = r * (n - i) / (i + 1)
	}
	return r
}
