package core

import (
	"fmt"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

type skipType uint8

const (
	skipNone       skipType = iota
	skipOther               // APP_SKIPPED: try the next application
	skipQueueLimit          // QUEUE_LIMIT: the queue's headroom is too small
	skipNode                // the node failed the node checks: nothing walked
)

// assignment is a CSAssignment: one container or reservation, or why none.
//
// The walk returns it at every level, so it is kept to what the compiler
// holds in registers (at most four fields of at most 32 bytes in all, its
// flags in one): a larger result is copied through memory at each return,
// and in WebAssembly each such copy is a call out of the module
// (memory.copy), a few dozen per heartbeat.
type assignment struct {
	size resource.Resource
	app  *app
	assignFlags
}

// assignFlags are an assignment's small fields.
type assignFlags struct {
	locality  nodeType
	reserved  bool // a new reservation or a re-reservation
	fulfilled bool
	skip      skipType
}

// Heartbeat processes one node heartbeat: containers that finished on the
// node are reported, then the node's reservation is served or the queue tree
// is walked, as many times as the per-heartbeat limits allow (section 5.1).
func (s *Scheduler) Heartbeat(name string) error {
	n, err := s.nodeByName(name)
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	s.heartbeat(n)
	return nil
}

// heartbeat is CapacityScheduler.nodeUpdate: the node's completed
// containers, then allocateContainersToNode's passes while canAllocateMore.
func (s *Scheduler) heartbeat(n *node) {
	s.count.Heartbeats++
	if s.full() {
		s.emit(Event{Kind: EvHeartbeat, Node: n.name, Resource: n.unallocated(), Used: n.allocated, Limit: n.total})
	}
	s.completeDueContainers(n)

	off, assigned := 0, 0
	for pass := 1; ; pass++ {
		var a assignment
		var ok bool
		var why Reason
		if n.part == "" {
			a, ok, why = s.allocateOnce(n, pass)
		} else {
			a, ok, why = s.allocateOnceLabelled(n, pass)
		}
		if ok {
			if a.locality == ntOffSwitch {
				off++
			}
			assigned++
			why = s.cannotAllocateMore(&a, off, assigned)
		}
		if why != ReasonNone {
			if s.full() {
				s.emit(Event{Kind: EvHeartbeatDone, Node: n.name, Reason: why, Seq: assigned, Partition: n.part})
			}
			return
		}
	}
}

// cannotAllocateMore is CapacityScheduler.canAllocateMore after an
// assignment, returning why no further pass is made.
func (s *Scheduler) cannotAllocateMore(a *assignment, off, assigned int) Reason {
	switch {
	case off >= s.set.OffSwitchPerHeartbeat:
		return ReasonOffSwitchLimit
	case a.reserved:
		return ReasonReservationMade
	case !s.set.AssignMultiple:
		return ReasonAssignMultipleOff
	case s.set.MaxAssignPerHeartbeat != -1 && assigned >= s.set.MaxAssignPerHeartbeat:
		return ReasonMaxAssignments
	}
	return ReasonNone
}

// allocateOnce is allocateContainerOnSingleNode: one scheduling pass. It
// returns the assignment when something was allocated or reserved (ok),
// else why not.
//
// A pass that walks the whole tree (the node passed every node check)
// without reaching an application's allocation, and so without changing
// anything, is idle: until the state changes (walkCache), every pass on a node
// that passes the node checks would walk the same way, since nothing before
// an allocation attempt depends on the node but those checks. Such passes
// are skipped when the walk is not recorded.
func (s *Scheduler) allocateOnce(n *node, pass int) (assignment, bool, Reason) {
	if n.reservation != nil {
		s.serveReservation(n)
		return assignment{}, false, ReasonServedReservation
	}
	if s.rc.ComputeAvailableContainers(n.unallocated(), s.minAlloc()) <= 0 {
		if s.full() {
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: s.root.path, Reason: ReasonNodeFull, Resource: n.unallocated()})
		}
		return assignment{}, false, ReasonNodeFull
	}
	full := s.full()
	if !full && s.walk.idleNow() && s.rc.GreaterThanOrEqual(s.cluster, n.unallocated(), s.minAlloc()) {
		return assignment{}, false, ReasonNothingAssigned
	}
	if full {
		s.emit(Event{Kind: EvAssignPass, Node: n.name, Seq: pass})
	}
	gen := s.walk.gen
	var lim limits
	lim.set(s.cluster)
	a := s.assignParent(s.root, n, &lim)
	if a.app != nil && s.rc.GreaterThan(s.cluster, a.size, resource.None) {
		return a, true, ReasonNone
	}
	if a.skip != skipNode {
		s.walk.passWasIdle(gen)
	}
	return assignment{}, false, ReasonNothingAssigned
}

