package scan

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds how deeply an answer nests. The deepest honest one, a
// batch of receipts (batch, answer, receipts, receipt, logs, log, topics),
// nests 7 levels.
const maxDepth = 64

// readWindow is how much of the stream a jsonReader holds at once.
const readWindow = 64 << 10

// errTooLarge is a kept value outgrowing the room it was given.
var errTooLarge = errors.New("too large")

// plain marks the bytes a JSON string holds as they are: all but control
// characters, the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonReader reads JSON from a stream one token at a time, for answers of
// any size: whitespace is skipped as it streams past, and a value is
// either skipped or kept, compacted, in out, which bounds it. What it
// holds is its window and out, whatever the stream sends. It is not safe
// for concurrent use.
type jsonReader struct {
	src      io.Reader
	buf      []byte
	pos, end int
	read     int64 // bytes read from src, whitespace included
	err      error // what ended src: io.EOF or a read error

	out  *capture // where a value being kept goes; nil: values are skipped
	name [32]byte // a member name read by members
	num  [32]byte // an integer read by scalar
}

func newJSONReader() *jsonReader { return &jsonReader{buf: make([]byte, readWindow)} }

// reset points r at src, dropping what it held.
func (r *jsonReader) reset(src io.Reader) {
	r.src, r.pos, r.end, r.read, r.err = src, 0, 0, 0, nil
	r.out = nil
}

// offset is the position in the stream of the next byte.
func (r *jsonReader) offset() int64 { return r.read - int64(r.end-r.pos) }

// need makes at least n bytes (n ≤ the window) available at buf[pos:],
// and reports false when the stream ends or fails first. It waits for
// them: on a stream that carries one answer after another (IPC), n must
// not reach past the end of the answer being read.
func (r *jsonReader) need(n int) bool {
	for r.end-r.pos < n {
		if r.err != nil {
			return false
		}
		if r.pos > 0 {
			r.end = copy(r.buf, r.buf[r.pos:r.end])
			r.pos = 0
		}
		m, err := r.src.Read(r.buf[r.end:])
		r.end += m
		r.read += int64(m)
		switch {
		case err != nil:
			r.err = err
		case m == 0:
			r.err = io.ErrNoProgress // a broken reader: never spin
		}
	}
	return true
}

