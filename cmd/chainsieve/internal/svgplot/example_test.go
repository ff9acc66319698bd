package svgplot_test

import (
	"fmt"
	"strings"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/svgplot"
)

func ExampleChart_SVG() {
	c := &svgplot.Chart{
		Title: "False-positive rate of a 2048-bit, 3-hash Bloom filter",
		X:     svgplot.Axis{Label: "distinct values"},
		Y:     svgplot.Axis{Label: "false-positive rate", Scale: svgplot.Log},
		Series: []svgplot.Series{
			{Name: "(1 - e^(-3n/2048))^3", X: []float64{100, 430, 1080}, Y: []float64{0.00253, 0.102, 0.501}, Style: svgplot.LinesPoints},
		},
	}
	svg, err := c.SVG(svgplot.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.SplitN(string(svg), "\n", 2)[0])
	// Output:
	// <svg width="830" height="416" viewBox="0 0 830 416" role="img" aria-label="False-positive rate of a 2048-bit, 3-hash Bloom filter" font-family="sans-serif" font-size="12">
}

func ExampleCompact() {
	fmt.Println(svgplot.Compact(0.000146818), svgplot.Compact(21.0524), svgplot.Compact(63190.3), svgplot.Compact(2.6e9))
	// Output: 0.0001468 21.05 63190 2.6e9
}