// assignParent is ParentQueue.assignContainers (section 5.2): one container
// at most.
func (s *Scheduler) assignParent(q *queue, n *node, lim *limits) assignment {
	full := s.full()
	if !s.rc.GreaterThan(s.cluster, q.pending, resource.None) {
		if full {
			used, _ := s.usedCapacity(q)
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNoPending, Depth: q.depth, Value: used})
		}
		return assignment{}
	}
	if n.reservation != nil || !s.rc.GreaterThanOrEqual(s.cluster, n.unallocated(), s.minAlloc()) {
		if full {
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNodeFull, Depth: q.depth})
		}
		return assignment{assignFlags: assignFlags{skip: skipNode}}
	}
	if !s.canAssignToThisQueue(q, lim, q.reserved) {
		if full {
			used, _ := s.usedCapacity(q)
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonQueueAtMax, Depth: q.depth, Used: q.used, Limit: s.rc.Min(s.cluster, q.effMax, lim.limit), Value: used})
		}
		return assignment{}
	}
	order := s.sortedChildren(q)
	if full {
		used, _ := s.usedCapacity(q)
		s.emit(Event{Kind: EvQueueVisit, Node: n.name, Queue: q.path, Depth: q.depth, Used: q.used, Limit: lim.limit, Value: used})
		s.emitChildOrder(q, n, order)
	}
	result := assignment{}
	var cl limits // a child's limits (getResourceLimitsOfChild)
	for i := range order {
		c := q.children[order[i].child]
		if !full && !s.rc.GreaterThan(s.cluster, c.pending, resource.None) {
			// The child would return at once ("no pending requests"); its
			// limit's only effects are the idempotent clamp of lim.limit,
			// read only by the next child's, and a leaf's cachedLimit,
			// which is always written again before it is read.
			continue
		}
		cl.set(s.childLimit(q, c, lim, true))
		var a assignment
		if c.isLeaf() {
			a = s.assignLeaf(c, n, &cl)
		} else {
			a = s.assignParent(c, n, &cl)
		}
		if s.rc.GreaterThan(s.cluster, a.size, resource.None) {
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
			blocked = s.rc.Max(s.cluster, blocked, resource.None)
			lim.blocked = lim.blocked.Add(blocked)
			if full {
				s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: c.path, Depth: c.depth, Reason: ReasonBlockedHeadroom, Resource: blocked})
			}
		}
	}
	if result.skip == skipQueueLimit {
		return result
	}
	return assignment{}
}

func (s *Scheduler) emitChildOrder(q *queue, n *node, order []orderSlot) {
	var b strings.Builder
	for i, o := range order {
		c := q.children[o.child]
		if i > 0 {
			b.WriteString(", ")
		}
		u, au := s.usedCapacity(c)
		v := u
		if c.conf.AbsCapacity == 0 {
			v = au
		}
		fmt.Fprintf(&b, "%s=%.4f", c.path, v)
		if q.conf.OrderingPolicy == config.PolicyPriorityUtilization && s.profile != config.Hadoop2 {
			fmt.Fprintf(&b, "@%d", c.conf.Priority) // the priority the order weighs
		}
	}
	s.emit(Event{Kind: EvChildOrder, Node: n.name, Queue: q.path, Depth: q.depth, Detail: b.String()})
}

