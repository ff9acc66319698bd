// Package progress draws the progress line of chainsieve's long commands:
// one line on a terminal, redrawn in place at most ten times a second and
// erased before other output is written, and nothing at all when the
// stream is a pipe or a file, so that redirected output stays clean.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// interval is the least time between two redraws that are not final.
const interval = 100 * time.Millisecond

// Line is a progress line on one stream. It is not safe for concurrent use.
type Line struct {
	w     io.Writer
	on    bool
	quiet time.Time // draw nothing before
	last  time.Time
	drawn bool
}

// New returns a line on w that draws only when w is a terminal.
func New(w io.Writer) *Line { return &Line{w: w, on: isTerminal(w)} }

// NewAfter returns a line on w that draws only when w is a terminal and
// only once d has passed since the call: work that ends sooner shows no
// progress at all, rather than a line that flashes and is erased.
func NewAfter(w io.Writer, d time.Duration) *Line {
	l := New(w)
	l.quiet = time.Now().Add(d)
	return l
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Draw replaces the line with text(). It draws nothing on a stream that
// is not a terminal or before a [NewAfter] line's delay, and skips a
// redraw within 100 ms of the last one unless final is set (the last step
// of the work), so that the line ends on the true figure; text is called
// only when the line is drawn.
func (l *Line) Draw(final bool, text func() string) {
	if !l.on || time.Now().Before(l.quiet) || (!final && time.Since(l.last) < interval) {
		return
	}
	l.last = time.Now()
	fmt.Fprint(l.w, "\r\033[K"+text())
	l.drawn = true
}

// Clear erases the line, if it is drawn, before other output.
func (l *Line) Clear() {
	if l.drawn {
		fmt.Fprint(l.w, "\r\033[K")
		l.drawn = false
	}
}

// Bar returns a bar of width cells with the fraction frac of them filled,
// frac clamped to [0, 1]: "[#####.....]" for 0.5 and width 10.
func Bar(frac float64, width int) string {
	n := int(min(max(frac, 0), 1) * float64(width))
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}
