package svgplot

import (
	"math"
	"slices"
	"testing"
)

func TestNiceStep(t *testing.T) {
	tests := []struct{ raw, want float64 }{
		{0.13, 0.2}, {1, 1}, {1.01, 2}, {2, 2}, {3, 5}, {7, 10}, {0.0004, 0.0005}, {45000, 50000},
	}
	for _, tt := range tests {
		if got := niceStep(tt.raw); math.Abs(got-tt.want) > 1e-12*tt.want {
			t.Errorf("niceStep(%g) = %g, want %g", tt.raw, got, tt.want)
		}
	}
}

func TestLinearTicks(t *testing.T) {
	tests := []struct {
		lo, hi     float64
		wantLabels []string
		wantLo     float64
		wantHi     float64
	}{
		{0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}, 0, 1},
		{3, 97, []string{"0", "20", "40", "60", "80", "100"}, 0, 100},
		{-0.3, 0.3, []string{"-0.4", "-0.2", "0", "0.2", "0.4"}, -0.4, 0.4}, // 0.6/5 rounds up to a step of 0.2
		{5, 5, []string{"2", "3", "4", "5", "6", "7", "8"}, 2, 8},           // a single value is widened
		{0, 5e6, []string{"0", "1e6", "2e6", "3e6", "4e6", "5e6"}, 0, 5e6},
	}
	for _, tt := range tests {
		got := Axis{}.fit([]float64{tt.lo, tt.hi})
		if !slices.Equal(got.labels, tt.wantLabels) || math.Abs(got.lo-tt.wantLo) > 1e-9 || math.Abs(got.hi-tt.wantHi) > 1e-9 {
			t.Errorf("fit(%g, %g) = [%g, %g] %q, want [%g, %g] %q", tt.lo, tt.hi, got.lo, got.hi, got.labels, tt.wantLo, tt.wantHi, tt.wantLabels)
		}
	}
}

func TestLogTicks(t *testing.T) {
	tests := []struct {
		name       string
		axis       Axis
		data       []float64
		wantLabels []string
	}{
		{"decades", Axis{Scale: Log}, []float64{0.02, 300}, []string{"0.01", "0.1", "1", "10", "100", "1000"}},
		{"zero and NaN ignored", Axis{Scale: Log}, []float64{0, math.NaN(), 5e-7, 2e-5}, []string{"1e-7", "1e-6", "1e-5", "1e-4"}},
		{"every second decade", Axis{Scale: Log}, []float64{1e-12, 1}, []string{"1e-12", "1e-10", "1e-8", "1e-6", "1e-4", "0.01", "1"}},
		{"fixed range", Axis{Scale: Log, Min: 1e-3, Max: 1}, []float64{1e-9, 10}, []string{"0.001", "0.01", "0.1", "1"}},
		{"no data", Axis{Scale: Log}, nil, []string{"1", "10"}},
	}
	for _, tt := range tests {
		if got := tt.axis.fit(tt.data); !slices.Equal(got.labels, tt.wantLabels) {
			t.Errorf("%s: fit(%v) labels = %q, want %q", tt.name, tt.data, got.labels, tt.wantLabels)
		}
	}
}

func TestCompact(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0.000146763, "0.0001468"}, {2.1555e-8, "2.156e-8"}, {1269, "1269"}, {63190.3, "63190"}, {58462.5, "58460"}, {56e6, "56000000"}, {2.6e9, "2.6e9"}, {0, "0"}, {-3.5e-9, "-3.5e-9"},
	}
	for _, tt := range tests {
		if got := Compact(tt.v); got != tt.want {
			t.Errorf("Compact(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
