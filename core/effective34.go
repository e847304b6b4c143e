package core

import (
	"math"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// Hadoop 3.4 computes effective resources with its queue capacity handler
// (CapacitySchedulerQueueCapacityHandler, from AbstractParentQueue.
// updateClusterResource) in double precision, per resource type, where
// Hadoop 3.3 multiplies the cluster by a float absolute capacity: a 70%
// queue of 1,024,000 MB gets 716,800 MB under 3.4 and 716,799 MB under 3.3.

// capKind is QueueCapacityVector.ResourceUnitCapacityType, in the order
// ResourceCalculationDriver.CALCULATOR_PRECEDENCE evaluates them.
type capKind int

const (
	kindAbsolute capKind = iota
	kindPercentage
	kindWeight
)

// kindOf is the type of a queue's capacity (legacy queue mode: one type
// for both resource types).
func kindOf(q *queue) capKind {
	switch {
	case q.conf.Absolute:
		return kindAbsolute
	case q.conf.Weighted:
		return kindWeight
	}
	return kindPercentage
}

// resourceValue is Resource.getResourceValue for the two types
// (0 memory, 1 vcores, the order of definedResources).
func resourceValue(r resource.Resource, i int) int64 {
	if i == 0 {
		return r.MemoryMB
	}
	return r.VCores
}

func setResourceValue(r *resource.Resource, i int, v int64) {
	if i == 0 {
		r.MemoryMB = v
	} else {
		r.VCores = v
	}
}

// effectiveResources34 is Hadoop 3.4's CapacitySchedulerQueueCapacityHandler
// for the default partition: root's effective minimum and maximum are the
// cluster (updateRoot), then each parent, root first, computes its
// children's (updateChildren, ResourceCalculationDriver.
// calculateResources); an absolute child's capacities are derived from
// its effective resources (AbsoluteResourceCapacityCalculator.
// updateCapacitiesAfterCalculation). In legacy queue mode percentage and
// weighted queues keep the capacities the parse gave them (a leaf's
// application limits wait for a cluster with resources,
// refreshAfterResourceCalculation); with
// legacy-queue-mode.enabled=false every child's are derived
// (CapacitySchedulerQueueCapacityHandler.updateQueueCapacities). The
// application limits are refreshed only by a cluster update
// (clusterUpdate).
func (s *Scheduler) effectiveResources34(clusterUpdate bool) {
	s.root.effMin, s.root.effMax = s.cluster, s.cluster
	for _, p := range s.queues {
		if len(p.children) == 0 {
			continue
		}
		s.calculateResources34(p)
		for _, c := range p.children {
			switch {
			case c.conf.Absolute || s.set.MixedQueueMode:
				c.conf = s.derivedCapacities34(p, c)
			case c.isLeaf() && clusterUpdate:
				// refreshAfterResourceCalculation: the application limits
				// wait for a cluster with resources.
				m, pu := config.MaxApplications34(s.set, c.conf, s.cluster.AnyPositive())
				if m != c.conf.MaxApplications || pu != c.conf.MaxApplicationsPerUser {
					d := *c.conf
					d.MaxApplications, d.MaxApplicationsPerUser = m, pu
					c.conf = &d
				}
			}
		}
	}
	for _, q := range s.queues {
		q.effMaxDown = s.rc.RoundDown(q.effMax, s.minAlloc())
	}
}

// calculateResources34 is ResourceCalculationDriver.calculateResources for
// p's children: per resource type, memory first, the absolute children,
// then the percentage children, then the weighted ones take their share
// of what p's effective minimum has left after the types before them
// (the remaining resource is updated after each type). Each value is
// rounded (down, weights to the nearest) and validated
// (validateCalculatedResources): no vcores without memory, the maximum
// within p's, the minimum within the maximum and within what is left.
func (s *Scheduler) calculateResources34(p *queue) {
	cluster := s.cluster
	for _, c := range p.children {
		c.effMin, c.effMax = resource.None, resource.None
	}
	for r := 0; r < 2; r++ {
		parentMin := float64(resourceValue(p.effMin, r))
		parentMax := resourceValue(p.effMax, r)
		clusterR := float64(resourceValue(cluster, r))
		ratio := absoluteRatio(p, r)
		var weights float64
		for _, c := range p.children {
			if c.conf.Weighted {
				weights += float64(c.conf.Weight)
			}
		}
		overall, batch := parentMin, parentMin
		for _, kind := range []capKind{kindAbsolute, kindPercentage, kindWeight} {
			var used float64
			for _, c := range p.children {
				if kindOf(c) != kind {
					continue
				}
				// getRemainingRatioOfResource, getParentAbsoluteMinCapacity.
				remaining := batch / parentMin
				parentAbs := parentMin / clusterR
				var minV float64
				switch kind {
				case kindAbsolute:
					minV = math.Floor(ratio * remaining * float64(resourceValue(c.conf.MinResource, r)))
				case kindPercentage:
					minV = math.Floor(clusterR * (parentAbs * remaining * float64(c.conf.CapacityPercent) / 100))
				case kindWeight:
					if w := float64(c.conf.Weight) / weights; w == 1 {
						minV = javaRound(batch) // all that is left, to avoid rounding loss
					} else {
						minV = javaRound(clusterR * (parentAbs * remaining * w))
					}
				}
				var maxV float64
				if !c.conf.MaxVector.IsZero() {
					// A whole number: its floor is itself.
					maxV = float64(resourceValue(c.conf.MaxVector, r))
				} else {
					parentAbsMax := float64(parentMax) / clusterR
					maxV = math.Floor(clusterR * (parentAbsMax * float64(c.conf.MaxCapacityPercent) / 100))
				}
				// validateCalculatedResources.
				if r != 0 && c.effMin.MemoryMB == 0 {
					minV = 0
				}
				if maxV == 0 {
					maxV = float64(parentMax)
				} else {
					maxV = math.Min(maxV, float64(parentMax))
				}
				if maxV < minV {
					minV = maxV
				}
				if minV > overall {
					minV = overall
				}
				setResourceValue(&c.effMin, r, javaDoubleToLong(minV))
				setResourceValue(&c.effMax, r, javaDoubleToLong(maxV))
				overall -= minV
				used += minV
			}
			batch -= used
		}
	}
}

// absoluteRatio is ResourceCalculationDriver.setNormalizedResourceRatio
// for resource type r: when p's effective minimum is below the sum of its
// absolute children's configured resources, the float ratio of the two
// scales those children down; else 1.
func absoluteRatio(p *queue, r int) float64 {
	var configured int64
	for _, c := range p.children {
		if c.conf.Absolute {
			configured += resourceValue(c.conf.MinResource, r)
		}
	}
	if configured == 0 {
		return 1
	}
	numerator := float32(configured)
	if eff := resourceValue(p.effMin, r); eff < configured {
		numerator = float32(eff)
	}
	return float64(numerator / float32(configured))
}

// javaRound is Java's Math.round(double): the nearest long, halves up,
// NaN 0, saturating.
func javaRound(v float64) float64 {
	if v != v {
		return 0
	}
	return float64(javaDoubleToLong(math.Floor(v + 0.5)))
}

// javaDoubleToLong is Java's (long) cast of a double: truncation, NaN to
// 0, saturation.
func javaDoubleToLong(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= 9.223372036854775807e18:
		return math.MaxInt64
	case v <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(v)
}

// derivedCapacities34 is CapacitySchedulerQueueCapacityHandler.
// setQueueCapacities for an absolute queue (every queue with
// legacy-queue-mode.enabled=false): its capacity and maximum
// capacity are its effective resources over its parent's (an infinite
// ratio is 0), its absolute capacities those times the parent's
// (updateAbsoluteCapacities: only when above 0), and a leaf's application
// limits follow (AbstractLeafQueue.updateMaximumApplications; before the
// cluster has resources, the base maximum). It returns
// a copy of c's configuration with them.
func (s *Scheduler) derivedCapacities34(p, c *queue) *config.QueueConf {
	d := *c.conf
	pAbs, pAbsMax := p.conf.AbsCapacity, p.conf.AbsMaxCapacity
	if p.parent == nil {
		pAbs, pAbsMax = 1, 1
	}
	notInf := func(f float32) float32 {
		if math.IsInf(float64(f), 0) {
			return 0
		}
		return f
	}
	d.Capacity = notInf(s.rc.Divide(s.cluster, c.effMin, p.effMin))
	d.MaxCapacity = notInf(s.rc.Divide(s.cluster, c.effMax, p.effMax))
	mixed := s.set.MixedQueueMode
	if mixed {
		// No normalized weight outside legacy mode: the capacity alone.
		d.AbsCapacity, d.AbsMaxCapacity = 0, 0
	}
	if d.Capacity > 0 {
		d.AbsCapacity = float32(d.Capacity * pAbs)
	}
	if d.MaxCapacity > 0 {
		d.AbsMaxCapacity = float32(d.MaxCapacity * pAbsMax)
	}
	if c.isLeaf() {
		d.MaxApplications, d.MaxApplicationsPerUser = config.MaxApplications34(s.set, &d, s.cluster.AnyPositive())
	}
	d.Capacity, d.MaxCapacity = finite(d.Capacity), finite(d.MaxCapacity)
	d.AbsCapacity, d.AbsMaxCapacity = finite(d.AbsCapacity), finite(d.AbsMaxCapacity)
	return &d
}
