package progress

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	var buf strings.Builder
	l := &Line{w: &buf, on: true}
	block := func(n int) func() string { return func() string { return fmt.Sprint("block ", n) } }
	l.Draw(false, block(1))
	l.Draw(false, func() string { t.Error("text of a skipped redraw computed"); return "" }) // within 100 ms
	l.Draw(true, block(3))                                                                   // final: drawn
	l.Clear()
	l.Clear() // nothing drawn since
	if got, want := buf.String(), "\r\033[Kblock 1\r\033[Kblock 3\r\033[K"; got != want {
		t.Errorf("Draw, Draw, Draw(final), Clear, Clear wrote %q, want %q", got, want)
	}
}

func TestLineAfter(t *testing.T) {
	var buf strings.Builder
	l := &Line{w: &buf, on: true, quiet: time.Now().Add(time.Hour)}
	l.Draw(true, func() string { t.Error("text computed before the delay"); return "" })
	l.Clear()
	if buf.Len() != 0 {
		t.Errorf("a line within its delay wrote %q", buf.String())
	}
	l.quiet = time.Now().Add(-time.Millisecond) // the delay has passed
	l.Draw(false, func() string { return "step 2" })
	l.Clear()
	if got, want := buf.String(), "\r\033[Kstep 2\r\033[K"; got != want {
		t.Errorf("after the delay: wrote %q, want %q", got, want)
	}
	if l := NewAfter(&buf, time.Second); l.on || !l.quiet.After(time.Now()) {
		t.Errorf("NewAfter(a non-terminal, 1s): on %v, quiet until %v", l.on, l.quiet)
	}
}

func TestLineQuietInPipe(t *testing.T) {
	var buf strings.Builder
	l := New(&buf) // not a terminal
	l.Draw(true, func() string { t.Error("text computed for a non-terminal"); return "" })
	l.Clear()
	if buf.Len() != 0 {
		t.Errorf("a line on a non-terminal wrote %q", buf.String())
	}
}

func TestBar(t *testing.T) {
	tests := []struct {
		frac  float64
		width int
		want  string
	}{
		{0, 4, "[....]"},
		{0.5, 10, "[#####.....]"},
		{0.99, 10, "[#########.]"},
		{1, 4, "[####]"},
		{1.5, 4, "[####]"},
		{-1, 4, "[....]"},
	}
	for _, tt := range tests {
		if got := Bar(tt.frac, tt.width); got != tt.want {
			t.Errorf("Bar(%g, %d) = %q, want %q", tt.frac, tt.width, got, tt.want)
		}
	}
}
