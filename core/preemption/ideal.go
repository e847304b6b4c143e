package preemption

import (
	"math"

	"yarnplay/core/resource"
)

// This file is PreemptableResourceCalculator and
// AbstractPreemptableResourceCalculator: the ideal assignment of every queue
// and, from it, what each leaf should give back.

// javaDoubleCompare is Double.compare: NaN above everything, -0.0 < 0.0.
func javaDoubleCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	as, bs := math.Signbit(a), math.Signbit(b)
	switch {
	case as == bs:
		return 0
	case as:
		return -1
	}
	return 1
}

// needOrder is the most-under-served-first order of the fixpoint loop.
type needOrder struct {
	rc      resource.Calculator
	cluster resource.Resource // the level's total guarantee (TQComparator's clusterRes)
}

// compare is TQComparator.compare without queue priorities (every parent
// uses the utilization ordering with priority 0 here): ideal / guaranteed.
// Ties are real: equally under-served queues are served in one pass.
func (o needOrder) compare(a, b *tempQueue) int {
	return javaDoubleCompare(a.idealPctOfGuaranteed(o.rc, o.cluster), b.idealPctOfGuaranteed(o.rc, o.cluster))
}

// before is compare made total: ties go in configured sibling order. Hadoop
// keeps the queues in a java.util.PriorityQueue filled from a HashSet of
// identity-hashed objects, so its order among tied queues is arbitrary; any
// fixed order is as faithful.
func (o needOrder) before(a, b *tempQueue) bool {
	if c := o.compare(a, b); c != 0 {
		return c < 0
	}
	return a.index < b.index
}

// needHeap is the orderedByNeed priority queue.
type needHeap struct {
	order needOrder
	qs    []*tempQueue
}

func (h *needHeap) add(t *tempQueue) { h.qs = append(h.qs, t) }
func (h *needHeap) empty() bool      { return len(h.qs) == 0 }

func (h *needHeap) minIndex() int {
	best := 0
	for i := 1; i < len(h.qs); i++ {
		if h.order.before(h.qs[i], h.qs[best]) {
			best = i
		}
	}
	return best
}

func (h *needHeap) peek() *tempQueue {
	if h.empty() {
		return nil
	}
	return h.qs[h.minIndex()]
}

func (h *needHeap) poll() *tempQueue {
	i := h.minIndex()
	t := h.qs[i]
	h.qs = append(h.qs[:i], h.qs[i+1:]...)
	return t
}

// mostUnderserved is getMostUnderservedQueues: the head of the queue and
// every queue tied with it.
func (h *needHeap) mostUnderserved() []*tempQueue {
	var out []*tempQueue
	for !h.empty() {
		q1 := h.poll()
		out = append(out, q1)
		q2 := h.peek()
		if q2 == nil || h.order.compare(q1, q2) < 0 {
			return out
		}
	}
	return out
}

// resetCapacity computes each needy queue's normalized guarantee: its share
// of the needy queues' guarantees per type, as a Java float ("(float) n /
// d"), left unchanged for a type whose total is zero; or 1/n each when
// guarantees are ignored.
func resetCapacity(qs []*tempQueue, ignoreGuar bool) {
	if ignoreGuar {
		v := float64(float32(1.0) / float32(len(qs)))
		for _, q := range qs {
			q.normalizedGuarantee = [2]float64{v, v}
		}
		return
	}
	var active resource.Resource
	for _, q := range qs {
		active = active.Add(q.guaranteed)
	}
	for _, q := range qs {
		if active.MemoryMB != 0 {
			q.normalizedGuarantee[0] = floatRatio(q.guaranteed.MemoryMB, active.MemoryMB)
		}
		if active.VCores != 0 {
			q.normalizedGuarantee[1] = floatRatio(q.guaranteed.VCores, active.VCores)
		}
	}
}

