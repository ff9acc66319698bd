package svgplot

import (
	"errors"
	"fmt"
)

// Style says how a series is drawn.
type Style uint8

// The styles.
const (
	Lines       Style = iota // a line through the points
	Points                   // a marker at each point
	LinesPoints              // both
)

// Series is one named set of points. X and Y have equal lengths.
type Series struct {
	Name  string
	X, Y  []float64
	Style Style
}

// Chart is a line chart: series of points over two axes.
type Chart struct {
	Title  string
	X, Y   Axis
	Series []Series
}

// The layout of a line chart, in pixels.
const (
	plotWidth   = 560.0
	plotHeight  = 320.0
	marginLeft  = 76.0
	marginTop   = 40.0
	marginBelow = 56.0
	legendGap   = 18.0
	legendRow   = 18.0
)

// frame is a plot area and its two fitted axes.
type frame struct {
	left, top, w, h float64
	x, y            ticked
}

func (f frame) px(v float64) float64 { return f.left + f.x.frac(v)*f.w }
func (f frame) py(v float64) float64 { return f.top + (1-f.y.frac(v))*f.h }

// SVG draws the chart. It returns an error for a chart without series or a
// series whose X and Y differ in length.
func (c *Chart) SVG(opt Options) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	var xs, ys []float64
	for _, s := range c.Series {
		xs, ys = append(xs, s.X...), append(ys, s.Y...)
	}
	f := frame{left: marginLeft, top: marginTop, w: plotWidth, h: plotHeight, x: c.X.fit(xs), y: c.Y.fit(ys)}
	width := marginLeft + plotWidth + legendGap + c.legendWidth()
	var cv canvas
	cv.open(width, marginTop+plotHeight+marginBelow, c.Title, opt)
	cv.text(width/2, 22, "middle", c.Title, `font-size="15"`, `font-weight="bold"`)
	f.drawAxes(&cv, c.X.Label, c.Y.Label)
	for i, s := range c.Series {
		c.drawSeries(&cv, f, i, s)
	}
	c.drawLegend(&cv, marginLeft+plotWidth+legendGap, marginTop)
	return cv.close(), nil
}

func (c *Chart) check() error {
	if len(c.Series) == 0 {
		return errors.New("svgplot: chart without series")
	}
	for _, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("svgplot: series %q has %d x values and %d y values", s.Name, len(s.X), len(s.Y))
		}
	}
	return nil
}

// drawAxes draws the frame, grid lines, tick labels and axis labels.
func (f frame) drawAxes(cv *canvas, xLabel, yLabel string) {
	bottom := f.top + f.h
	for i, u := range f.x.ticks {
		x := f.left + (u-f.x.lo)/(f.x.hi-f.x.lo)*f.w
		cv.line(x, f.top, x, bottom, "#e4e4e4")
		cv.text(x, bottom+17, "middle", f.x.labels[i])
	}
	for i, u := range f.y.ticks {
		y := f.top + (1-(u-f.y.lo)/(f.y.hi-f.y.lo))*f.h
		cv.line(f.left, y, f.left+f.w, y, "#e4e4e4")
		cv.text(f.left-6, y+4, "end", f.y.labels[i])
	}
	cv.rect(f.left, f.top, f.w, f.h, "none", `stroke="#444444"`)
	cv.text(f.left+f.w/2, bottom+42, "middle", xLabel)
	cx, cy := 16.0, f.top+f.h/2
	cv.text(cx, cy, "middle", yLabel, fmt.Sprintf(`transform="rotate(-90 %s %s)"`, num(cx), num(cy)))
}

// drawSeries draws series i: runs of consecutive drawable points in range
// become one line each.
func (c *Chart) drawSeries(cv *canvas, f frame, i int, s Series) {
	colour, dash := style(i)
	var run []float64
	flush := func() {
		if s.Style != Points && len(run) >= 4 {
			cv.polyline(run, colour, dash)
		}
		run = run[:0]
	}
	for j := range s.X {
		if !c.inRange(f, s.X[j], s.Y[j]) {
			flush()
			continue
		}
		x, y := f.px(s.X[j]), f.py(s.Y[j])
		run = append(run, x, y)
		if s.Style != Lines {
			cv.circle(x, y, markerSize(s.Style), colour)
		}
	}
	flush()
}

// markerSize is the radius of a point: larger where points stand alone.
func markerSize(s Style) float64 {
	if s == Points {
		return 4.5
	}
	return 3
}

func (c *Chart) inRange(f frame, x, y float64) bool {
	return c.X.drawable(x) && c.Y.drawable(y) && f.x.contains(x) && f.y.contains(y)
}

func (c *Chart) legendWidth() float64 {
	w := 0.0
	for _, s := range c.Series {
		w = max(w, textWidth(s.Name))
	}
	return 40 + w
}

// drawLegend lists the series top-down from (x, y), each with a sample of
// its line or marker.
func (c *Chart) drawLegend(cv *canvas, x, y float64) {
	for i, s := range c.Series {
		colour, dash := style(i)
		cy := y + 10 + float64(i)*legendRow
		if s.Style != Points {
			cv.line(x, cy, x+26, cy, colour, `stroke-width="1.8"`+dashAttr(dash))
		}
		if s.Style != Lines {
			cv.circle(x+13, cy, markerSize(s.Style), colour)
		}
		cv.text(x+32, cy+4, "start", s.Name)
	}
}
