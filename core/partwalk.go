package core

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// allocateOnceLabelled is allocateContainerOnSingleNode for a node of a
// labelled partition: the node's reservation is served, or the tree is
// walked for the partition's asks (allocateOrReserveNewContainers with
// RESPECT_PARTITION_EXCLUSIVITY and the partition's resources as root's
// limit); when that gives nothing and the partition is not exclusive, the
// tree is walked again for the default partition's asks
// (IGNORE_PARTITION_EXCLUSIVITY, root's limit the default partition's
// resources). Limits are the partition's throughout (section 15).
func (s *Scheduler) allocateOnceLabelled(n *node, pass int) (assignment, bool, Reason) {
	if n.reservation != nil {
		s.pw = partWalk{label: n.part}
		s.serveReservation(n)
		s.pw = partWalk{}
		return assignment{}, false, ReasonServedReservation
	}
	if s.rc.ComputeAvailableContainers(n.unallocated(), s.minAlloc()) <= 0 {
		if s.full() {
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: s.root.path, Reason: ReasonNodeFull, Resource: n.unallocated(), Partition: n.part})
		}
		return assignment{}, false, ReasonNodeFull
	}
	s.invalidate(changeState, nil)
	full := s.full()
	if full {
		s.emit(Event{Kind: EvAssignPass, Node: n.name, Seq: pass, Partition: n.part})
	}
	var lim limits
	lim.set(s.partRes(n.part))
	s.pw = partWalk{label: n.part}
	a := s.assignParentP(s.root, n, &lim)
	s.pw = partWalk{}
	if a.app != nil && s.rc.GreaterThan(s.wholeCluster(), a.size, resource.None) {
		return a, true, ReasonNone
	}
	if s.lbl.exclusive[n.part] {
		return assignment{}, false, ReasonPartitionExclusive
	}
	if full {
		s.emit(Event{Kind: EvPartitionShared, Node: n.name, Resource: n.unallocated(), Partition: n.part})
	}
	lim.set(s.cluster)
	s.pw = partWalk{label: n.part, ignore: true}
	a = s.assignParentP(s.root, n, &lim)
	s.pw = partWalk{}
	if a.app != nil && s.rc.GreaterThan(s.wholeCluster(), a.size, resource.None) {
		return a, true, ReasonNone
	}
	return assignment{}, false, ReasonNothingAssigned
}

// servesPartition reports whether q is to be visited in the partition
// walked: it can access it (unless the walk shares a non-exclusive
// partition) and has asks pending there, the checks that open
// ParentQueue's and LeafQueue's assignContainers; a queue skipped is
// recorded with why.
func (s *Scheduler) servesPartition(q *queue, n *node) bool {
	full, label := s.full(), s.pw.label
	if !s.pw.ignore && !q.conf.CanAccess(label) {
		if full {
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNoPartitionAccess, Depth: q.depth, Partition: label, Detail: q.conf.AccessibleString()})
		}
		return false
	}
	if !s.rc.GreaterThan(s.wholeCluster(), s.qPending(q, s.pw.want()), resource.None) {
		if full {
			used, _ := s.usedCapacityP(q, label)
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNoPending, Depth: q.depth, Value: used, Partition: label})
		}
		return false
	}
	return true
}

// assignParentP is ParentQueue.assignContainers in a labelled partition.
func (s *Scheduler) assignParentP(q *queue, n *node, lim *limits) assignment {
	full, label, cr := s.full(), s.pw.label, s.wholeCluster()
	if !s.servesPartition(q, n) {
		return assignment{}
	}
	if n.reservation != nil || !s.rc.GreaterThanOrEqual(cr, n.unallocated(), s.minAlloc()) {
		if full {
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNodeFull, Depth: q.depth, Partition: label})
		}
		return assignment{assignFlags: assignFlags{skip: skipNode}}
	}
	if ok, current := s.canAssignToThisQueueP(q, lim, q.reserved); !ok {
		if full {
			used, _ := s.usedCapacityP(q, label)
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonQueueAtMax, Depth: q.depth, Used: s.qUsed(q, label), Limit: current, Value: used, Partition: label})
		}
		return assignment{}
	}
	order := s.partitionOrder(q, label)
	if full {
		used, _ := s.usedCapacityP(q, label)
		s.emit(Event{Kind: EvQueueVisit, Node: n.name, Queue: q.path, Depth: q.depth, Used: s.qUsed(q, label), Limit: lim.limit, Value: used, Partition: label})
		s.emitPartitionOrder(q, n, order)
	}
	result := assignment{}
	var cl limits
	for _, c := range order {
		cl.set(s.childLimitP(q, c, lim))
		var a assignment
		if c.isLeaf() {
			a = s.assignLeafP(c, n, &cl)
		} else {
			a = s.assignParentP(c, n, &cl)
		}
		if s.rc.GreaterThan(cr, a.size, resource.None) {
			return a
		}
		if a.skip == skipQueueLimit {
			if result.skip != skipQueueLimit {
				result = a
			}
			blocked := cl.blocked
			if c.isLeaf() {
				blocked = cl.headroom
			}
			blocked = s.rc.Max(cr, blocked, resource.None)
			lim.blocked = lim.blocked.Add(blocked)
			if full {
				s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: c.path, Depth: c.depth, Reason: ReasonBlockedHeadroom, Resource: blocked, Partition: label})
			}
		}
	}
	if result.skip == skipQueueLimit {
		return result
	}
	return assignment{}
}

