package core

import (
	"yarnplay/core/resource"
)

type allocState uint8

const (
	stAllocated allocState = iota + 1
	stReserved
	stLocalitySkipped
	stAppSkipped
	stPrioritySkipped
	stQueueSkipped
)

// allocResult is a ContainerAllocation: what RegularContainerAllocator
// decided for one request priority on one node.
type allocResult struct {
	state     allocState
	locality  nodeType   // the container's locality
	unreserve *container // a reservation released in the same commit
	reason    Reason
}

// assignApp is FiCaSchedulerApp.assignContainers through
// RegularContainerAllocator (sections 6.2, 7, 8), followed by the commit.
func (s *Scheduler) assignApp(q *queue, a *app, n *node, lim *limits, rsv *container) assignment {
	if rsv != nil {
		r := a.findRequest(rsv.priority)
		res := s.allocate(q, a, n, lim, r, rsv)
		return s.commit(q, a, n, r, rsv, res)
	}
	if !a.demand {
		if s.full() {
			s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Reason: ReasonNoPending, Depth: q.depth})
		}
		return assignment{assignFlags: assignFlags{skip: skipOther}}
	}
	last := ReasonNone
	for _, r := range a.requests {
		if !r.placed || r.outstanding() <= 0 {
			continue
		}
		res := s.allocate(q, a, n, lim, r, nil)
		if res.state == stPrioritySkipped {
			last = res.reason
			continue
		}
		return s.commit(q, a, n, r, nil, res)
	}
	if last == ReasonNone {
		last = ReasonNoPending
	}
	if s.full() {
		s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Reason: last, Depth: q.depth})
	}
	return assignment{assignFlags: assignFlags{skip: skipOther}}
}

// allocate is RegularContainerAllocator.allocate with its pre-checks and
// tryAllocateOnNode.
func (s *Scheduler) allocate(q *queue, a *app, n *node, lim *limits, r *request, rsv *container) allocResult {
	if rsv == nil {
		if r.outstanding() <= 0 {
			return allocResult{state: stPrioritySkipped, reason: ReasonNoPending}
		}
		if s.pw.ignore && a.amRequested && !a.hasAMContainer() {
			return allocResult{state: stAppSkipped, reason: ReasonAMNotShared}
		}
		if r.label != s.pw.want() {
			return allocResult{state: stPrioritySkipped, reason: ReasonOtherPartition}
		}
		if !s.set.ContinueLook && !s.shouldAllocOrReserveNew(q, r) {
			return allocResult{state: stPrioritySkipped, reason: ReasonNoFit}
		}
		if !s.checkHeadroom(a, lim, r.size) {
			return allocResult{state: stQueueSkipped, reason: ReasonHeadroom}
		}
	} else if r == nil || !r.placed || r.outstanding() == 0 {
		return allocResult{state: stQueueSkipped, unreserve: rsv, reason: ReasonNoLongerNeeded}
	}
	s.invalidate(changeState, nil) // from here on the pass changes state (r.missed)
	if rsv == nil && r.label == "" {
		// addMissedNonPartitionedRequestSchedulingOpportunity
		r.missedNP++
		if s.pw.ignore && r.missedNP < len(s.nodes) {
			return allocResult{state: stAppSkipped, reason: ReasonDefaultFirst}
		}
	}
	r.missed++
	res := s.assignOnNode(q, a, n, lim, r, rsv)
	if rsv == nil && res.state == stPrioritySkipped {
		r.missed-- // skipped nodes don't count
	}
	if (res.state == stAllocated || res.state == stReserved) && rsv == nil && n.part == "" {
		r.missedNP = 0 // resetMissedNonPartitionedRequestSchedulingOpportunity
	}
	if (res.state == stAllocated || res.state == stReserved) && rsv == nil && res.locality != ntOffSwitch {
		if res.locality == ntNodeLocal || s.set.RackLocalityFullReset {
			r.missed = 0
		}
	}
	return res
}

// assignOnNode is assignContainersOnNode: node-local, then rack-local, then
// off-switch (section 8).
func (s *Scheduler) assignOnNode(q *queue, a *app, n *node, lim *limits, r *request, rsv *container) allocResult {
	if r.count(n.name) > 0 {
		res := s.assignContainer(q, a, n, lim, r, ntNodeLocal, rsv)
		if res.state == stAllocated || res.state == stReserved {
			return res
		}
	}
	if r.count(n.rack) > 0 {
		if la := r.ask(n.rack); la != nil && !la.relax {
			return allocResult{state: stPrioritySkipped, reason: ReasonRelaxLocality}
		}
		res := s.assignContainer(q, a, n, lim, r, ntRackLocal, rsv)
		if res.state == stAllocated || res.state == stReserved {
			return res
		}
	}
	if r.outstanding() > 0 {
		if la := r.ask(AnyLocation); la != nil && !la.relax {
			return allocResult{state: stPrioritySkipped, reason: ReasonRelaxLocality}
		}
		res := s.assignContainer(q, a, n, lim, r, ntOffSwitch, rsv)
		if res.state == stLocalitySkipped {
			res.state = stAppSkipped
		}
		return res
	}
	return allocResult{state: stPrioritySkipped, reason: ReasonNoPending}
}

