// Package svgplot draws the line and bar charts of chainsieve's reports as
// SVG, with the standard library only.
//
// A [Chart] plots series of (x, y) points as lines, points or both; a [Bars]
// chart plots one value per label and series as horizontal bars, which leave
// room for long labels. Either axis of a chart may be logarithmic
// ([Log]); ticks fall on 1, 2 and 5 times a power of ten on linear axes and on
// powers of ten on log axes. Each chart has a title, axis labels and a legend
// naming every series.
//
// Output is deterministic: the same chart gives the same bytes, coordinates
// are written with one decimal, and colours and dash patterns are assigned in
// series order from a fixed palette (Okabe and Ito's, readable by
// colour-blind readers, with grey for its faint yellow), so that golden files
// and diffs stay stable.
//
// Points that cannot be drawn (NaN, infinities, and values at or below zero
// on a log axis) are skipped and break a line in two rather than failing:
// a model that reaches zero simply leaves the plot. [Options.Standalone]
// adds the XML namespace a .svg file needs; without it the SVG is meant to be
// inlined in an HTML5 document, which needs no namespace and so no URL.
//
// It is not a general plotting library: it knows exactly what the reports
// need and nothing else.
package svgplot
