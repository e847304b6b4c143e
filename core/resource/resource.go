// Package resource is YARN's resource arithmetic: a (memory MB, vcores) value
// type and the two resource calculators the Capacity Scheduler can use.
//
// Every operation mirrors the Hadoop method named in its doc comment
// (org.apache.hadoop.yarn.util.resource.Resources, DefaultResourceCalculator,
// DominantResourceCalculator), including Java's truncations and its 32-bit
// float arithmetic where that decides a number.
package resource

import (
	"fmt"
	"math"
)

// Resource is an amount of cluster resources: memory in MB and virtual cores.
// The zero value is "none".
type Resource struct {
	MemoryMB int64 `json:"memory_mb"`
	VCores   int64 `json:"vcores"`
}

// New returns the resource of mem MB and vcores virtual cores.
func New(mem, vcores int64) Resource { return Resource{MemoryMB: mem, VCores: vcores} }

// None is the empty resource.
var None = Resource{}

// Add returns r + o per type.
func (r Resource) Add(o Resource) Resource {
	return Resource{r.MemoryMB + o.MemoryMB, r.VCores + o.VCores}
}

// Sub returns r - o per type (components may go negative, as in Hadoop).
func (r Resource) Sub(o Resource) Resource {
	return Resource{r.MemoryMB - o.MemoryMB, r.VCores - o.VCores}
}

// SubNonNegative returns r - o with every component clamped at zero
// (Resources.subtractNonNegative).
func (r Resource) SubNonNegative(o Resource) Resource {
	return ComponentwiseMax(r.Sub(o), None)
}

// IsZero reports whether both components are zero.
func (r Resource) IsZero() bool { return r.MemoryMB == 0 && r.VCores == 0 }

// AnyPositive reports whether some component is above zero.
func (r Resource) AnyPositive() bool { return r.MemoryMB > 0 || r.VCores > 0 }

// Times returns r multiplied by an integer count.
func (r Resource) Times(n int64) Resource { return Resource{r.MemoryMB * n, r.VCores * n} }

// String renders r as Hadoop's Resource.toString does: <memory:1024, vCores:1>.
func (r Resource) String() string {
	return fmt.Sprintf("<memory:%d, vCores:%d>", r.MemoryMB, r.VCores)
}

// FitsIn reports whether small fits in big on every type (Resources.fitsIn
// without a calculator).
func FitsIn(small, big Resource) bool {
	return small.MemoryMB <= big.MemoryMB && small.VCores <= big.VCores
}

// ComponentwiseMin is the per-type minimum.
func ComponentwiseMin(a, b Resource) Resource {
	return Resource{min(a.MemoryMB, b.MemoryMB), min(a.VCores, b.VCores)}
}

// ComponentwiseMax is the per-type maximum.
func ComponentwiseMax(a, b Resource) Resource {
	return Resource{max(a.MemoryMB, b.MemoryMB), max(a.VCores, b.VCores)}
}

// Multiply returns every type multiplied by by and truncated toward zero
// (Resources.multiply: (long)(v*by)).
func Multiply(r Resource, by float64) Resource {
	return Resource{int64(float64(r.MemoryMB) * by), int64(float64(r.VCores) * by)}
}

// MultiplyAndRoundDown returns floor(v*by) per type
// (Resources.multiplyAndRoundDown).
func MultiplyAndRoundDown(r Resource, by float64) Resource {
	return Resource{int64(math.Floor(float64(r.MemoryMB) * by)), int64(math.Floor(float64(r.VCores) * by))}
}

// Kind names a resource calculator.
type Kind uint8

const (
	// DefaultKind compares memory only (DefaultResourceCalculator).
	DefaultKind Kind = iota
	// DominantKind compares dominant shares (DominantResourceCalculator).
	DominantKind
)

// Class names of the two calculators, as yarn.scheduler.capacity.resource-calculator takes them.
const (
	DefaultCalculatorClass  = "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator"
	DominantCalculatorClass = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"
)

// Calculator is a resource calculator. It is a small value: copy it freely.
type Calculator struct{ Kind Kind }

// Default is the DefaultResourceCalculator (memory only).
var Default = Calculator{DefaultKind}

// Dominant is the DominantResourceCalculator.
var Dominant = Calculator{DominantKind}

