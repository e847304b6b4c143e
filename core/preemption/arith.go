package preemption

import (
	"math"

	"yarnplay/core/resource"
)

// This file holds the resource arithmetic the policy needs and package
// resource does not provide in exactly Hadoop's form. Each helper names the
// Hadoop method it mirrors (org.apache.hadoop.yarn.util.resource.*).
// Products are converted explicitly before an addition so that no platform
// fuses them into a multiply-add (the Go spec allows it otherwise).

// none is Resources.none().
var none = resource.Resource{}

// unit is the policy's step factor: Resource.newInstance(0, 0) with every
// resource type then set to 1 (AbstractPreemptableResourceCalculator).
var unit = resource.New(1, 1)

// memOnly is Resources.createResource(long): the default calculator's results
// carry 1 vcore when memory is positive, else 0.
func memOnly(mem int64) resource.Resource {
	if mem > 0 {
		return resource.New(mem, 1)
	}
	return resource.New(mem, 0)
}

// roundUp is ResourceCalculator.roundUp(a, b) = divideAndCeil(a, b) * b, with
// divideAndCeil(a, 0) = 0.
func roundUp(a, b int64) int64 {
	if b == 0 {
		return 0
	}
	return ((a + (b - 1)) / b) * b
}

// multiplyAndNormalizeUpVec is Resources.multiplyAndNormalizeUp(rc, r,
// double[] by, step), the per-type form the ideal-assignment loop uses with a
// queue's normalized guarantee:
//
//	DefaultResourceCalculator:  createResource(roundUp((long)(mem*by[0] + 0.5), step.mem))
//	DominantResourceCalculator: per type roundUp((long)Math.ceil(v*by[i]), step[i])
func multiplyAndNormalizeUpVec(rc resource.Calculator, r resource.Resource, by [2]float64, step resource.Resource) resource.Resource {
	if rc.Kind == resource.DefaultKind {
		return memOnly(roundUp(int64(float64(float64(r.MemoryMB)*by[0])+0.5), step.MemoryMB))
	}
	return resource.New(
		roundUp(int64(math.Ceil(float64(r.MemoryMB)*by[0])), step.MemoryMB),
		roundUp(int64(math.Ceil(float64(r.VCores)*by[1])), step.VCores),
	)
}

// multiplyAndNormalizeUp is Resources.multiplyAndNormalizeUp(rc, r, double by,
// step), used for the natural termination factor:
//
//	DefaultResourceCalculator:  createResource(roundUp((long)(mem*by + 0.5), step.mem))
//	DominantResourceCalculator: per type roundUp((long)Math.ceil((float)(v*by)), step)
//	                            (DominantResourceCalculator.multiplyAndNormalize)
//
// The dominant form differs from resource.Calculator.MultiplyAndNormalizeUp,
// which applies the default calculator's "+0.5" rounding to every type.
func multiplyAndNormalizeUp(rc resource.Calculator, r resource.Resource, by float64, step resource.Resource) resource.Resource {
	if rc.Kind == resource.DefaultKind {
		return memOnly(roundUp(int64(float64(float64(r.MemoryMB)*by)+0.5), step.MemoryMB))
	}
	up := func(v, s int64) int64 {
		c := int64(math.Ceil(float64(float32(float64(v) * by))))
		if s == 0 {
			return c
		}
		return roundUp(c, s)
	}
	return resource.New(up(r.MemoryMB, step.MemoryMB), up(r.VCores, step.VCores))
}

// anyMajorAboveZero is ResourceCalculator.isAnyMajorResourceAboveZero: memory
// for the default calculator, any type for the dominant one.
func anyMajorAboveZero(rc resource.Calculator, r resource.Resource) bool {
	if rc.Kind == resource.DefaultKind {
		return r.MemoryMB > 0
	}
	return r.MemoryMB > 0 || r.VCores > 0
}

// multiply is Resources.multiply(r, by): every type (long)(v*by).
func multiply(r resource.Resource, by float64) resource.Resource {
	return resource.Multiply(r, by)
}

// floatRatio is Java's "(float) n / d" for two longs: a 32-bit float
// division.
func floatRatio(n, d int64) float64 {
	return float64(float32(n) / float32(d))
}