// canAssignToThisQueue is the max-capacity gate (section 5.4). It sets the
// headroom of lim.
func (s *Scheduler) canAssignToThisQueue(q *queue, lim *limits, couldUnreserve resource.Resource) bool {
	current := s.rc.Min(s.cluster, q.effMax, lim.limit)
	lim.headroom = current.Sub(q.used)
	if s.rc.GreaterThanOrEqual(s.cluster, q.used, current) {
		if s.set.ContinueLook && s.rc.GreaterThan(s.cluster, couldUnreserve, resource.None) &&
			s.rc.LessThan(s.cluster, q.used.Sub(couldUnreserve), current) {
			return true
		}
		return false
	}
	return true
}

// assignLeaf is LeafQueue.assignContainers (section 6.2).
//
// A visit that does not reach an allocation attempt changes nothing but
// the leaf's current limits and the limits it was handed, and what it
// does depends only on the leaf's state, the limit handed down, the
// cluster and the configuration, and not on the node. When the walk is
// not recorded, such a visit is remembered and the next visit with the
// same inputs (the leaf untouched, the same limit, the same cluster and
// configuration) replays its outcome instead of walking the apps again.
func (s *Scheduler) assignLeaf(q *queue, n *node, lim *limits) assignment {
	if s.full() {
		a, _ := s.visitLeaf(q, n, lim)
		return a
	}
	lf, m := q.lf, &q.lf.memo
	if m.ok && s.walk.leafUnchanged(lf, m.gen, m.cgen) && m.limit == lim.limit {
		lim.headroom, lim.unreserve = m.headroom, m.unreserve
		lf.cachedLimit = m.cached
		if m.setCurrent {
			lf.currentLimit = m.current
		}
		return m.result
	}
	gen, in := s.walk.gen, lim.limit
	a, setCurrent := s.visitLeaf(q, n, lim)
	*m = leafMemo{}
	if s.walk.gen == gen {
		*m = leafMemo{ok: true, gen: lf.gen, cgen: s.walk.cluster, limit: in,
			headroom: lim.headroom, unreserve: lim.unreserve,
			cached: lf.cachedLimit, current: lf.currentLimit, setCurrent: setCurrent,
			result: a}
	}
	return a
}