// ClassName returns the calculator's Hadoop class name.
func (c Calculator) ClassName() string {
	if c.Kind == DominantKind {
		return DominantCalculatorClass
	}
	return DefaultCalculatorClass
}

// Compare orders a and b relative to cluster: memory for the default
// calculator, dominant share then the other share for the dominant one.
func (c Calculator) Compare(cluster, a, b Resource) int {
	if c.Kind == DefaultKind {
		return cmpInt(a.MemoryMB, b.MemoryMB)
	}
	return compareDominant(cluster, a, b)
}

func compareDominant(cluster, a, b Resource) int {
	if a == b {
		return 0
	}
	if cluster.MemoryMB == 0 || cluster.VCores == 0 {
		aGreater := a.MemoryMB > b.MemoryMB || a.VCores > b.VCores
		bGreater := b.MemoryMB > a.MemoryMB || b.VCores > a.VCores
		switch {
		case aGreater && bGreater:
			return 0
		case aGreater:
			return 1
		case bGreater:
			return -1
		}
		return 0
	}
	am := float64(a.MemoryMB) / float64(cluster.MemoryMB)
	ac := float64(a.VCores) / float64(cluster.VCores)
	bm := float64(b.MemoryMB) / float64(cluster.MemoryMB)
	bc := float64(b.VCores) / float64(cluster.VCores)
	aDom, aSub := max(am, ac), min(am, ac)
	bDom, bSub := max(bm, bc), min(bm, bc)
	diff := aDom - bDom
	if diff == 0 {
		diff = aSub - bSub
	}
	switch {
	case diff > 0:
		return 1
	case diff < 0:
		return -1
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The comparisons below are Compare's sign, each with the default
// calculator's case written out so that the compiler inlines it (the
// scheduler's hot paths make many of them).

// LessThan is Resources.lessThan.
func (c Calculator) LessThan(cluster, a, b Resource) bool {
	if c.Kind == DefaultKind {
		return a.MemoryMB < b.MemoryMB
	}
	return compareDominant(cluster, a, b) < 0
}

// LessThanOrEqual is Resources.lessThanOrEqual.
func (c Calculator) LessThanOrEqual(cluster, a, b Resource) bool {
	if c.Kind == DefaultKind {
		return a.MemoryMB <= b.MemoryMB
	}
	return compareDominant(cluster, a, b) <= 0
}

// GreaterThan is Resources.greaterThan.
func (c Calculator) GreaterThan(cluster, a, b Resource) bool {
	if c.Kind == DefaultKind {
		return a.MemoryMB > b.MemoryMB
	}
	return compareDominant(cluster, a, b) > 0
}

// GreaterThanOrEqual is Resources.greaterThanOrEqual.
func (c Calculator) GreaterThanOrEqual(cluster, a, b Resource) bool {
	if c.Kind == DefaultKind {
		return a.MemoryMB >= b.MemoryMB
	}
	return compareDominant(cluster, a, b) >= 0
}

// Max is Resources.max: the larger of a and b under this calculator (a on ties).
func (c Calculator) Max(cluster, a, b Resource) Resource {
	if c.Kind == DefaultKind {
		if a.MemoryMB >= b.MemoryMB {
			return a
		}
		return b
	}
	return maxDominant(cluster, a, b)
}

// maxDominant is Max for the dominant calculator: apart, so that Max's
// default case is inlined where it is called.
//
//go:noinline
func maxDominant(cluster, a, b Resource) Resource {
	if compareDominant(cluster, a, b) >= 0 {
		return a
	}
	return b
}

// Min is Resources.min: the smaller of a and b under this calculator (a on ties).
func (c Calculator) Min(cluster, a, b Resource) Resource {
	if c.Kind == DefaultKind {
		if a.MemoryMB <= b.MemoryMB {
			return a
		}
		return b
	}
	return minDominant(cluster, a, b)
}

// minDominant is Min for the dominant calculator (see maxDominant).
//
//go:noinline
func minDominant(cluster, a, b Resource) Resource {
	if compareDominant(cluster, a, b) <= 0 {
		return a
	}
	return b
}

// FitsIn is Resources.fitsIn(rc, small, big): memory only for the default
// calculator, every type for the dominant one.
func (c Calculator) FitsIn(small, big Resource) bool {
	if c.Kind == DefaultKind {
		return small.MemoryMB <= big.MemoryMB
	}
	return FitsIn(small, big)
}

// IsInvalidDivisor reports whether r cannot divide (zero memory for the
// default calculator, any zero type for the dominant one).
func (c Calculator) IsInvalidDivisor(r Resource) bool {
	if c.Kind == DefaultKind {
		return r.MemoryMB == 0
	}
	return r.MemoryMB == 0 || r.VCores == 0
}

// divideSafelyAsFloat mirrors ResourceCalculator.divideSafelyAsFloat: a Java
// float division with 0/0 = 0 and x/0 = +/-Inf.
func divideSafelyAsFloat(a, b int64) float32 {
	if b == 0 {
		switch {
		case a > 0:
			return float32(math.Inf(1))
		case a < 0:
			return float32(math.Inf(-1))
		}
		return 0
	}
	return float32(a) / float32(b)
}

// Ratio is ResourceCalculator.ratio: memory ratio, or the largest per-type
// ratio for the dominant calculator.
func (c Calculator) Ratio(a, b Resource) float32 {
	if c.Kind == DefaultKind && b.MemoryMB != 0 {
		return float32(a.MemoryMB) / float32(b.MemoryMB)
	}
	return c.ratio(a, b)
}

// ratio is Ratio's every case, apart so that the common one is inlined
// where Ratio is called.
//
//go:noinline
func (c Calculator) ratio(a, b Resource) float32 {
	if c.Kind == DefaultKind {
		return divideSafelyAsFloat(a.MemoryMB, b.MemoryMB)
	}
	return max(divideSafelyAsFloat(a.MemoryMB, b.MemoryMB), divideSafelyAsFloat(a.VCores, b.VCores))
}

// Divide is Resources.divide(rc, cluster, a, b): a/b as a share of cluster.
func (c Calculator) Divide(cluster, a, b Resource) float32 {
	if c.Kind == DefaultKind && b.MemoryMB != 0 {
		return float32(a.MemoryMB) / float32(b.MemoryMB)
	}
	return c.divide(cluster, a, b)
}

// divide is Divide's every case (see ratio).
//
//go:noinline
func (c Calculator) divide(cluster, a, b Resource) float32 {
	if c.Kind == DefaultKind {
		return c.ratio(a, b)
	}
	as := dominantShare(cluster, a)
	bs := dominantShare(cluster, b)
	if bs == 0 {
		if as == 0 {
			return 0
		}
		return float32(math.Inf(1))
	}
	return float32(as / bs)
}

func dominantShare(cluster, r Resource) float64 {
	var m, v float64
	if cluster.MemoryMB != 0 {
		m = float64(r.MemoryMB) / float64(cluster.MemoryMB)
	}
	if cluster.VCores != 0 {
		v = float64(r.VCores) / float64(cluster.VCores)
	}
	return max(m, v)
}

// ComputeAvailableContainers is how many req fit in avail: memory quotient for
// the default calculator, the smallest per-type quotient over non-zero
// request types for the dominant one.
func (c Calculator) ComputeAvailableContainers(avail, req Resource) int64 {
	if c.Kind == DefaultKind {
		if req.MemoryMB == 0 {
			return math.MaxInt64
		}
		return avail.MemoryMB / req.MemoryMB
	}
	n := int64(math.MaxInt64)
	if req.MemoryMB != 0 {
		n = min(n, avail.MemoryMB/req.MemoryMB)
	}
	if req.VCores != 0 {
		n = min(n, avail.VCores/req.VCores)
	}
	return n
}

// roundUpTo is Java's (long) Math.ceil((double) v / step) * step.
func roundUpTo(v, step int64) int64 {
	if step == 0 {
		return v
	}
	if v <= 0 {
		return (v / step) * step
	}
	return ((v + step - 1) / step) * step
}

func roundDownTo(v, step int64) int64 {
	if step == 0 {
		return v
	}
	return (v / step) * step
}

// memOnly is Resources.createResource(long): the default calculator's results
// carry 1 vcore when memory is positive, else 0.
func memOnly(mem int64) Resource {
	if mem > 0 {
		return Resource{mem, 1}
	}
	return Resource{mem, 0}
}

// RoundUp rounds r up to a multiple of step (memory only, vcores 1/0, for
// the default calculator; every type for the dominant one).
func (c Calculator) RoundUp(r, step Resource) Resource {
	if c.Kind == DefaultKind {
		return memOnly(roundUpTo(r.MemoryMB, step.MemoryMB))
	}
	return Resource{roundUpTo(r.MemoryMB, step.MemoryMB), roundUpTo(r.VCores, step.VCores)}
}

// RoundDown rounds r down to a multiple of step (see RoundUp for vcores).
func (c Calculator) RoundDown(r, step Resource) Resource {
	mem := roundDownTo(r.MemoryMB, step.MemoryMB)
	if c.Kind == DefaultKind {
		return memOnly(mem)
	}
	return Resource{mem, roundDownTo(r.VCores, step.VCores)}
}

// MultiplyAndNormalizeUp is ResourceCalculator.multiplyAndNormalizeUp(r,
// double by, step): roundUp((long)(v*by + 0.5), step) for the default
// calculator (DefaultResourceCalculator), and for the dominant one
// DominantResourceCalculator.multiplyAndNormalize with roundUp true: per
// type roundUp((long) Math.ceil((float) (v*by)), step), the product cast
// to float before the ceiling (YARN-6428, Hadoop 3.2.0 and later), or the
// ceiling alone when the step is 0. The cast matters: 40960 MB x 0.1f is
// 4096.00006, whose ceiling 4097 rounds up to 4608 at a 512 MB step, where
// the float 4096.0 stays 4096. (The double[] overload, which has no cast,
// is used only by the preemption policy, which has its own.) The explicit
// conversions keep the product rounded before the addition or the cast,
// so no CPU fuses it into a multiply-add.
func (c Calculator) MultiplyAndNormalizeUp(r Resource, by float64, step Resource) Resource {
	if c.Kind == DefaultKind {
		return memOnly(roundUpTo(int64(float64(float64(r.MemoryMB)*by)+0.5), step.MemoryMB))
	}
	return Resource{drcUp(r.MemoryMB, by, step.MemoryMB), drcUp(r.VCores, by, step.VCores)}
}

// drcUp is one type of DominantResourceCalculator.multiplyAndNormalize,
// rounding up.
func drcUp(v int64, by float64, step int64) int64 {
	up := int64(math.Ceil(float64(float32(float64(v) * by))))
	if step == 0 {
		return up
	}
	return roundUpTo(up, step)
}

// MultiplyAndNormalizeDown is roundDown((long)(v*by), step) per type.
func (c Calculator) MultiplyAndNormalizeDown(r Resource, by float64, step Resource) Resource {
	if c.Kind == DefaultKind {
		return memOnly(roundDownTo(int64(float64(r.MemoryMB)*by), step.MemoryMB))
	}
	return Resource{
		roundDownTo(int64(float64(r.MemoryMB)*by), step.MemoryMB),
		roundDownTo(int64(float64(r.VCores)*by), step.VCores),
	}
}

// DivideAndCeil is ceil(v/d) per type (0 when d is 0).
func (c Calculator) DivideAndCeil(r Resource, d float32) Resource {
	if d == 0 {
		return None
	}
	if c.Kind == DefaultKind {
		return memOnly(int64(math.Ceil(float64(float32(r.MemoryMB) / d))))
	}
	return Resource{
		int64(math.Ceil(float64(float32(r.MemoryMB) / d))),
		int64(math.Ceil(float64(float32(r.VCores) / d))),
	}
}

// Normalize is ResourceCalculator.normalize(req, min, max, step):
// min(roundUp(max(req, min), step), max) per type; the default calculator
// sets vcores to 1.
func (c Calculator) Normalize(req, minAlloc, maxAlloc, step Resource) Resource {
	if c.Kind == DefaultKind {
		m := min(roundUpTo(max(req.MemoryMB, minAlloc.MemoryMB), step.MemoryMB), maxAlloc.MemoryMB)
		return Resource{m, 1}
	}
	return Resource{
		min(roundUpTo(max(req.MemoryMB, minAlloc.MemoryMB), step.MemoryMB), maxAlloc.MemoryMB),
		min(roundUpTo(max(req.VCores, minAlloc.VCores), step.VCores), maxAlloc.VCores),
	}
}
