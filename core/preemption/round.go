// Package preemption is the Capacity Scheduler's
// ProportionalCapacityPreemptionPolicy (Hadoop 3.3) as a pure function of a
// frozen scheduler snapshot: default partition only, inter-queue preemption
// with the FIFO candidate selector (no intra-queue, reserved-container or
// queue-priority selectors).
//
// One Round is one editSchedule call:
//
//	snapshot ─▶ extras ─▶ ideal assignment ─▶ dead zone / damping ─▶ FIFO candidates ─▶ mark / kill
//
// The package reads no clock (the caller passes the round's time), no
// operating system and no global randomness, and no map iteration decides
// an order. Every type and function names the Hadoop class or method it
// mirrors; README.md draws the pipeline.
package preemption

import (
	"fmt"
	"slices"

	"yarnplay/core/resource"
)

// Round runs the policy once at time nowMS on snap, remembering and
// forgetting candidates in st as Hadoop's preemptOrkillSelectedContainerAfterWait
// and cleanupStaledPreemptionCandidates do:
//
//   - a selected container not in st is marked (MARK_CONTAINER_FOR_PREEMPTION)
//     and remembered with nowMS;
//   - a selected container in st with firstSelected + MaxWaitBeforeKillMS <=
//     nowMS is killed (MARK_CONTAINER_FOR_KILLABLE) and forgotten; otherwise
//     it waits, and nothing is sent;
//   - every remembered container with firstSelected + 2 x MaxWaitBeforeKillMS
//     < nowMS is then forgotten, selected this round or not.
//
// Reservations the selector visits are killed at once (KILL_RESERVED_CONTAINER).
// With ObserveOnly the candidates are computed and reported in Selected, but
// nothing is marked or killed and st is untouched. With Enabled false nothing
// is computed. A nil st is treated as a fresh, discarded state. snap is not
// modified.
func Round(snap *Snapshot, st *State, set Settings, nowMS int64) Decision {
	d := Decision{NowMS: nowMS}
	if err := Validate(snap); err != nil {
		d.Error = err.Error()
		return d
	}
	if !set.Enabled {
		d.Disabled = true
		return d
	}
	if st == nil {
		st = NewState()
	}
	rc, cluster := snap.Calculator, snap.Cluster
	d.Cluster = cluster

	// cloneQueues, then the ideal allocation.
	root := cloneQueues(snap.Root, nil, 0, 0, cluster)
	all := root.preOrder(nil)
	var leaves []*tempQueue
	for _, t := range all {
		if t.isLeaf() {
			leaves = append(leaves, t)
		}
	}
	allowed := multiply(cluster, float64(set.TotalPreemptionPerRound))
	d.TotalPreemptionAllowed = allowed
	computeIdealAllocation(rc, cluster, root, leaves, allowed, set)

	// FifoCandidatesSelector.
	sel := &selector{rc: rc, cluster: cluster, allowed: allowed, observeOnly: set.ObserveOnly,
		chosen: map[ContainerID]bool{}}
	sel.selectCandidates(leaves)
	d.AllowedLeft = sel.allowed
	d.Selected = sel.selected
	for _, s := range d.Selected {
		d.SelectedTotal = d.SelectedTotal.Add(s.Size)
	}
	d.Queues = queueDecisions(rc, cluster, all, d.Selected, set)

	if set.ObserveOnly {
		d.ObserveOnly = true
		return d
	}
	d.Killed = append(d.Killed, sel.reserveKill...)
	markOrKill(&d, st, set, nowMS)
	for _, s := range d.Marked {
		d.MarkedTotal = d.MarkedTotal.Add(s.Size)
	}
	for _, s := range d.Killed {
		d.KilledTotal = d.KilledTotal.Add(s.Size)
	}
	return d
}

// markOrKill is preemptOrkillSelectedContainerAfterWait followed by
// cleanupStaledPreemptionCandidates.
func markOrKill(d *Decision, st *State, set Settings, nowMS int64) {
	wait := set.MaxWaitBeforeKillMS
	for _, s := range d.Selected {
		first, known := st.firstSelected[s.ContainerID]
		switch {
		case known && first+wait <= nowMS:
			s.Event, s.FirstSelectedMS = MarkKillable, first
			s.Reason = fmt.Sprintf("selected again %d ms after its first selection at %d (max_wait_before_kill %d): killed",
				nowMS-first, first, wait)
			d.Killed = append(d.Killed, s)
			delete(st.firstSelected, s.ContainerID)
		case known:
			s.Event, s.FirstSelectedMS = NoEvent, first
			s.Reason = fmt.Sprintf("already asked back at %d; killed from %d if still selected", first, first+wait)
			d.Waiting = append(d.Waiting, s)
		default:
			s.Event, s.FirstSelectedMS = MarkForPreemption, nowMS
			s.Reason = "newly selected (the application is asked to give it back): " + s.Reason
			d.Marked = append(d.Marked, s)
			st.firstSelected[s.ContainerID] = nowMS
		}
	}
	for id, first := range st.firstSelected {
		if first+2*wait < nowMS {
			delete(st.firstSelected, id)
			d.Forgotten = append(d.Forgotten, id)
		}
	}
	slices.Sort(d.Forgotten)
}

// queueDecisions reports every queue's computation in pre-order.
func queueDecisions(rc resource.Calculator, cluster resource.Resource, all []*tempQueue, selected []Selection, set Settings) []QueueDecision {
	out := make([]QueueDecision, 0, len(all))
	for _, t := range all {
		qd := QueueDecision{
			Path: t.path, Depth: t.depth, Leaf: t.isLeaf(),
			Guaranteed: t.guaranteed, Max: t.max, Used: t.used, Reserved: t.reserved, Killable: t.killable,
			Pending: t.pending, PendingDeductReserved: t.pendingDeductReserved,
			PreemptableExtra: t.preemptableExtra, UntouchableExtra: t.untouchableExtra,
			Ideal: t.idealAssigned, ToBePreempted: t.toBePreempted, ResToObtain: t.actuallyToBePreempted,
			ScalingFactor: t.scaling, PreemptionDisabled: t.preemptionDisabled,
		}
		for _, s := range selected {
			if s.Queue == t.path {
				qd.Selected = qd.Selected.Add(s.Size)
				qd.SelectedCount++
			}
		}
		qd.Reason = queueReason(rc, cluster, t, qd, set)
		out = append(out, qd)
	}
	return out
}

// queueReason says why a queue yields nothing, "" when it yields.
func queueReason(rc resource.Calculator, cluster resource.Resource, t *tempQueue, qd QueueDecision, set Settings) string {
	switch {
	case !t.isLeaf():
		return "parent queue: containers are taken from its leaves"
	case t.preemptionDisabled:
		return "preemption disabled"
	case rc.LessThanOrEqual(cluster, t.used, t.guaranteed):
		return "under guarantee"
	case !rc.GreaterThan(cluster, t.used, multiply(t.guaranteed, 1.0+set.MaxIgnoredOverCapacity)):
		return "within dead zone (used <= guaranteed x (1 + max_ignored_over_capacity))"
	case !rc.GreaterThan(cluster, t.actuallyToBePreempted, none):
		return "ideal assignment keeps its usage"
	case qd.SelectedCount == 0:
		return "no container could be taken (round limit reached, or none makes progress)"
	}
	return ""
}
