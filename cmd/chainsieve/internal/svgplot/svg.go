package svgplot

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Options control how a chart is written.
type Options struct {
	// Standalone adds the XML namespace declaration a .svg file needs to be
	// displayed on its own. HTML5 documents inline SVG without it.
	Standalone bool
}

// palette is Okabe and Ito's colour-blind-safe set, with grey in place of
// its yellow, which is too faint on white.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#888888"}

// dashes give series beyond the palette a second look.
var dashes = []string{"", "7 3", "2 3", "9 3 2 3"}

// style returns the colour and dash pattern of series i.
func style(i int) (colour, dash string) {
	return palette[i%len(palette)], dashes[i/len(palette)%len(dashes)]
}

// fontSize is the size of all text but titles, in pixels; charWidth is the
// average advance of a sans-serif character at that size, used to size
// label columns and legends without measuring text.
const (
	fontSize  = 12
	charWidth = 6.8
)

// textWidth estimates the rendered width of s.
func textWidth(s string) float64 { return float64(len([]rune(s))) * charWidth }

// canvas accumulates SVG elements.
type canvas struct{ b bytes.Buffer }

func (c *canvas) open(w, h float64, title string, opt Options) {
	c.b.WriteString(`<svg`)
	if opt.Standalone {
		c.b.WriteString(` xmlns="http://www.w3.org/2000/svg"`)
	}
	c.printf(` width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" font-family="sans-serif" font-size="%d">`+"\n",
		num(w), num(h), num(w), num(h), escape(title), fontSize)
	c.printf("<title>%s</title>\n", escape(title))
	c.printf(`<rect width="%s" height="%s" fill="#ffffff"/>`+"\n", num(w), num(h))
}

func (c *canvas) close() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}

// text writes s at (x, y); anchor is start, middle or end.
func (c *canvas) text(x, y float64, anchor, s string, attrs ...string) {
	c.printf(`<text x="%s" y="%s" text-anchor="%s"%s>%s</text>`+"\n", num(x), num(y), anchor, join(attrs), escape(s))
}

func (c *canvas) line(x1, y1, x2, y2 float64, stroke string, attrs ...string) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`+"\n", num(x1), num(y1), num(x2), num(y2), stroke, join(attrs))
}

func (c *canvas) rect(x, y, w, h float64, fill string, attrs ...string) {
	c.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"%s/>`+"\n", num(x), num(y), num(w), num(h), fill, join(attrs))
}

func (c *canvas) circle(x, y, r float64, fill string) {
	c.printf(`<circle cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n", num(x), num(y), num(r), fill)
}

// polyline draws the points (x0 y0 x1 y1 …) as one stroked line.
func (c *canvas) polyline(pts []float64, stroke, dash string) {
	var b strings.Builder
	for i := 0; i+1 < len(pts); i += 2 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(pts[i]) + "," + num(pts[i+1]))
	}
	c.printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="1.8"%s/>`+"\n", b.String(), stroke, dashAttr(dash))
}

func (c *canvas) printf(format string, args ...any) {
	fmt.Fprintf(&c.b, format, args...)
}

func dashAttr(dash string) string {
	if dash == "" {
		return ""
	}
	return ` stroke-dasharray="` + dash + `"`
}

func join(attrs []string) string {
	if len(attrs) == 0 {
		return ""
	}
	return " " + strings.Join(attrs, " ")
}

// num writes a coordinate with one decimal, the resolution of a pixel tenth,
// so that output is byte-stable.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// escape makes s safe as XML text and attribute value.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