// canAssign is the delay-scheduling check of RegularContainerAllocator.canAssign.
func (s *Scheduler) canAssign(r *request, n *node, typ nodeType, rsv *container) bool {
	nodes := len(s.nodes)
	switch typ {
	case ntOffSwitch:
		if rsv != nil {
			return true
		}
		if nodes == 0 {
			return false
		}
		uniq := len(r.asks)
		if uniq == 1 {
			return true
		}
		if s.set.RackLocalityAdditionalDelay > -1 {
			return r.missed > min(nodes, s.set.NodeLocalityDelay+s.set.RackLocalityAdditionalDelay)
		}
		factor := min(float32(max(uniq-1, 0))/float32(nodes), 1.0)
		wait := min(float32(nodes), float32(float32(r.outstanding())*factor))
		return wait < float32(r.missed)
	case ntRackLocal:
		return min(nodes, s.set.NodeLocalityDelay) < r.missed
	default:
		return r.count(n.name) > 0
	}
}

// assignContainer decides allocate, reserve or skip for one locality level
// (RegularContainerAllocator.assignContainer, section 7.1).
func (s *Scheduler) assignContainer(q *queue, a *app, n *node, lim *limits, r *request, typ nodeType, rsv *container) allocResult {
	if !s.canAssign(r, n, typ, rsv) {
		return allocResult{state: stLocalitySkipped, reason: ReasonLocalityDelay, locality: typ}
	}
	capability := r.size
	if !s.rc.FitsIn(capability, n.total) {
		return allocResult{state: stLocalitySkipped, reason: ReasonNeverFits, locality: typ}
	}
	shouldAlloc := s.shouldAllocOrReserveNew(q, r)
	availContainers := s.rc.ComputeAvailableContainers(n.unallocated(), capability)
	need := s.rc.Max(s.cluster, capability.Sub(lim.headroom), lim.unreserve)
	needToUnreserve := s.anyMajorAboveZero(need)
	if availContainers > 0 {
		var toUnreserve *container
		if rsv == nil && s.set.ContinueLook && (!shouldAlloc || needToUnreserve) {
			if !needToUnreserve {
				need = capability
			}
			toUnreserve = s.findToUnreserve(a, r, need)
			if toUnreserve == nil {
				return allocResult{state: stLocalitySkipped, reason: ReasonNeedUnreserve, locality: typ}
			}
		}
		return allocResult{state: stAllocated, locality: typ, unreserve: toUnreserve}
	}
	if shouldAlloc || rsv != nil {
		if s.set.ContinueLook && rsv == nil && needToUnreserve {
			return allocResult{state: stLocalitySkipped, reason: ReasonNeedUnreserve, locality: typ}
		}
		return allocResult{state: stReserved, locality: typ}
	}
	return allocResult{state: stLocalitySkipped, reason: ReasonNoFit, locality: typ}
}

func (s *Scheduler) anyMajorAboveZero(r resource.Resource) bool {
	if s.rc.Kind == resource.DefaultKind {
		return r.MemoryMB > 0
	}
	return r.MemoryMB > 0 || r.VCores > 0
}

// shouldAllocOrReserveNew is RegularContainerAllocator.shouldAllocOrReserveNewContainer.
func (s *Scheduler) shouldAllocOrReserveNew(q *queue, r *request) bool {
	required := r.outstanding()
	reserved := r.numReserved
	starvation := 0
	if reserved > 0 {
		maxAlloc := q.conf.MaxAlloc
		nodeFactor := s.rc.Ratio(r.size, maxAlloc)
		minFactor := s.rc.Ratio(maxAlloc.Sub(s.minAlloc()), maxAlloc)
		starvation = int(float32(float32(r.reReservations)/float32(reserved)) * (1 - min(nodeFactor, minFactor)))
	}
	return starvation+required-reserved > 0
}

// checkHeadroom is RegularContainerAllocator.checkHeadroom.
func (s *Scheduler) checkHeadroom(a *app, lim *limits, required resource.Resource) bool {
	could := resource.None
	if s.set.ContinueLook {
		could = a.reservedRes
	}
	return s.rc.GreaterThanOrEqual(s.cluster, lim.headroom.Add(could), required)
}

