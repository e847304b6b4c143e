package resource

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMultiplyTruncatesJavaFloats(t *testing.T) {
	// Capacities are Java floats; percent-derived resources truncate
	// (docs/semantics.md, section 1).
	tests := []struct {
		name string
		r    Resource
		by   float32
		want int64
	}{
		{"70% of 20480 MB", New(20480, 20), 0.7, 14335},
		{"8.5% of 8192 MB", New(8192, 8), 0.085, 696},
		{"12% of 1,024,000 MB", New(1024000, 800), float32(float32(0.6) * float32(0.2)), 122880},
		{"100%", New(4096, 4), 1, 4096},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Multiply(tc.r, float64(tc.by)).MemoryMB)
		})
	}
}

func TestNormalize(t *testing.T) {
	minA, maxA := New(1024, 1), New(8192, 4)
	tests := []struct {
		name string
		rc   Calculator
		ask  Resource
		want Resource
	}{
		{"default: 1500 MB rounds up to 2048, vcores become 1", Default, New(1500, 3), New(2048, 1)},
		{"default: below the minimum", Default, New(100, 0), New(1024, 1)},
		{"default: capped at the maximum", Default, New(9000, 2), New(8192, 1)},
		{"dominant: every type rounded and capped", Dominant, New(1500, 6), New(2048, 4)},
		{"dominant: zero vcores become the minimum", Dominant, New(2048, 0), New(2048, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.rc.Normalize(tc.ask, minA, maxA, minA))
		})
	}
}

func TestRoundingAndNormalizing(t *testing.T) {
	step := New(1024, 1)
	require.Equal(t, New(2048, 1), Default.RoundUp(New(1025, 7), step))
	require.Equal(t, New(1024, 1), Default.RoundDown(New(2047, 7), step))
	require.Equal(t, New(0, 0), Default.RoundDown(New(1000, 7), step), "memory-only results carry 1 vcore only when memory is positive")
	require.Equal(t, New(2048, 7), Dominant.RoundUp(New(1025, 7), step))
	// AM limit of a 10% queue: (long)(10240 x 0.1 + 0.5) = 1024, rounded up.
	require.Equal(t, New(1024, 1), Default.MultiplyAndNormalizeUp(New(10240, 10), float64(float32(0.1)), step))
	// 0.99 x 51200 = 50688 -> 5068.8 -> 5069 -> 5120.
	require.Equal(t, New(5120, 1), Default.MultiplyAndNormalizeUp(New(50688, 50), float64(float32(0.1)), step))
	// The dominant calculator rounds with ceil(v x by), per type.
	require.Equal(t, New(2048, 2), Dominant.MultiplyAndNormalizeUp(New(10240, 10), 0.11, step))
	require.Equal(t, New(4096, 1), Default.MultiplyAndNormalizeDown(New(5000, 9), 1, step))
	// User-limit terms: ceil(52224 / 5) = 10445 in float arithmetic.
	require.Equal(t, int64(10445), Default.DivideAndCeil(New(52224, 1), 5).MemoryMB)
	require.Equal(t, None, Default.DivideAndCeil(New(52224, 1), 0))
	require.Equal(t, New(1044480, 20), MultiplyAndRoundDown(New(52224, 1), 20), "every type")
}

func TestCompareAndFits(t *testing.T) {
	cluster := New(10240, 10)
	tests := []struct {
		name string
		rc   Calculator
		a, b Resource
		want int
	}{
		{"default compares memory only", Default, New(2048, 9), New(1024, 1), 1},
		{"default ignores vcores", Default, New(1024, 9), New(1024, 1), 0},
		{"dominant: 50% vcores beats 20% memory", Dominant, New(2048, 5), New(4096, 1), 1},
		{"dominant: equal dominant shares, the other share decides", Dominant, New(5120, 1), New(5120, 2), -1},
		{"dominant: equal", Dominant, New(1024, 1), New(1024, 1), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.rc.Compare(cluster, tc.a, tc.b))
		})
	}
	require.True(t, Default.FitsIn(New(1024, 99), New(1024, 1)), "the default calculator lets vcores go over")
	require.False(t, Dominant.FitsIn(New(1024, 2), New(1024, 1)))
	require.False(t, FitsIn(New(1024, 2), New(1024, 1)), "Resources.fitsIn without a calculator checks every type")
	require.Equal(t, int64(0), Dominant.ComputeAvailableContainers(New(10240, 0), New(1024, 1)), "a node with no vcores left fits nothing under DRC")
	require.Equal(t, int64(10), Default.ComputeAvailableContainers(New(10240, 0), New(1024, 1)))
	require.Equal(t, float32(0.5), Default.Divide(cluster, New(2048, 1), New(4096, 1)))
	require.Equal(t, float32(0), Default.Ratio(None, None), "0/0 is 0")
}