// visitLeaf is a visit of a leaf. The user limits computed in one visit
// are cached on the users (LeafQueue's userLimitCache), keyed by the
// visit's number. It returns the assignment, and whether it set the
// leaf's current limit (setQueueResourceLimitsInfo).
func (s *Scheduler) visitLeaf(q *queue, n *node, lim *limits) (assignment, bool) {
	full := s.full()
	setCurrent := false
	s.updateCurrentLimit(q, lim)
	if !s.rc.GreaterThan(s.cluster, q.pending, resource.None) {
		if full {
			used, _ := s.usedCapacity(q)
			s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, Reason: ReasonNoPending, Depth: q.depth, Value: used})
		}
		return assignment{}, setCurrent
	}
	if full {
		used, _ := s.usedCapacity(q)
		s.emit(Event{Kind: EvQueueVisit, Node: n.name, Queue: q.path, Depth: q.depth, Used: q.used, Limit: lim.limit, Value: used})
	}
	if len(q.lf.fairMarked) > 0 {
		s.fairReorder(q) // getAssignmentIterator
	}
	if full && isFair(q) {
		s.emitFairOrder(q, n)
	}
	s.visit++
	visit := s.visit
	needQueueCheck := true
	lf, start, head := q.lf, 0, !full
	if head && lf.lead > 0 {
		// The apps of the head have nothing outstanding and no
		// reservation: the loop would check the queue once, without
		// anything to unreserve, set the current limit and pass them.
		if !s.canAssignToThisQueue(q, lim, resource.None) {
			return assignment{}, setCurrent
		}
		s.userLimitComputed(q) // the first application's computeUserLimitAndSetHeadroom
		needQueueCheck = false
		lf.currentLimit, setCurrent = lf.cachedLimit, true
		start = min(lf.lead, len(lf.active))
	}
	for i := start; i < len(lf.active); i++ {
		a := lf.active[i]
		appReserved := a.reservedRes
		if head && (a.demand || !appReserved.IsZero()) {
			lf.lead, head = i, false
		}
		if needQueueCheck {
			if !s.canAssignToThisQueue(q, lim, appReserved) {
				if full {
					used, _ := s.usedCapacity(q)
					s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, App: a.id, Reason: ReasonQueueAtMax, Depth: q.depth, Used: q.used, Limit: s.rc.Min(s.cluster, q.effMax, lim.limit), Value: used})
				}
				return assignment{}, setCurrent
			}
			if !s.set.ContinueLook || appReserved.IsZero() {
				needQueueCheck = false
			}
		}
		if i == start {
			s.userLimitComputed(q) // the first application's computeUserLimitAndSetHeadroom
		}
		if !full {
			// An app with nothing outstanding is skipped after the user
			// check otherwise; the check's outcome is only cached for the
			// user's later apps, and the cache gives the check's answer.
			q.lf.currentLimit, setCurrent = q.lf.cachedLimit, true
			if !a.demand {
				continue
			}
		}
		u := a.usr
		if u.visit != visit {
			u.visit = visit
			u.visitLimit = s.userLimitOf(q, u)
			u.visitCanAssign = true
		}
		ul := u.visitLimit
		q.lf.currentLimit, setCurrent = q.lf.cachedLimit, true // setQueueResourceLimitsInfo
		assignable := true
		cached := resource.None // the cache's reservation: none while the user can assign
		if !u.visitCanAssign {
			cached = u.visitReservation
		}
		if !u.visitCanAssign && resource.FitsIn(appReserved, cached) {
			assignable = false
		} else {
			assignable = s.canAssignToUser(q, a, ul, lim)
			if !assignable && resource.FitsIn(cached, appReserved) {
				u.visitCanAssign = false
				u.visitReservation = appReserved
			}
		}
		if !assignable {
			if full {
				s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Reason: ReasonUserLimit, Used: u.used, Limit: ul, Depth: q.depth})
			}
			continue
		}
		if full {
			s.emit(Event{Kind: EvAppConsidered, Node: n.name, Queue: q.path, App: a.id, User: a.user, Used: u.used, Limit: ul, Resource: lim.headroom, Depth: q.depth})
		}
		as := s.assignApp(q, a, n, lim, nil)
		if s.rc.GreaterThan(s.cluster, as.size, resource.None) {
			return as, setCurrent
		}
		switch as.skip {
		case skipOther:
			continue
		case skipQueueLimit:
			return as, setCurrent
		default:
			if full {
				why := ReasonFIFO
				if isFair(q) {
					why = ReasonFairOrder
				}
				s.emit(Event{Kind: EvQueueSkipped, Node: n.name, Queue: q.path, App: a.id, Reason: why, Depth: q.depth})
			}
			return assignment{}, setCurrent
		}
	}
	if head {
		lf.lead = len(lf.active)
	}
	return assignment{}, setCurrent
}

// serveReservation is CapacityScheduler.allocateFromReservedContainer: the
// reserving application tries its reservation on this node; nothing else is
// scheduled on the node this heartbeat.
func (s *Scheduler) serveReservation(n *node) {
	s.invalidate(changeLeaf, n.reservation.app.queue) // its cachedLimit changes
	rsv := n.reservation
	a := rsv.app
	q := a.queue
	var lim limits
	lim.set(s.cluster)
	s.updateCurrentLimit(q, &lim)
	if s.full() {
		s.emit(Event{Kind: EvQueueVisit, Node: n.name, Queue: q.path, App: a.id, Depth: q.depth, Reason: ReasonNodeReserved, Resource: rsv.size})
	}
	s.assignApp(q, a, n, &lim, rsv)
}
