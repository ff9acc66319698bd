package svgplot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

func testChart() *Chart {
	return &Chart{
		Title: "Recovery <probability> & more",
		X:     Axis{Label: "addresses", Scale: Log},
		Y:     Axis{Label: "probability"},
		Series: []Series{
			{Name: "fp 0.0005", X: []float64{1, 10, 100}, Y: []float64{1, 0.9, 0.1}},
			{Name: "fp 0.01", X: []float64{1, 10, 100, 1000}, Y: []float64{0.8, math.NaN(), 0.01, 0.001}, Style: LinesPoints},
			{Name: "measured", X: []float64{5}, Y: []float64{0.5}, Style: Points},
		},
	}
}

// wellFormed parses the whole document as XML.
func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, svg)
		}
	}
}

func TestChartSVG(t *testing.T) {
	c := testChart()
	inline, err := c.SVG(Options{})
	if err != nil {
		t.Fatal(err)
	}
	file, err := c.SVG(Options{Standalone: true})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.SVG(Options{})
	if !bytes.Equal(inline, again) {
		t.Error("SVG() differs between two calls on the same chart")
	}
	wellFormed(t, file)
	if bytes.Contains(inline, []byte("http")) {
		t.Error("inline SVG names a URL")
	}
	if !bytes.Contains(file, []byte(`xmlns="http://www.w3.org/2000/svg"`)) {
		t.Error("standalone SVG lacks the SVG namespace")
	}
	for _, want := range []string{"Recovery &lt;probability&gt; &amp; more", "fp 0.0005", "fp 0.01", "measured", ">addresses<", ">1000<", ">0.2<"} {
		if !bytes.Contains(inline, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	// fp 0.01 is broken in two by its NaN: one point alone draws no line.
	if got := strings.Count(string(inline), "<polyline"); got != 2 {
		t.Errorf("SVG has %d polylines, want 2 (series 1, and series 2 after its NaN)", got)
	}
	if got := strings.Count(string(inline), "<circle"); got != 3+1+2 {
		t.Errorf("SVG has %d circles, want 6 (3 drawable points of series 2, 1 of series 3, 2 legend markers)", got)
	}
}

func TestChartErrors(t *testing.T) {
	tests := []struct {
		name string
		c    Chart
	}{
		{"no series", Chart{Title: "t"}},
		{"lengths differ", Chart{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}}},
	}
	for _, tt := range tests {
		if _, err := tt.c.SVG(Options{}); err == nil || !strings.HasPrefix(err.Error(), "svgplot: ") {
			t.Errorf("%s: SVG() error = %v, want an svgplot error", tt.name, err)
		}
	}
}

func TestBarsSVG(t *testing.T) {
	b := &Bars{
		Title:  "Bytes per block",
		Value:  Axis{Label: "bytes", Scale: Log},
		Labels: []string{"BIP37 merkleblock", "BIP158 filter", "Ethereum header"},
		Series: []BarSeries{
			{Name: "embedded data", Values: []float64{119, 0, 600}},
			{Name: "measured scan", Values: []float64{math.NaN(), 40, math.NaN()}},
		},
	}
	svg, err := b.SVG(Options{Standalone: true})
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg)
	for _, want := range []string{"BIP37 merkleblock", "Ethereum header", "embedded data", "measured scan", ">119<", ">600<", ">40<", ">n/a<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("bar SVG lacks %q", want)
		}
	}
	// Three bars: 119, 600 and 40, plus two legend swatches and the background.
	if got := strings.Count(string(svg), "<rect"); got != 3+2+1 {
		t.Errorf("bar SVG has %d rects, want 6", got)
	}
	if _, err := (&Bars{Labels: []string{"a"}, Series: []BarSeries{{Name: "s"}}}).SVG(Options{}); err == nil {
		t.Error("SVG() of a series without values = nil error, want one")
	}
}
