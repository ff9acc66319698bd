package svgplot

import (
	"errors"
	"fmt"
	"math"
)

// BarSeries is one named value per label of a [Bars] chart; NaN marks a
// label the series has no value for.
type BarSeries struct {
	Name   string
	Values []float64
}

// Bars is a horizontal bar chart: one row per label, one bar per series in
// each row, lengths on the Value axis (drawn along the bottom).
type Bars struct {
	Title  string
	Value  Axis
	Labels []string
	Series []BarSeries
}

// The layout of a bar chart, in pixels.
const (
	barHeight   = 14.0
	barGap      = 10.0
	barPlot     = 440.0
	maxLabelCol = 420.0
)

// SVG draws the chart. It returns an error for a chart without labels or
// series, or a series whose values do not match the labels one for one.
func (b *Bars) SVG(opt Options) ([]byte, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	var vs []float64
	for _, s := range b.Series {
		vs = append(vs, s.Values...)
	}
	if b.Value.Scale == Log {
		// Start a decade below the smallest bar, so that it has a length.
		lo, _ := b.Value.dataRange(vs)
		vs = append(vs, lo/10)
	}
	labelCol := b.labelWidth()
	legendH := 0.0
	if len(b.Series) > 1 {
		legendH = float64(len(b.Series)) * legendRow
	}
	rowH := float64(len(b.Series))*barHeight + barGap
	f := frame{left: labelCol + 12, top: marginTop + legendH, w: barPlot, h: float64(len(b.Labels)) * rowH, x: b.Value.fit(vs)}
	width := f.left + barPlot + 80
	var cv canvas
	cv.open(width, f.top+f.h+marginBelow, b.Title, opt)
	cv.text(width/2, 22, "middle", b.Title, `font-size="15"`, `font-weight="bold"`)
	b.drawLegend(&cv, f.left, marginTop)
	f.drawValueAxis(&cv, b.Value.Label)
	for i, label := range b.Labels {
		y := f.top + float64(i)*rowH + barGap/2
		cv.text(f.left-8, y+rowH/2, "end", label)
		for j, s := range b.Series {
			b.drawBar(&cv, f, j, s.Values[i], y+float64(j)*barHeight)
		}
	}
	return cv.close(), nil
}

func (b *Bars) check() error {
	if len(b.Labels) == 0 || len(b.Series) == 0 {
		return errors.New("svgplot: bar chart without labels or series")
	}
	for _, s := range b.Series {
		if len(s.Values) != len(b.Labels) {
			return fmt.Errorf("svgplot: bar series %q has %d values for %d labels", s.Name, len(s.Values), len(b.Labels))
		}
	}
	return nil
}

func (b *Bars) labelWidth() float64 {
	w := 0.0
	for _, l := range b.Labels {
		w = max(w, textWidth(l))
	}
	return min(w, maxLabelCol) + 8
}

// drawValueAxis draws vertical grid lines with their labels below the rows.
func (f frame) drawValueAxis(cv *canvas, label string) {
	bottom := f.top + f.h
	for i, u := range f.x.ticks {
		x := f.left + (u-f.x.lo)/(f.x.hi-f.x.lo)*f.w
		cv.line(x, f.top, x, bottom, "#e4e4e4")
		cv.text(x, bottom+17, "middle", f.x.labels[i])
	}
	cv.line(f.left, f.top, f.left, bottom, "#444444")
	cv.line(f.left, bottom, f.left+f.w, bottom, "#444444")
	cv.text(f.left+f.w/2, bottom+42, "middle", label)
}

// drawBar draws one bar from the axis origin to v, with v written after it,
// or "n/a" when v has no place on the axis.
func (b *Bars) drawBar(cv *canvas, f frame, series int, v, y float64) {
	colour, _ := style(series)
	if !b.Value.drawable(v) || f.x.frac(v) < -1e-9 {
		if !math.IsNaN(v) {
			cv.text(f.left+4, y+barHeight-3, "start", "n/a")
		}
		return
	}
	x0 := f.left
	if b.Value.Scale == Linear && f.x.lo < 0 {
		x0 = f.px(0)
	}
	x1 := f.left + min(f.x.frac(v), 1)*f.w
	cv.rect(min(x0, x1), y, math.Abs(x1-x0), barHeight-2, colour)
	cv.text(max(x0, x1)+4, y+barHeight-3, "start", Compact(v))
}

func (b *Bars) drawLegend(cv *canvas, x, y float64) {
	if len(b.Series) < 2 {
		return
	}
	for i, s := range b.Series {
		colour, _ := style(i)
		cy := y + float64(i)*legendRow
		cv.rect(x, cy, 12, 12, colour)
		cv.text(x+18, cy+10, "start", s.Name)
	}
}
