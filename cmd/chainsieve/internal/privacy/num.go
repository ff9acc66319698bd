package privacy

import (
	"math"
	"strconv"
	"strings"
)

// sigDigits is how many significant digits the report keeps: more than any
// input or published figure has, few enough that the last-ulp differences
// of math functions between platforms do not change the output.
const sigDigits = 6

// Num is a number of the report. It is written to JSON rounded to
// [sigDigits] significant digits, and as null when it is not finite.
type Num float64

// MarshalJSON writes the rounded number, or null.
func (n Num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return []byte(plain(float64(n))), nil
}

// round returns v rounded to sigDigits significant digits.
func round(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', sigDigits, 64), 64)
	return r
}

// plain writes v rounded to sigDigits digits in the shortest form that
// reads back to the rounded value.
func plain(v float64) string {
	return strconv.FormatFloat(round(v), 'g', -1, 64)
}

// format writes v for a reader: whole numbers in full and other numbers
// from 10,000 up rounded to four significant digits, both with thousands
// separated; smaller ones with four significant digits (1.468e-4 in
// exponent form where %g would use it).
func format(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case a >= 1e15:
		return sig(v, 4)
	case v != math.Trunc(v) && a >= 1e4:
		unit := math.Pow(10, math.Floor(math.Log10(a))-3)
		v = math.Round(v/unit) * unit
	case v != math.Trunc(v):
		return sig(v, 4)
	}
	return groupThousands(strconv.FormatFloat(v, 'f', 0, 64))
}

// groupThousands inserts commas into a string of digits (with an optional
// minus sign).
func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// percent writes a fraction as a percentage with four significant digits.
func percent(v float64) string { return format(100*v) + " %" }

// nan marks a missing value (a bar a series lacks, a table cell without a
// number).
var nan = math.NaN()

// sig writes v with at most d significant digits, in exponent form
// (2.15555e-8) only where %g would use one, without a plus sign.
func sig(v float64, d int) string {
	s := strconv.FormatFloat(v, 'g', d, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	n, _ := strconv.Atoi(exp)
	return mant + "e" + strconv.Itoa(n)
}

// exact writes n with every digit the report keeps (sigDigits), for
// comparisons with published figures.
func exact(n Num) string { return sig(round(float64(n)), -1) }