// short is the error of a stream that ends inside a value: cut off, or
// failed (a timeout, a lost connection).
func (r *jsonReader) short() error {
	if r.err == io.EOF || r.err == nil {
		return fmt.Errorf("answer cut off at byte %d: %w", r.offset(), io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading the answer at byte %d: %w", r.offset(), r.err)
}

// bad is a syntax error at the current byte. Its text is ours: a byte of
// the stream appears only Go-quoted.
func (r *jsonReader) bad(format string, args ...any) error {
	return &syntaxError{r.offset(), fmt.Sprintf(format, args...)}
}

// syntaxError is an answer that is not JSON, or not a JSON-RPC answer.
type syntaxError struct {
	Offset int64
	msg    string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("malformed JSON-RPC answer at byte %d: %s", e.Offset, e.msg)
}

// peek skips whitespace and returns the next byte, not consumed.
func (r *jsonReader) peek() (byte, error) {
	for r.need(1) {
		for ; r.pos < r.end; r.pos++ {
			switch c := r.buf[r.pos]; c {
			case ' ', '\t', '\n', '\r':
			default:
				return c, nil
			}
		}
	}
	return 0, r.short()
}

// atEnd skips whitespace to the end of the stream and fails if anything
// else follows the answer.
func (r *jsonReader) atEnd() error {
	c, err := r.peek()
	switch {
	case err == nil:
		return r.bad("%q after the answer", c)
	case r.err == io.EOF:
		return nil
	}
	return err
}

func (r *jsonReader) emit(b []byte) error {
	if r.out == nil {
		return nil
	}
	return r.out.write(b)
}

func (r *jsonReader) emitByte(c byte) error {
	if r.out == nil {
		return nil
	}
	return r.out.writeByte(c)
}

// keep reads a value into c, at most limit bytes of it.
func (r *jsonReader) keep(c *capture, limit, depth int) error {
	c.reset(limit)
	r.out = c
	err := r.value(depth)
	r.out = nil
	if err != nil {
		c.release()
	}
	return err
}

// expect consumes c, after whitespace.
func (r *jsonReader) expect(c byte) error {
	got, err := r.peek()
	if err != nil {
		return err
	}
	if got != c {
		return r.bad("%q where %q belongs", got, c)
	}
	r.pos++
	return r.emitByte(c)
}

// value reads one value at the given depth of nesting.
func (r *jsonReader) value(depth int) error {
	c, err := r.peek()
	switch {
	case err != nil:
		return err
	case c == '{' || c == '[':
		return r.container(c, depth+1)
	case c == '"':
		return r.str()
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	}
	return r.bad("%q where a value belongs", c)
}

// container reads an object or an array, open being its first byte.
func (r *jsonReader) container(open byte, depth int) error {
	if depth > maxDepth {
		return r.bad("nested deeper than %d", maxDepth)
	}
	close := open + 2 // '{'+2 == '}', '['+2 == ']'
	r.pos++
	if err := r.emitByte(open); err != nil {
		return err
	}
	c, err := r.peek()
	if err != nil {
		return err
	}
	if c == close {
		r.pos++
		return r.emitByte(close)
	}
	for {
		if open == '{' {
			if c != '"' {
				return r.bad("%q where a member name belongs", c)
			}
			if err := r.str(); err != nil {
				return err
			}
			if err := r.expect(':'); err != nil {
				return err
			}
		}
		if err := r.value(depth); err != nil {
			return err
		}
		if c, err = r.peek(); err != nil {
			return err
		}
		if c != ',' && c != close {
			return r.bad("%q after a member or element", c)
		}
		r.pos++
		if err := r.emitByte(c); err != nil || c == close {
			return err
		}
		if c, err = r.peek(); err != nil {
			return err
		}
	}
}

// members reads an object at depth, calling member for each member with
// the index of its name in names (-1 for another name) and the reader at
// its value. A name of names given twice is an error.
func (r *jsonReader) members(depth int, names []string, member func(i int) error) error {
	c, err := r.peek()
	if err != nil {
		return err
	}
	if c != '{' {
		return r.bad("%q where an object belongs", c)
	}
	if depth > maxDepth {
		return r.bad("nested deeper than %d", maxDepth)
	}
	var seen uint64
	r.pos++
	if c, err = r.peek(); err != nil {
		return err
	}
	if c == '}' {
		r.pos++
		return nil
	}
	for {
		if c != '"' {
			return r.bad("%q where a member name belongs", c)
		}
		name, n, err := r.text(r.name[:0], len(r.name))
		if err != nil {
			return err
		}
		i := -1
		if n == int64(len(name)) {
			i = slices.Index(names, string(name))
		}
		if i >= 0 && seen&(1<<i) != 0 {
			return r.bad("member %q repeated", names[i])
		}
		if i >= 0 {
			seen |= 1 << i
		}
		if err := r.expect(':'); err != nil {
			return err
		}
		if err := member(i); err != nil {
			return err
		}
		if c, err = r.peek(); err != nil {
			return err
		}
		r.pos++
		switch c {
		case '}':
			return nil
		case ',':
		default:
			return r.bad("%q after a member", c)
		}
		if c, err = r.peek(); err != nil {
			return err
		}
	}
}

// literal reads true, false or null.
func (r *jsonReader) literal(word string) error {
	whole := r.need(len(word))
	have := r.buf[r.pos:min(r.end, r.pos+len(word))]
	switch {
	case string(have) != word[:len(have)]:
		return r.bad("%q where %s belongs", have, word)
	case !whole:
		return r.short()
	}
	r.pos += len(word)
	return r.emit([]byte(word))
}

// number reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *jsonReader) number() error {
	if r.at('-') {
		if err := r.take(); err != nil {
			return err
		}
	}
	if r.at('0') {
		if err := r.take(); err != nil {
			return err
		}
	} else if err := r.digits(); err != nil {
		return err
	}
	if r.at('.') {
		if err := r.take(); err != nil {
			return err
		}
		if err := r.digits(); err != nil {
			return err
		}
	}
	if r.at('e') || r.at('E') {
		if err := r.take(); err != nil {
			return err
		}
		if r.at('+') || r.at('-') {
			if err := r.take(); err != nil {
				return err
			}
		}
		return r.digits()
	}
	return nil
}

// at reports whether the next byte is c.
func (r *jsonReader) at(c byte) bool { return r.need(1) && r.buf[r.pos] == c }

// take consumes the next byte of a number.
func (r *jsonReader) take() error {
	r.pos++
	return r.emitByte(r.buf[r.pos-1])
}

// digits reads one or more decimal digits.
func (r *jsonReader) digits() error {
	if !r.need(1) {
		return r.short()
	}
	if c := r.buf[r.pos]; c < '0' || c > '9' {
		return r.bad("%q in a number", c)
	}
	for r.need(1) {
		c := r.buf[r.pos]
		if c < '0' || c > '9' {
			return nil
		}
		if err := r.take(); err != nil {
			return err
		}
	}
	return nil
}

// str reads a string as it is written, escapes checked and kept.
func (r *jsonReader) str() error {
	r.pos++
	if err := r.emitByte('"'); err != nil {
		return err
	}
	for {
		if !r.need(1) {
			return r.short()
		}
		i := r.pos
		for i < r.end && plain[r.buf[i]] {
			i++
		}
		if err := r.emit(r.buf[r.pos:i]); err != nil {
			return err
		}
		r.pos = i
		if i == r.end {
			continue
		}
		switch c := r.buf[i]; {
		case c == '"':
			r.pos++
			return r.emitByte('"')
		case c == '\\':
			n, _, err := r.escape()
			if err != nil {
				return err
			}
			if err := r.emit(r.buf[r.pos : r.pos+n]); err != nil {
				return err
			}
			r.pos += n
		default:
			return r.bad("control character %q in a string", c)
		}
	}
}

// escape checks the escape at buf[pos:] and returns its length and the
// character it stands for, not consumed.
func (r *jsonReader) escape() (int, rune, error) {
	if !r.need(2) {
		return 0, 0, r.short()
	}
	switch e := r.buf[r.pos+1]; e {
	case '"', '\\', '/':
		return 2, rune(e), nil
	case 'b':
		return 2, '\b', nil
	case 'f':
		return 2, '\f', nil
	case 'n':
		return 2, '\n', nil
	case 'r':
		return 2, '\r', nil
	case 't':
		return 2, '\t', nil
	case 'u':
		if !r.need(6) {
			return 0, 0, r.short()
		}
		if c := hex4(r.buf[r.pos+2 : r.pos+6]); c >= 0 {
			return 6, c, nil
		}
		return 0, 0, r.bad("invalid escape %q", r.buf[r.pos:r.pos+6])
	default:
		return 0, 0, r.bad("invalid escape %q", r.buf[r.pos:r.pos+2])
	}
}

// hex4 decodes four hex digits, -1 if they are not.
func hex4(b []byte) rune {
	var v rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		v = v<<4 | rune(c)
	}
	return v
}

