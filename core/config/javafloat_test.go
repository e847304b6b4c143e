package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJavaFloatString(t *testing.T) {
	for _, tc := range []struct {
		in   float32
		want string
	}{
		{0, "0.0"},
		{float32(math.Copysign(0, -1)), "-0.0"},
		{1.1, "1.1"},
		{0.95, "0.95"},
		{1, "1.0"},
		{100, "100.0"},
		{120, "120.0"},
		{-1, "-1.0"},
		{0.1, "0.1"},
		{0.45, "0.45"},
		{0.001, "0.001"},
		{0.0001, "1.0E-4"},
		{0.00012, "1.2E-4"},
		{9999999, "9999999.0"},
		{1e7, "1.0E7"},
		{12345678, "1.2345678E7"},
		{1.0 / 3, "0.33333334"},
		{math.MaxFloat32, "3.4028235E38"},
		{math.SmallestNonzeroFloat32, "1.4E-45"},
		{float32(math.Inf(1)), "Infinity"},
		{float32(math.Inf(-1)), "-Infinity"},
		{float32(math.NaN()), "NaN"},
		// 0.5+0.05+0.35+0.05 accumulated in float (conformance case 30)
		{float32(float32(float32(0.5+float32(0.05))+0.35) + 0.05), "0.95"},
		// 0.1+0.5+0.4+0.1 in float
		{float32(float32(float32(float32(0.1)+0.5)+0.4) + 0.1), "1.1"},
	} {
		require.Equal(t, tc.want, JavaFloatString(tc.in), "%v", tc.in)
	}
}

func TestJavaDoubleString(t *testing.T) {
	a, b := 0.1, 0.2
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{a + b, "0.30000000000000004"},
		{0.26949999999999996, "0.26949999999999996"},
		{1e-5, "1.0E-5"},
		{1e7, "1.0E7"},
		{123456.789, "123456.789"},
		{1e21, "1.0E21"},
		{math.SmallestNonzeroFloat64, "4.9E-324"},
		{math.MaxFloat64, "1.7976931348623157E308"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{math.Inf(1), "Infinity"},
	} {
		require.Equal(t, tc.want, JavaDoubleString(tc.in), "%v", tc.in)
	}
}
