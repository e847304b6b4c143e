package core

import (
	"math"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// effectiveResources is the effective-capacity part of
// ParentQueue.updateClusterResource in Hadoop 3.3 for the default
// partition: each parent, root first, computes its children's effective
// minimum and maximum resources (calculateEffectiveResourcesAndCapacity)
// before they compute their own children's. A percentage queue gets the
// cluster times its absolute capacities; an absolute queue its configured
// resources, scaled down when the parent's effective minimum is below the
// sum its children configure, and capped by the parent's maximum; its
// capacities are then derived from them (deriveCapacityFromAbsoluteConfigurations)
// and returned as a fresh configuration (the parsed one is shared). The
// hadoop-3.4 profile computes them as Hadoop 3.4 does (effectiveResources34);
// clusterUpdate says the call is updateClusterResource's, after which Hadoop
// 3.4 refreshes the leaves' application limits too (an auto-created leaf's
// new entitlement, mergeCapacities, does not).
func (s *Scheduler) effectiveResources(clusterUpdate bool) {
	if s.profile.AtLeast34() {
		s.effectiveResources34(clusterUpdate)
		return
	}
	cluster := s.cluster
	root := s.root
	root.effMin, root.effMax = cluster, cluster
	for _, p := range s.queues {
		if len(p.children) == 0 {
			continue
		}
		// Root's configured maximum is the cluster.
		parentMaxConf := p.conf.MaxResource
		if p.parent == nil {
			parentMaxConf = cluster
		}
		var configured resource.Resource
		for _, c := range p.children {
			configured = configured.Add(c.conf.MinResource)
		}
		// The factor that scales the children's minimums down when the
		// parent's effective minimum (root: the cluster) is short of them.
		var numerator *resource.Resource
		if p.parent == nil {
			if !cluster.IsZero() && s.rc.LessThan(cluster, cluster, configured) {
				numerator = &cluster
			}
		} else if s.rc.LessThan(cluster, p.effMin, configured) {
			numerator = &p.effMin
		}
		ratio := effectiveMinRatio(configured, numerator)
		for _, c := range p.children {
			if !c.conf.Absolute {
				c.effMin = resource.Multiply(cluster, float64(c.conf.AbsCapacity))
				c.effMax = resource.Multiply(cluster, float64(c.conf.AbsMaxCapacity))
				continue
			}
			c.effMin = minResourceNormalized(ratio, c.conf.MinResource)
			// parentMaxRes: the parent's configured maximum, else its
			// parent's effective maximum (Hadoop reads parent, the
			// grandparent of the child, there).
			parentMax := parentMaxConf
			if p.parent != nil && parentMax.IsZero() {
				parentMax = p.parent.effMax
			}
			childMax := c.conf.MaxResource
			if childMax.IsZero() {
				childMax = parentMax
			}
			c.effMax = s.rc.Min(cluster, childMax, parentMax)
			c.conf = s.derivedCapacities(p, c)
		}
	}
	for _, q := range s.queues {
		q.effMaxDown = s.rc.RoundDown(q.effMax, s.minAlloc())
	}
}

// minRatio is the map of getEffectiveMinRatioPerResource: a ratio per
// resource type, where there is one.
type minRatio struct {
	mem, vc       float32
	hasMem, hasVC bool
}

// effectiveMinRatio is ParentQueue.getEffectiveMinRatioPerResource: per
// resource type, numerator over the configured sum as a Java float, for
// the types whose sum is not 0; empty when there is no numerator.
func effectiveMinRatio(configured resource.Resource, numerator *resource.Resource) (r minRatio) {
	if numerator == nil {
		return r
	}
	if configured.MemoryMB != 0 {
		r.mem, r.hasMem = float32(numerator.MemoryMB)/float32(configured.MemoryMB), true
	}
	if configured.VCores != 0 {
		r.vc, r.hasVC = float32(numerator.VCores)/float32(configured.VCores), true
	}
	return r
}

// minResourceNormalized is ParentQueue.getMinResourceNormalized: each
// type with a ratio becomes (long) (value * ratio), in float arithmetic.
func minResourceNormalized(ratio minRatio, min resource.Resource) resource.Resource {
	out := min
	if ratio.hasMem {
		out.MemoryMB = javaFloatToLong(float32(float32(min.MemoryMB) * ratio.mem))
	}
	if ratio.hasVC {
		out.VCores = javaFloatToLong(float32(float32(min.VCores) * ratio.vc))
	}
	return out
}

// javaFloatToLong is Java's (long) cast of a float: truncation, NaN to 0,
// saturation.
func javaFloatToLong(f float32) int64 {
	switch {
	case f != f:
		return 0
	case f >= 9.223372e18:
		return 1<<63 - 1
	case f <= -9.223372e18:
		return -1 << 63
	}
	return int64(f)
}

// derivedCapacities is ParentQueue.deriveCapacityFromAbsoluteConfigurations:
// an absolute queue's capacity and maximum capacity are its effective
// resources divided by its parent's (Resources.divide under the
// calculator), its absolute capacities those times the parent's, and a
// leaf's application limits are derived again from the new absolute
// capacity. It returns a copy of c's configuration with them.
func (s *Scheduler) derivedCapacities(p, c *queue) *config.QueueConf {
	d := *c.conf
	pc := p.conf
	pAbs, pAbsMax := pc.AbsCapacity, pc.AbsMaxCapacity
	if p.parent == nil {
		pAbs, pAbsMax = 1, 1
	}
	pAbs, pAbsMax = infinite(pAbs), infinite(pAbsMax)
	d.Capacity = s.rc.Divide(s.cluster, c.effMin, p.effMin)
	d.MaxCapacity = s.rc.Divide(s.cluster, c.effMax, p.effMax)
	d.AbsCapacity = float32(d.Capacity * pAbs)
	d.AbsMaxCapacity = float32(d.MaxCapacity * pAbsMax)
	if c.isLeaf() {
		maxApps := d.QueueMaxApplications
		if maxApps < 0 {
			if s.set.GlobalQueueMaxApps > 0 {
				maxApps = javaFloatToInt(float32(float32(s.set.GlobalQueueMaxApps) * d.AbsCapacity))
			} else {
				maxApps = javaFloatToInt(float32(float32(s.set.MaxApplications) * d.AbsCapacity))
			}
		}
		d.MaxApplications = maxApps
		// (int) (maxApplications * (userLimit / 100.0f) * userLimitFactor)
		perUser := float32(float32(float32(maxApps)*float32(d.MinUserLimitPercent/100)) * d.UserLimitFactor)
		d.MaxApplicationsPerUser = min(maxApps, javaFloatToInt(perUser))
	}
	d.Capacity, d.MaxCapacity = finite(d.Capacity), finite(d.MaxCapacity)
	d.AbsCapacity, d.AbsMaxCapacity = finite(d.AbsCapacity), finite(d.AbsMaxCapacity)
	return &d
}

// infinite reads back a capacity finite kept: the largest float is Infinity.
func infinite(f float32) float32 {
	switch f {
	case math.MaxFloat32:
		return float32(math.Inf(1))
	case -math.MaxFloat32:
		return float32(math.Inf(-1))
	}
	return f
}

// finite keeps a derived capacity a finite number: before the first node
// registers the parent's effective resources are 0, and Hadoop's float
// division gives Infinity (or, times a capacity of 0, NaN), which the
// views cannot carry (JSON has neither). Infinity is kept as the largest
// float, which orders and compares with other capacities as Infinity
// does; NaN as 0. The application limits are derived before, from
// Hadoop's value.
func finite(f float32) float32 {
	switch {
	case f != f:
		return 0
	case f > math.MaxFloat32:
		return math.MaxFloat32
	case f < -math.MaxFloat32:
		return -math.MaxFloat32
	}
	return f
}

// javaFloatToInt is Java's (int) cast of a float.
func javaFloatToInt(f float32) int {
	switch {
	case f != f:
		return 0
	case f >= 2147483647:
		return 1<<31 - 1
	case f <= -2147483648:
		return -1 << 31
	}
	return int(f)
}
