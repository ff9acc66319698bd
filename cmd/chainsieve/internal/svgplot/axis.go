package svgplot

import (
	"math"
	"strconv"
	"strings"
)

// Scale maps values onto an axis.
type Scale uint8

// The scales.
const (
	Linear Scale = iota
	Log          // base 10: only positive values are drawn
)

// Axis describes one axis of a chart.
type Axis struct {
	Label string
	Scale Scale
	// Min and Max fix the range. When both are zero the range is fitted to
	// the data and widened to whole ticks (whole decades on a log axis).
	Min, Max float64
}

// maxDecades is the number of decades a log axis labels one by one; beyond
// it, every second (third, …) decade is labelled.
const maxDecades = 8

// drawable reports whether v has a place on the axis.
func (a Axis) drawable(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return a.Scale != Log || v > 0
}

// ticked is an axis fitted to its data: its range in axis units (values on
// a linear axis, their base-10 logarithms on a log axis) and its ticks.
type ticked struct {
	scale  Scale
	lo, hi float64
	ticks  []float64 // in axis units
	labels []string
}

// fit returns the axis ticked over the data values vs (undrawable ones are
// ignored).
func (a Axis) fit(vs []float64) ticked {
	lo, hi, ok := a.Min, a.Max, a.Min != 0 || a.Max != 0
	if !ok {
		lo, hi = a.dataRange(vs)
	}
	if a.Scale == Log {
		return logTicks(lo, hi, !ok)
	}
	return linearTicks(lo, hi, !ok)
}

// dataRange returns the smallest and largest drawable value, or a default
// range when there is none.
func (a Axis) dataRange(vs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if a.drawable(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		if a.Scale == Log {
			return 1, 10
		}
		return 0, 1
	}
	return lo, hi
}

// linearTicks places 1-2-5 ticks over [lo, hi], widening the range to whole
// ticks when widen is set.
func linearTicks(lo, hi float64, widen bool) ticked {
	if lo == hi {
		d := max(math.Abs(lo)/2, 1)
		lo, hi = lo-d, hi+d
	}
	step := niceStep((hi - lo) / 5)
	if widen {
		lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	}
	t := ticked{scale: Linear, lo: lo, hi: hi}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+step*1e-9; i++ {
		v := i * step
		t.ticks = append(t.ticks, v)
		t.labels = append(t.labels, linearLabel(v, decimals))
	}
	return t
}

// niceStep returns the 1, 2 or 5 times a power of ten nearest above raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 5} {
		if raw <= f*p*(1+1e-9) {
			return f * p
		}
	}
	return 10 * p
}

func linearLabel(v float64, decimals int) string {
	if v == 0 {
		return "0"
	}
	if math.Abs(v) >= 1e6 {
		return expForm(v)
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// logTicks places a tick on every decade of [lo, hi] (values), or on every
// few decades when there are many, widening to whole decades when widen is
// set.
func logTicks(lo, hi float64, widen bool) ticked {
	a, b := math.Log10(lo), math.Log10(hi)
	if widen {
		a, b = math.Floor(a+1e-9), math.Ceil(b-1e-9)
	}
	if a == b {
		a, b = a-1, b+1
	}
	t := ticked{scale: Log, lo: a, hi: b}
	every := math.Ceil((math.Floor(b) - math.Ceil(a)) / maxDecades)
	for e := math.Ceil(a - 1e-9); e <= b+1e-9; e += max(every, 1) {
		t.ticks = append(t.ticks, e)
		t.labels = append(t.labels, decadeLabel(int(e)))
	}
	return t
}

// decadeLabel writes 10^e as a plain number near 1 and as 1e-6 otherwise.
func decadeLabel(e int) string {
	if e >= -3 && e <= 5 {
		return strconv.FormatFloat(math.Pow(10, float64(e)), 'f', max(0, -e), 64)
	}
	return "1e" + strconv.Itoa(e)
}

// Compact formats v with four significant digits: whole numbers from 10,000
// to a billion in full (63190), very small or large magnitudes in exponent
// form (2.5e-6).
func Compact(v float64) string {
	if a := math.Abs(v); a >= 1e4 && a < 1e9 {
		unit := math.Pow(10, math.Floor(math.Log10(a))-3)
		return strconv.FormatFloat(math.Round(v/unit)*unit, 'f', 0, 64)
	}
	return expForm(v)
}

// expForm formats v with four significant digits, in exponent form without
// a plus sign or leading zeros (2.5e-6, 1e7) where %g would use one.
func expForm(v float64) string {
	s := strconv.FormatFloat(v, 'g', 4, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	n, _ := strconv.Atoi(exp) // strconv wrote it
	return mant + "e" + strconv.Itoa(n)
}

// frac returns where v (a drawable value) lies on the axis, 0 at lo and 1 at
// hi.
func (t ticked) frac(v float64) float64 {
	if t.scale == Log {
		v = math.Log10(v)
	}
	return (v - t.lo) / (t.hi - t.lo)
}

// contains reports whether the drawable value v lies within the range.
func (t ticked) contains(v float64) bool {
	f := t.frac(v)
	return f >= -1e-9 && f <= 1+1e-9
}
