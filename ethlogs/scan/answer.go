package scan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chainsieve/chainsieve/core/untrusted"
)

// answers reads the JSON-RPC answer to one request as it streams in: a
// single object, or an array of them for a batch, matched to the calls by
// id. Each result is kept compact, under its call's limit, and all of
// them under the room the request has; an error object keeps its code and
// the first bytes of its message. No more answers than calls are read: an
// unknown or repeated id ends the answer.
type answers struct {
	r      *jsonReader
	calls  []Call
	room   int // bytes the results may take in all
	budget int // the client's budget: a call's limit is its own, at most this
	widest int // the largest limit of the calls, for a result whose id is not known yet
	used   int

	got   []answer // by call
	seen  []bool
	value capture
	arena arena
}

// answer is one answer object as read: its id and its result or error.
type answer struct {
	id     int // -1: none, or null; len(calls): another number
	result []byte
	err    *RPCError
}

// readAnswer reads the answer to calls from r and fills in each call's
// Result or Err, the results taking at most room bytes in all, each at
// most its limit under budget (see [Call.Limit]). The error is for the
// answer as a whole: one that does not parse, is too large
// ([*TooLargeError]) or cut off, or an error object refusing the whole
// request. A batch whose results outgrow the room fails with a
// TooLargeError for the budget, and the calls answered before that keep
// their answers, so that only the others need asking again.
func readAnswer(r *jsonReader, calls []Call, room, budget int) error {
	a := &answers{r: r, calls: calls, room: room, budget: budget, got: make([]answer, len(calls)), seen: make([]bool, len(calls))}
	for i := range calls {
		a.widest = max(a.widest, calls[i].limit(budget))
	}
	err := a.read()
	var te *TooLargeError
	if err != nil && !(errors.As(err, &te) && te.Budget) {
		return err
	}
	for i := range calls {
		c, g := &calls[i], a.got[i]
		switch {
		case !a.seen[i] && err != nil:
		case !a.seen[i]:
			c.Err = fmt.Errorf("%s: no answer in the batch", c.Method)
		case g.err != nil:
			c.Err = g.err
		case g.result == nil:
			c.Err = fmt.Errorf("%s: answer has neither result nor error", c.Method)
		default:
			c.Result = g.result
		}
	}
	return err
}

func (a *answers) read() error {
	c, err := a.r.peek()
	switch {
	case err != nil:
		return err
	case c == '{':
		return a.single()
	case c != '[':
		return a.r.bad("%q where a JSON-RPC answer belongs", c)
	}
	a.r.pos++
	if c, err = a.r.peek(); err != nil {
		return err
	}
	if c == ']' {
		a.r.pos++
		return nil
	}
	for {
		if err := a.element(); err != nil {
			return err
		}
		if c, err = a.r.peek(); err != nil {
			return err
		}
		a.r.pos++
		switch c {
		case ']':
			return nil
		case ',':
		default:
			return a.r.bad("%q after an answer", c)
		}
	}
}

// single reads an answer that is one object: the answer to a single call,
// or an error refusing a whole batch.
func (a *answers) single() error {
	got, err := a.object()
	switch {
	case err != nil:
		return err
	case len(a.calls) == 1 && got.id == 0:
		a.got[0], a.seen[0] = got, true
		return nil
	case got.err != nil && got.id < 0:
		return got.err
	case got.id < 0:
		return errors.New("JSON-RPC answer without an id")
	}
	return fmt.Errorf("JSON-RPC answer with an unknown id to %s", describe(a.calls))
}

// element reads one answer of a batch.
func (a *answers) element() error {
	c, err := a.r.peek()
	if err != nil {
		return err
	}
	if c != '{' {
		return a.r.bad("%q where a JSON-RPC answer belongs", c)
	}
	got, err := a.object()
	if err != nil {
		return err
	}
	if got.id < 0 || got.id >= len(a.calls) || a.seen[got.id] {
		return fmt.Errorf("JSON-RPC answer with an unknown or repeated id to %s", describe(a.calls))
	}
	a.got[got.id], a.seen[got.id] = got, true
	return nil
}

// answerMembers are the members of an answer object read; others are
// skipped.
var answerMembers = []string{"id", "result", "error"}

// object reads one answer object.
func (a *answers) object() (answer, error) {
	got := answer{id: -1}
	err := a.r.members(2, answerMembers, func(i int) error {
		var err error
		switch i {
		case 0:
			got.id, err = a.id()
		case 1:
			got.result, err = a.result(got.id)
		case 2:
			got.err, err = a.errorObject()
		default:
			err = a.r.value(2)
		}
		return err
	})
	if err == nil && got.id >= 0 && got.id < len(a.calls) && got.result != nil {
		if l := a.calls[got.id].limit(a.budget); len(got.result) > l {
			err = a.tooLarge(got.id, l)
		}
	}
	return got, err
}

// id reads an answer's id: an index into the calls, -1 for null or any
// other number. Ids are the calls' indexes, written as integers.
func (a *answers) id() (int, error) {
	s, err := a.r.scalar()
	if err != nil || s == "null" {
		return -1, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1, a.r.bad("id %s does not fit 64 bits", s)
	}
	if n < 0 || n >= int64(len(a.calls)) {
		n = int64(len(a.calls)) // unknown
	}
	return int(n), nil
}