// findToUnreserve is FiCaSchedulerApp.findNodeToUnreserve: the app's first
// reservation at the same request priority that covers the amount needed.
func (s *Scheduler) findToUnreserve(a *app, r *request, need resource.Resource) *container {
	for _, c := range a.reservations {
		if c.priority == r.priority && s.rc.FitsIn(need, c.size) {
			return c
		}
	}
	return nil
}

// commit is the accept and apply of a proposal (FiCaSchedulerApp.accept and
// apply, LeafQueue.accept, AbstractCSQueue.accept).
func (s *Scheduler) commit(q *queue, a *app, n *node, r *request, rsv *container, res allocResult) assignment {
	switch res.state {
	case stAllocated:
		as := assignment{size: r.size, app: a, assignFlags: assignFlags{locality: res.locality, fulfilled: rsv != nil}}
		if why := s.acceptAllocation(q, a, n, r, rsv, res); why != "" {
			if s.full() {
				s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Resource: r.size, Reason: ReasonCommitRejected, Detail: why, Depth: q.depth, Partition: n.part})
			}
			return as
		}
		s.applyAllocation(q, a, n, r, rsv, res)
		return as
	case stReserved:
		as := assignment{size: r.size, app: a, assignFlags: assignFlags{locality: res.locality, reserved: true}}
		if rsv != nil {
			s.invalidate(changeLeaf, q)
			r.reReservations++
			s.emit(Event{Kind: EvReReserved, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Container: rsv.id, Resource: rsv.size, Used: n.unallocated(), Seq: r.reReservations, Depth: q.depth, Partition: n.part})
			return as
		}
		if why := s.acceptLeaf(q, a, r.size, resource.None); why != "" {
			if s.full() {
				s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Resource: r.size, Reason: ReasonCommitRejected, Detail: why, Depth: q.depth, Partition: n.part})
			}
			return as
		}
		s.applyReservation(q, a, n, r, res.locality)
		return as
	case stQueueSkipped:
		if res.unreserve != nil {
			s.unreserve(res.unreserve, res.reason, true)
			return assignment{app: a, assignFlags: assignFlags{skip: skipQueueLimit}}
		}
		if s.full() {
			s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Resource: r.size, Reason: res.reason, Used: q.used, Depth: q.depth, Partition: n.part})
		}
		return assignment{app: a, assignFlags: assignFlags{skip: skipQueueLimit}}
	case stAppSkipped:
		if s.full() {
			s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Resource: r.size, Reason: res.reason, Seq: r.missed, Locality: res.locality.Locality(), Depth: q.depth, Partition: n.part})
		}
		return assignment{app: a, assignFlags: assignFlags{skip: skipOther}}
	default:
		if rsv == nil {
			if s.full() {
				s.emit(Event{Kind: EvAppSkipped, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Resource: r.size, Reason: res.reason, Seq: r.missed, Locality: res.locality.Locality(), Depth: q.depth, Partition: n.part})
			}
		}
		return assignment{app: a}
	}
}

// acceptAllocation returns why a new container would be rejected at commit, or "".
func (s *Scheduler) acceptAllocation(q *queue, a *app, n *node, r *request, rsv *container, res allocResult) string {
	if !s.rc.FitsIn(r.size, n.unallocated()) {
		return "the node no longer has room"
	}
	if rsv != nil {
		return ""
	}
	if !checkAllocation(r, n, res.locality) {
		return "no " + string(res.locality.Locality()) + " request left for this node (a node-local allocation also needs a rack request)"
	}
	released := resource.None
	if res.unreserve != nil {
		released = res.unreserve.size
	}
	return s.acceptLeaf(q, a, r.size, released)
}

// acceptLeaf is LeafQueue.accept and AbstractCSQueue.accept up to root: the
// user limit again, and no queue above its effective maximum.
func (s *Scheduler) acceptLeaf(q *queue, a *app, size, released resource.Resource) string {
	if s.pw.label != "" {
		return s.acceptLeafP(q, a, size, released)
	}
	u := a.usr
	ul := s.userLimitOf(q, u)
	if s.rc.GreaterThan(s.cluster, u.used.Sub(released), ul) {
		return "user " + a.user + " would exceed its user limit " + ul.String()
	}
	net := size.Sub(released)
	for p := q; p != nil; p = p.parent {
		if !s.rc.FitsIn(p.used.Add(net), p.effMax) {
			return "queue " + p.path + " would exceed its maximum " + p.effMax.String()
		}
	}
	return ""
}

// checkAllocation is LocalityAppPlacementAllocator.canAllocate.
func checkAllocation(r *request, n *node, loc nodeType) bool {
	if r.outstanding() <= 0 {
		return false
	}
	if loc == ntRackLocal || loc == ntNodeLocal {
		if r.count(n.rack) <= 0 {
			return false
		}
		if loc == ntNodeLocal && r.count(n.name) <= 0 {
			return false
		}
	}
	return true
}