// partitionOrder is PriorityUtilizationQueueOrderingPolicy's order of a
// parent's children for a labelled partition: queues that can access
// it first, then those with a guarantee in it, then the used capacity in
// it (over the guarantee, or over the partition for queues without one),
// ties to the larger absolute capacity there, then the child list's
// order (a stable sort). Priorities count as in the default partition.
func (s *Scheduler) partitionOrder(p *queue, label string) []*queue {
	ch := slices.Clone(p.children)
	slices.SortFunc(ch, func(a, b *queue) int { return cmp.Compare(a.hpos, b.hpos) })
	type key struct {
		access, group int
		over          bool
		prio          int32
		used, abs     float32
	}
	keys := map[*queue]key{}
	for _, c := range ch {
		k := key{abs: c.conf.Label(label).AbsCapacity, prio: c.kPrio}
		if !c.conf.CanAccess(label) {
			k.access = 1
		}
		used, absUsed := s.usedCapacityP(c, label)
		if k.abs == 0 {
			k.group, used = 1, absUsed
		}
		k.used, k.over = used, used >= 1
		keys[c] = k
	}
	prio := p.conf.OrderingPolicy == config.PolicyPriorityUtilization
	slices.SortStableFunc(ch, func(a, b *queue) int {
		ka, kb := keys[a], keys[b]
		if c := cmp.Compare(ka.access, kb.access); c != 0 {
			return c
		}
		if c := cmp.Compare(ka.group, kb.group); c != 0 {
			return c
		}
		if prio && ka.prio != kb.prio {
			if ka.over == kb.over {
				return cmp.Compare(ka.prio, kb.prio)
			}
			if !ka.over {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(ka.used, kb.used); c != 0 {
			return c
		}
		return cmp.Compare(kb.abs, ka.abs)
	})
	return ch
}

func (s *Scheduler) emitPartitionOrder(q *queue, n *node, order []*queue) {
	var b strings.Builder
	for i, c := range order {
		if i > 0 {
			b.WriteString(", ")
		}
		u, au := s.usedCapacityP(c, s.pw.label)
		if c.conf.Label(s.pw.label).AbsCapacity == 0 {
			u = au
		}
		fmt.Fprintf(&b, "%s=%.4f", c.path, u)
	}
	s.emit(Event{Kind: EvChildOrder, Node: n.name, Queue: q.path, Depth: q.depth, Detail: b.String(), Partition: s.pw.label})
}

// assignLeafP is LeafQueue.assignContainers in a labelled partition.
func (s *Scheduler) assignLeafP(q *queue, n *node, lim *limits) assignment {
	s.invalidate(changeLeaf, q) // updateCurrentResourceLimits: its cachedLimit changes
	full, label, cr := s.full(), s.pw.label, s.wholeCluster()
	s.updateCurrentLimit(q, lim)
	if !s.servesPartition(q, n) {
		return assignment{}
	}
	if full {
		used, _ := s.usedCapacityP(q, label)
		s.emit(Event{Kind: EvQueueVisit, Node: n.name, Queue: q.path, Depth: q.depth, Used: s.qUsed(q, label), Limit: lim.limit, Value: used, Partition: label})
	}
	if len(q.lf.fairMarked) > 0 {
		s.fairReorder(q)
	}
	type cached struct {
		limit     resource.Resource
		canAssign bool
		reserved  resource.Resource
	}
	users := map[string]*cached{} // the visit's user limit cache (getUserLimitCache)
	needQueueCheck := true
	for _, a := range slices.Clone(q.lf.active) {
		appReserved := a.reservedRes
		if needQueueCheck {
			if ok, current := s.canAssignToThisQueueP(q, lim, appReserved); !ok {
				if full {
					used, _ := s.usedCapacityP(q, label)
					s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, App: a.id, Reason: ReasonQueueAtMax, Depth: q.depth, Used: s.qUsed(q, label), Limit: current, Value: used, Partition: label})
				}
				return assignment{}
			}
			if !s.set.ContinueLook || appReserved.IsZero() {
				needQueueCheck = false
			}
		}
		u := a.usr
		cu := users[a.user]
		if cu == nil {
			cu = &cached{limit: s.userLimitP(q, u, label, s.pw.ignore), canAssign: true}
			users[a.user] = cu
		}
		q.lf.currentLimit = q.lf.cachedLimit // setQueueResourceLimitsInfo
		var assignable bool
		if !cu.canAssign && resource.FitsIn(appReserved, cu.reserved) {
			assignable = false
		} else {
			assignable = s.canAssignToUserP(q, a, cu.limit, lim, label)
			if !assignable && resource.FitsIn(cu.reserved, appReserved) {
				cu.canAssign, cu.reserved = false, appReserved
			}
		}
		if !assignable {
			if full {
				s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Reason: ReasonUserLimit, Used: s.uUse(q, a.user, label).used, Limit: cu.limit, Depth: q.depth, Partition: label})
			}
			continue
		}
		if full {
			s.emit(Event{Kind: EvAppConsidered, Node: n.name, Queue: q.path, App: a.id, User: a.user, Used: s.uUse(q, a.user, label).used, Limit: cu.limit, Resource: lim.headroom, Depth: q.depth, Partition: label})
		}
		as := s.assignApp(q, a, n, lim, nil)
		if s.rc.GreaterThan(cr, as.size, resource.None) {
			return as
		}
		switch as.skip {
		case skipOther:
			continue
		case skipQueueLimit:
			return as
		default:
			if full {
				why := ReasonFIFO
				if isFair(q) {
					why = ReasonFairOrder
				}
				s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, App: a.id, Reason: why, Depth: q.depth, Partition: label})
			}
			return assignment{}
		}
	}
	return assignment{}
}
