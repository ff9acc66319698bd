package privacy

import (
	"bytes"
	"encoding/csv"
	"math"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/svgplot"
)

// Plot is one figure of the report, with its data: a line chart of series
// over two axes, or (Bars set) a bar chart of one value per label and
// series. It is written as <ID>.svg and <ID>.csv and inlined in the HTML.
type Plot struct {
	ID      string       `json:"id"`
	Section string       `json:"section"` // the section it illustrates
	Title   string       `json:"title"`
	Caption string       `json:"caption"`
	X       PlotAxis     `json:"x"`
	Y       PlotAxis     `json:"y"`
	Bars    bool         `json:"bars,omitempty"`
	Labels  []string     `json:"labels,omitempty"`
	Series  []PlotSeries `json:"series"`
}

// PlotAxis is an axis label and scale. For bars, Y is the value axis.
type PlotAxis struct {
	Label string `json:"label"`
	Log   bool   `json:"log,omitempty"`
}

// PlotSeries is one series: points (X, Y) of a line chart, or one value per
// label (Y only) of a bar chart.
type PlotSeries struct {
	Name   string `json:"name"`
	Kind   Kind   `json:"kind"`
	Points bool   `json:"points,omitempty"` // markers only, no line
	X      []Num  `json:"x,omitempty"`
	Y      []Num  `json:"y"`
}

// SVG draws the plot; standalone adds the namespace a .svg file needs.
func (p *Plot) SVG(standalone bool) ([]byte, error) {
	opt := svgplot.Options{Standalone: standalone}
	if p.Bars {
		b := svgplot.Bars{Title: p.Title, Value: axis(p.Y), Labels: p.Labels}
		for _, s := range p.Series {
			b.Series = append(b.Series, svgplot.BarSeries{Name: s.Name, Values: floats(s.Y)})
		}
		return b.SVG(opt)
	}
	c := svgplot.Chart{Title: p.Title, X: axis(p.X), Y: axis(p.Y)}
	for _, s := range p.Series {
		style := svgplot.LinesPoints
		if s.Points {
			style = svgplot.Points
		}
		c.Series = append(c.Series, svgplot.Series{Name: s.Name, X: floats(s.X), Y: floats(s.Y), Style: style})
	}
	return c.SVG(opt)
}

func axis(a PlotAxis) svgplot.Axis {
	if a.Log {
		return svgplot.Axis{Label: a.Label, Scale: svgplot.Log}
	}
	return svgplot.Axis{Label: a.Label}
}

// floats returns the values as plotted: rounded like every number of the
// report, so that the SVG depends only on what the JSON holds.
func floats(ns []Num) []float64 {
	out := make([]float64, len(ns))
	for i, n := range ns {
		out[i] = round(float64(n))
	}
	return out
}

func nums(vs []float64) []Num {
	out := make([]Num, len(vs))
	for i, v := range vs {
		out[i] = Num(v)
	}
	return out
}

// CSV returns the plot's data, one row per point (series, x, y) or per bar
// (label, series, value), numbers rounded as in the JSON and NaN left empty.
func (p *Plot) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if p.Bars {
		w.Write([]string{"label", "series", p.Y.Label})
		for i, l := range p.Labels {
			for _, s := range p.Series {
				w.Write([]string{l, s.Name, csvNum(s.Y[i])})
			}
		}
	} else {
		w.Write([]string{"series", p.X.Label, p.Y.Label})
		for _, s := range p.Series {
			for i := range s.X {
				w.Write([]string{s.Name, csvNum(s.X[i]), csvNum(s.Y[i])})
			}
		}
	}
	w.Flush() // a bytes.Buffer does not fail
	return b.Bytes()
}

func csvNum(n Num) string {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return ""
	}
	return plain(float64(n))
}