func TestStringIsHadoops(t *testing.T) {
	require.Equal(t, "<memory:8192, vCores:4>", New(8192, 4).String())
}

// TestDivisionsKeepJavasRulesOnEveryPath covers Ratio and Divide on both
// calculators, their quick default case and the rest: division by zero
// gives 0 for 0, else an infinity of the dividend's sign.
func TestDivisionsKeepJavasRulesOnEveryPath(t *testing.T) {
	cluster := New(10240, 10)
	inf := float32(math.Inf(1))
	tests := []struct {
		name         string
		rc           Calculator
		a, b         Resource
		ratio, share float32
	}{
		{"default: memory over memory", Default, New(2048, 9), New(4096, 1), 0.5, 0.5},
		{"default: 0/0", Default, None, New(0, 4), 0, 0},
		{"default: x/0", Default, New(1024, 1), New(0, 4), inf, inf},
		{"default: -x/0", Default, New(-1024, 1), New(0, 4), float32(math.Inf(-1)), float32(math.Inf(-1))},
		{"dominant: the larger ratio, the dominant shares", Dominant, New(2048, 5), New(4096, 2), 2.5, 1.25},
		{"dominant: 0 over nothing", Dominant, None, None, 0, 0},
		{"dominant: x over nothing", Dominant, New(1024, 1), None, inf, inf},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.ratio, tc.rc.Ratio(tc.a, tc.b))
			require.Equal(t, tc.share, tc.rc.Divide(cluster, tc.a, tc.b))
		})
	}
}

// TestMinAndMaxKeepTheFirstOnTies covers both calculators' Min and Max.
func TestMinAndMaxKeepTheFirstOnTies(t *testing.T) {
	cluster := New(10240, 10)
	a, b := New(2048, 1), New(2048, 5)
	require.Equal(t, a, Default.Min(cluster, a, b), "equal memory: the first")
	require.Equal(t, a, Default.Max(cluster, a, b), "equal memory: the first")
	require.Equal(t, a, Dominant.Min(cluster, a, b), "vcores decide under DRC")
	require.Equal(t, b, Dominant.Max(cluster, a, b), "vcores decide under DRC")
	c := New(5120, 1) // the same dominant share as b, a smaller other share
	require.Equal(t, c, Dominant.Min(cluster, b, c))
	require.Equal(t, b, Dominant.Max(cluster, b, c))
	require.Equal(t, a, Dominant.Max(cluster, a, a))
}

// TestDominantMultiplyAndNormalizeUpFloatCast holds Hadoop 3.3's numbers for
// DominantResourceCalculator.multiplyAndNormalizeUp(Resource, double,
// Resource): Math.ceil((float) (value * by)), the product cast to float
// before the ceiling.
func TestDominantMultiplyAndNormalizeUpFloatCast(t *testing.T) {
	f := func(v float32) float64 { return float64(v) }
	for _, tc := range []struct {
		name     string
		r        Resource
		by       float64
		step     Resource
		want     Resource
		noCastMB int64 // what the ceiling of the double gives, for contrast
	}{
		// 10% of 40 GB and 40 vcores at a 512 MB step: 4096.00006 is
		// 4096.0 as a float.
		{"issue example", New(40960, 40), f(0.1), New(512, 1), New(4096, 4), 4608},
		{"exact product", New(10240, 10), 0.5, New(1024, 1), New(5120, 5), 5120},
		{"above float's precision", New(10240, 10), 0.11, New(1024, 1), New(2048, 2), 2048},
		{"step 0 keeps the ceiling", New(40960, 40), f(0.1), New(0, 0), New(4096, 4), 4097},
		{"user AM limit 0.1f x 0.5f", New(20480, 20), f(float32(0.1) * float32(0.5)), New(1024, 1), New(1024, 1), 2048},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Dominant.MultiplyAndNormalizeUp(tc.r, tc.by, tc.step))
			noCast := int64(math.Ceil(float64(tc.r.MemoryMB) * tc.by))
			if tc.step.MemoryMB != 0 {
				noCast = roundUpTo(noCast, tc.step.MemoryMB)
			}
			require.Equal(t, tc.noCastMB, noCast)
		})
	}
}
