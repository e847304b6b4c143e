package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseJavaFloat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float32
	}{
		{"10", 10}, {"10.5", 10.5}, {"1e1", 10}, {"+5", 5}, {"-5", -5},
		{" 7 ", 7}, {"\t\n8\r", 8}, {"9f", 9}, {"9F", 9}, {"9d", 9}, {"9D", 9},
		{".5", 0.5}, {"5.", 5}, {"1.5E2", 150}, {"1e-2", 0.01}, {"0x1.8p1", 3},
		{"0X10P0", 16}, {"0x1p1f", 2}, {"-0x1p-1d", -0.5}, {"00010", 10},
		{"1e-50", 0}, {"0.1", 0.1},
	} {
		v, err := parseJavaFloat(tc.in, 32)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, float32(v), tc.in)
	}
	for _, in := range []string{"", " ", "abc", "1,5", "10%", "1e", "e5", ".", "+", "1.2.3", "0x10", "0x1.8",
		"1_000", "1ff", "inf", "nan", "infinity", "Infinityf", "5 0", "0b101", "1e+", "--1", "½"} {
		_, err := parseJavaFloat(in, 32)
		require.ErrorIs(t, err, errSyntax, "%q", in)
	}
	for _, in := range []string{"NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "1e39", "1e309"} {
		bits := 32
		if in == "1e309" {
			bits = 64
		}
		_, err := parseJavaFloat(in, bits)
		require.ErrorIs(t, err, errNotFinite, "%q", in)
	}
	v, err := parseJavaFloat("1e39", 64)
	require.NoError(t, err)
	require.Equal(t, 1e39, v)
}

func TestParseHadoopInteger(t *testing.T) {
	for _, tc := range []struct {
		in   string
		bits int
		want int64
	}{
		{"10", 32, 10}, {" 10 ", 32, 10}, {"+10", 32, 10}, {"-10", 32, -10},
		{"0x10", 32, 16}, {"0XfF", 32, 255}, {"-0x10", 32, -16}, {"2147483647", 32, math.MaxInt32},
		{"-2147483648", 32, math.MinInt32}, {"0x-1", 32, -1}, {"2147483648", 64, 2147483648}, {"007", 32, 7},
	} {
		v, err := parseHadoopInteger(tc.in, tc.bits)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, v, tc.in)
	}
	for _, in := range []string{"", "1.5", "1e3", "abc", "2147483648", "0x", "+0x10", "- 1", "1 000", "0x--1", "++1", "١"} {
		_, err := parseHadoopInteger(in, 32)
		require.Error(t, err, "%q", in)
	}
}

func TestJavaFloatToIntAndTrim(t *testing.T) {
	require.Equal(t, 0, javaFloatToInt(math.NaN()))
	require.Equal(t, math.MaxInt32, javaFloatToInt(math.Inf(1)))
	require.Equal(t, math.MinInt32, javaFloatToInt(-1e20))
	require.Equal(t, 2, javaFloatToInt(2.9))
	require.Equal(t, -2, javaFloatToInt(-2.9))
	require.Equal(t, "a b", javaTrim("\x00\x01 \ta b\r\n\x1f"))
	require.Equal(t, "\u00a0x\u00a0", javaTrim(" \u00a0x\u00a0 "), "Java's trim keeps non-ASCII spaces")
}