// result keeps a result, compact. With the id not read yet, the widest
// limit of the calls applies until it is.
func (a *answers) result(id int) ([]byte, error) {
	room := a.room - a.used
	limit, own := a.widest, false
	if id >= 0 && id < len(a.calls) {
		limit, own = a.calls[id].limit(a.budget), true
	}
	err := a.r.keep(&a.value, min(room, limit), 2)
	switch {
	case err == nil:
		res := a.arena.keep(&a.value)
		a.used += len(res)
		return res, nil
	case !errors.Is(err, errTooLarge):
		return nil, err
	case room < limit:
		return nil, &TooLargeError{Request: describe(a.calls), Limit: a.budget, Calls: len(a.calls), Budget: true}
	case own:
		return nil, a.tooLarge(id, limit)
	}
	return nil, a.tooLarge(-1, limit)
}

// tooLarge is the error of the result of call i (-1: not known) over
// limit.
func (a *answers) tooLarge(i, limit int) error {
	e := &TooLargeError{Request: describe(a.calls), Limit: limit, Calls: len(a.calls)}
	if i >= 0 {
		e.Call = a.calls[i].String()
	}
	return e
}

// errorObject reads an error member: null, or an object with an integer
// code and a string message, which is decoded in part and made safe to
// print ([untrusted.Text]).
func (a *answers) errorObject() (*RPCError, error) {
	r := a.r
	c, err := r.peek()
	switch {
	case err != nil:
		return nil, err
	case c == 'n':
		return nil, r.literal("null")
	}
	e := &RPCError{}
	err = r.members(3, errorMembers, func(i int) error {
		var err error
		switch i {
		case 0:
			e.Code, err = a.code()
		case 1:
			e.Message, err = a.message()
		default:
			err = r.value(3)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// errorMembers are the members of an error object read.
var errorMembers = []string{"code", "message"}

// code reads an error code: an integer that fits an int, or null.
func (a *answers) code() (int, error) {
	s, err := a.r.scalar()
	if err != nil || s == "null" {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return 0, a.r.bad("error code %s does not fit an int", s)
	}
	return int(n), nil
}

// message reads an error message, a string or null, as safe text.
func (a *answers) message() (string, error) {
	r := a.r
	c, err := r.peek()
	switch {
	case err != nil:
		return "", err
	case c == 'n':
		return "", r.literal("null")
	case c != '"':
		return "", r.bad("%q where an error message belongs", c)
	}
	s, n, err := r.text(nil, messageLimit)
	if err != nil {
		return "", err
	}
	return clipped(s, n), nil
}

// clipped is [untrusted.Text] of a text of n bytes of which s is the
// start, its marker of the bytes cut counting all n; n < 0 is a text that
// goes on for an unknown length. s must hold more than untrusted.Text
// shows whenever the text is longer than s.
func clipped(s []byte, n int64) string {
	t := untrusted.Text(string(s))
	if n == int64(len(s)) {
		return t
	}
	const mark, unit = "…(+", " bytes)"
	i := strings.LastIndex(t, mark)
	if i < 0 || !strings.HasSuffix(t, unit) {
		return t
	}
	cut, err := strconv.ParseInt(t[i+len(mark):len(t)-len(unit)], 10, 64)
	if err != nil {
		return t
	}
	if n < 0 {
		return t[:i] + mark + strconv.FormatInt(cut, 10) + " bytes and more)"
	}
	return t[:i] + mark + strconv.FormatInt(cut+n-int64(len(s)), 10) + unit
}

// scalar reads null or an integer of at most 32 characters, enough for
// any int64; any other number is an error, as for encoding/json reading
// it into an integer.
func (r *jsonReader) scalar() (string, error) {
	c, err := r.peek()
	switch {
	case err != nil:
		return "", err
	case c == 'n':
		return "null", r.literal("null")
	case c != '-' && (c < '0' || c > '9'):
		return "", r.bad("%q where a number belongs", c)
	}
	n := 0
	take := func() bool {
		if n == len(r.num) {
			return false
		}
		r.num[n] = r.buf[r.pos]
		n, r.pos = n+1, r.pos+1
		return true
	}
	if r.at('-') {
		take()
	}
	switch {
	case r.at('0'):
		take()
	case r.need(1) && r.buf[r.pos] >= '1' && r.buf[r.pos] <= '9':
		for r.need(1) && r.buf[r.pos] >= '0' && r.buf[r.pos] <= '9' {
			if !take() {
				return "", r.bad("a number of more than %d characters", len(r.num))
			}
		}
	case !r.need(1):
		return "", r.short()
	default:
		return "", r.bad("%q in a number", r.buf[r.pos])
	}
	if r.at('.') || r.at('e') || r.at('E') {
		return "", r.bad("%s%c…: not an integer", r.num[:n], r.buf[r.pos])
	}
	return string(r.num[:n]), nil
}
