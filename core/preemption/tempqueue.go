package preemption

import (
	"yarnplay/core/resource"
)

// tempQueue is TempQueuePerPartition for the default partition: the policy's
// working copy of one queue.
type tempQueue struct {
	q        *Queue
	path     string
	depth    int
	index    int // position among its siblings: the last tie-breaker
	parent   *tempQueue
	children []*tempQueue

	used, reserved, killable resource.Resource
	pending                  resource.Resource // leaf: snapshot; parent: sum of children (addChild)
	pendingDeductReserved    resource.Resource
	guaranteed, max          resource.Resource
	preemptionDisabled       bool

	untouchableExtra, preemptableExtra resource.Resource
	normalizedGuarantee                [2]float64 // per type; survives between rounds of the fixpoint loop
	idealAssigned                      resource.Resource
	toBePreempted                      resource.Resource
	actuallyToBePreempted              resource.Resource
	scaling                            float32
}

func (t *tempQueue) isLeaf() bool { return len(t.children) == 0 }

// cloneQueues builds the working tree (ProportionalCapacityPreemptionPolicy.
// cloneQueues and the TempQueuePerPartition constructor / addChild).
func cloneQueues(q *Queue, parent *tempQueue, depth, index int, cluster resource.Resource) *tempQueue {
	t := &tempQueue{
		q: q, path: q.Path, depth: depth, index: index, parent: parent,
		used: q.Used, reserved: q.Reserved, killable: q.Killable,
		preemptionDisabled: q.DisablePreemption,
		scaling:            1,
	}
	// getGuaranteed / getMax: the effective resource unless it is none, else
	// partition resource x absolute capacity.
	t.guaranteed = q.Guaranteed
	if t.guaranteed.IsZero() {
		t.guaranteed = multiply(cluster, float64(q.AbsCapacity))
	}
	t.max = q.Max
	if t.max.IsZero() {
		t.max = multiply(cluster, float64(q.AbsMaxCapacity))
	}
	if q.IsLeaf() {
		// getTotalPendingResourcesConsideringUserLimit(.., false / true).
		t.pending = q.Pending
		t.pendingDeductReserved = resource.ComponentwiseMax(q.Pending.Sub(q.Reserved), none)
		return t
	}
	for i, c := range q.Children {
		ct := cloneQueues(c, t, depth+1, i, cluster)
		t.children = append(t.children, ct)
		t.pending = t.pending.Add(ct.pending)
		t.pendingDeductReserved = t.pendingDeductReserved.Add(ct.pendingDeductReserved)
	}
	return t
}

// preOrder appends t and its descendants, parents before children.
func (t *tempQueue) preOrder(out []*tempQueue) []*tempQueue {
	out = append(out, t)
	for _, c := range t.children {
		out = c.preOrder(out)
	}
	return out
}

// updatePreemptableExtras is PreemptableResourceCalculator.
// updatePreemptableExtras with TempQueuePerPartition.updatePreemptableExtras:
// children first, then the queue.
func (t *tempQueue) updatePreemptableExtras(rc resource.Calculator, cluster resource.Resource) {
	for _, c := range t.children {
		c.updatePreemptableExtras(rc, cluster)
	}
	t.untouchableExtra, t.preemptableExtra = none, none
	extra := t.used.Sub(t.guaranteed)
	if rc.LessThan(cluster, extra, none) {
		extra = none
	}
	if t.isLeaf() {
		if t.preemptionDisabled {
			t.untouchableExtra = extra
		} else {
			t.preemptableExtra = extra
		}
		return
	}
	var childrens resource.Resource
	for _, c := range t.children {
		childrens = childrens.Add(c.preemptableExtra)
	}
	if rc.GreaterThanOrEqual(cluster, childrens, extra) {
		t.untouchableExtra = none
	} else {
		t.untouchableExtra = extra.Sub(childrens)
	}
	t.preemptableExtra = rc.Min(cluster, childrens, extra)
}

// offer is TempQueuePerPartition.offer for the FIFO selector
// (considersReservedResource = false, allowQueueBalanceAfterAllSatisfied =
// false): the queue accepts what it can of avail and returns the rest.
//
//	accepted = min{avail, max - assigned, used + pendingDeductReserved - assigned,
//	               (leaf only) max(guaranteed, used) - assigned}
func (t *tempQueue) offer(avail resource.Resource, rc resource.Calculator, cluster resource.Resource) resource.Resource {
	absMaxDelta := resource.ComponentwiseMax(t.max.Sub(t.idealAssigned), none)
	accepted := resource.ComponentwiseMin(absMaxDelta,
		rc.Min(cluster, avail, t.used.Add(t.pendingDeductReserved).Sub(t.idealAssigned)))
	// filterByMaxDeductAssigned.
	if t.isLeaf() {
		m := rc.Max(cluster, t.used, t.guaranteed).Sub(t.idealAssigned)
		m = rc.Max(cluster, m, none)
		accepted = rc.Min(cluster, accepted, m)
	}
	// acceptedByLocality is the identity.
	accepted = resource.ComponentwiseMax(accepted, none)
	accepted = resource.ComponentwiseMin(accepted, avail)
	remain := avail.Sub(accepted)
	t.idealAssigned = t.idealAssigned.Add(accepted)
	return remain
}

// assignPreemption is TempQueuePerPartition.assignPreemption: what the queue
// should give back, scaled down to the round's limit.
func (t *tempQueue) assignPreemption(scaling float32, rc resource.Calculator, cluster resource.Resource) {
	t.scaling = scaling
	usedDeductKillable := t.used.Sub(t.killable)
	total := t.used.Add(t.pending)
	// Keep at least max(idealAssigned, min(used + pending, guaranteed)).
	minimum := rc.Max(cluster, rc.Min(cluster, total, t.guaranteed), t.idealAssigned)
	if rc.GreaterThan(cluster, usedDeductKillable, minimum) {
		t.toBePreempted = multiply(usedDeductKillable.Sub(minimum), float64(scaling))
	} else {
		t.toBePreempted = none
	}
}

// idealPctOfGuaranteed is TQComparator.getIdealPctOfGuaranteed: ideal /
// guaranteed, or Integer.MAX_VALUE for a queue without guarantee (served
// last).
func (t *tempQueue) idealPctOfGuaranteed(rc resource.Calculator, cluster resource.Resource) float64 {
	if rc.GreaterThan(cluster, t.guaranteed, none) {
		return float64(rc.Divide(cluster, t.idealAssigned, t.guaranteed))
	}
	return float64(1<<31 - 1)
}