// computeFixpointAllocation distributes unassigned among qs: each queue
// starts at min(used, guaranteed) + untouchable extra (or used when at or
// under guarantee), then the most under-served queues are offered their
// normalized share of what is left, until no queue wants more or nothing is
// left.
//
// It returns the value the caller's "unassigned" holds afterwards. In Hadoop
// the method subtracts from the caller's Resource object in place until the
// first "unassigned = Resources.componentwiseMax(unassigned, none)" rebinds
// its parameter to a fresh object; so the caller sees the initial
// assignments and the first accepted offer only, unclamped. The caller uses
// that value to decide whether (and with how much) to serve zero-guarantee
// queues; this mirrors it.
func computeFixpointAllocation(rc resource.Calculator, totGuarant resource.Resource, qs []*tempQueue,
	unassigned resource.Resource, ignoreGuar bool) resource.Resource {
	order := needOrder{rc: rc, cluster: totGuarant}
	h := &needHeap{order: order}
	for _, q := range qs {
		used := q.used
		var init resource.Resource
		if rc.GreaterThan(totGuarant, used, q.guaranteed) {
			init = resource.ComponentwiseMin(q.guaranteed, q.used).Add(q.untouchableExtra)
		} else {
			init = used
		}
		q.idealAssigned = init
		unassigned = unassigned.Sub(q.idealAssigned)
		if rc.LessThan(totGuarant, q.idealAssigned, q.used.Add(q.pending)) {
			h.add(q)
		}
	}
	callerView, aliased := unassigned, true

	for !h.empty() && rc.GreaterThan(totGuarant, unassigned, none) {
		resetCapacity(h.qs, ignoreGuar)
		underserved := h.mostUnderserved()
		dup := unassigned
		for _, sub := range underserved {
			if !anyMajorAboveZero(rc, unassigned) {
				break
			}
			wQavail := multiplyAndNormalizeUpVec(rc, dup, sub.normalizedGuarantee, unit)
			wQavail = resource.ComponentwiseMin(wQavail, unassigned)
			wQidle := sub.offer(wQavail, rc, totGuarant)
			wQdone := wQavail.Sub(wQidle)
			if rc.GreaterThan(totGuarant, wQdone, none) {
				h.add(sub)
			}
			unassigned = unassigned.Sub(wQdone)
			if aliased {
				callerView, aliased = unassigned, false
			}
			unassigned = resource.ComponentwiseMax(unassigned, none)
		}
	}
	return callerView
}

// computeIdealResourceDistribution assigns the level's total (the parent's
// ideal assignment) among siblings, then sets each one's toBePreempted with
// the level's scaling factor.
func computeIdealResourceDistribution(rc resource.Calculator, queues []*tempQueue,
	totalPreemptionAllowed, totGuarant resource.Resource) {
	unassigned := totGuarant
	var nonZero, zero []*tempQueue
	for _, q := range queues {
		if rc.GreaterThan(totGuarant, q.guaranteed, none) {
			nonZero = append(nonZero, q)
		} else {
			zero = append(zero, q)
		}
	}
	// First by guarantee, then what is left uniformly to zero-guarantee queues.
	unassigned = computeFixpointAllocation(rc, totGuarant, nonZero, unassigned, false)
	if len(zero) > 0 && rc.GreaterThan(totGuarant, unassigned, none) {
		computeFixpointAllocation(rc, totGuarant, zero, unassigned, true)
	}

	var needed resource.Resource
	for _, t := range queues {
		if rc.GreaterThan(totGuarant, t.used, t.idealAssigned) {
			needed = needed.Add(t.used.Sub(t.idealAssigned))
		}
	}
	scaling := float32(1)
	if rc.GreaterThan(totGuarant, needed, totalPreemptionAllowed) {
		scaling = rc.Divide(totGuarant, totalPreemptionAllowed, needed)
	}
	for _, t := range queues {
		t.assignPreemption(scaling, rc, totGuarant)
	}
}

// recursivelyComputeIdealAssignment walks the tree top-down: each level
// shares its parent's ideal assignment.
func recursivelyComputeIdealAssignment(rc resource.Calculator, t *tempQueue, totalPreemptionAllowed resource.Resource) {
	if len(t.children) == 0 {
		return
	}
	computeIdealResourceDistribution(rc, t.children, totalPreemptionAllowed, t.idealAssigned)
	for _, c := range t.children {
		recursivelyComputeIdealAssignment(rc, c, totalPreemptionAllowed)
	}
}

// calculateResToObtain is calculateResToObtainByPartitionForLeafQueues: a
// leaf with preemption enabled yields only outside the dead zone, and then
// toBePreempted damped by the natural termination factor.
func calculateResToObtain(rc resource.Calculator, cluster resource.Resource, leaves []*tempQueue, set Settings) {
	for _, q := range leaves {
		if q.preemptionDisabled {
			continue
		}
		if rc.GreaterThan(cluster, q.used, multiply(q.guaranteed, 1.0+set.MaxIgnoredOverCapacity)) {
			res := q.toBePreempted
			if rc.GreaterThan(cluster, res, resource.New(0, 0)) {
				res = multiplyAndNormalizeUp(rc, q.toBePreempted, set.NaturalTerminationFactor, unit)
			}
			q.actuallyToBePreempted = res
		} else {
			q.actuallyToBePreempted = none
		}
	}
}

// computeIdealAllocation is PreemptableResourceCalculator.
// computeIdealAllocation for the default partition.
func computeIdealAllocation(rc resource.Calculator, cluster resource.Resource, root *tempQueue,
	leaves []*tempQueue, totalPreemptionAllowed resource.Resource, set Settings) {
	root.updatePreemptableExtras(rc, cluster)
	root.idealAssigned = root.guaranteed // initializeRootIdealWithGuarangeed
	recursivelyComputeIdealAssignment(rc, root, totalPreemptionAllowed)
	calculateResToObtain(rc, cluster, leaves, set)
}