// text reads a string and decodes it as encoding/json does (a lone
// surrogate or invalid UTF-8 becomes U+FFFD), appending its first max
// bytes to s; n is its whole decoded length.
func (r *jsonReader) text(s []byte, max int) (_ []byte, n int64, err error) {
	put := func(b []byte) {
		n += int64(len(b))
		if room := max - len(s); room > 0 {
			s = append(s, b[:min(room, len(b))]...)
		}
	}
	var rb [utf8.UTFMax]byte
	putRune := func(c rune) { put(rb[:utf8.EncodeRune(rb[:], c)]) }
	r.pos++
	for {
		if !r.need(1) {
			return nil, 0, r.short()
		}
		switch c := r.buf[r.pos]; {
		case c == '"':
			r.pos++
			return s, n, nil
		case c < 0x20:
			return nil, 0, r.bad("control character %q in a string", c)
		case c == '\\':
			size, e, err := r.escape()
			if err != nil {
				return nil, 0, err
			}
			r.pos += size
			if utf16.IsSurrogate(e) {
				e = r.lowSurrogate(e)
			}
			putRune(e)
		case c < utf8.RuneSelf:
			i := r.pos
			for i < r.end && r.buf[i] < utf8.RuneSelf && plain[r.buf[i]] {
				i++
			}
			put(r.buf[r.pos:i])
			r.pos = i
		default:
			// One more byte at a time: on a stream whose next answer has
			// not been asked for, reading ahead would wait for it.
			for !utf8.FullRune(r.buf[r.pos:r.end]) && r.need(r.end-r.pos+1) {
			}
			e, size := utf8.DecodeRune(r.buf[r.pos:r.end])
			r.pos += size
			putRune(e) // RuneError for an invalid byte, as encoding/json
		}
	}
}

// lowSurrogate completes the UTF-16 surrogate hi with the \u escape that
// follows it, consumed only when the two make a character, as
// encoding/json does; U+FFFD otherwise.
func (r *jsonReader) lowSurrogate(hi rune) rune {
	if !r.need(1) || r.buf[r.pos] != '\\' || !r.need(2) || r.buf[r.pos+1] != 'u' || !r.need(6) {
		return utf8.RuneError
	}
	c := utf16.DecodeRune(hi, hex4(r.buf[r.pos+2:r.pos+6]))
	if c != utf8.RuneError {
		r.pos += 6
	}
	return c
}
