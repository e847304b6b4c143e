package core

import (
	"fmt"
	"math"

	"yarnplay/core/resource"
)

// allocateResource charges a container or reservation to its leaf, the
// leaf's ancestors and the app's user (LeafQueue/ParentQueue.allocateResource).
// A live app's usr is its leaf's user of its name (CheckInvariants), so no
// lookup by name is needed.
func (s *Scheduler) allocateResource(q *queue, a *app, r resource.Resource) {
	s.invalidate(changeLeaf, q)
	s.addUsed(q, r, true)
	s.updateUserUsage(q, a.usr, r, true)
}

// releaseResource is the opposite of allocateResource.
func (s *Scheduler) releaseResource(q *queue, a *app, r resource.Resource) {
	s.invalidate(changeLeaf, q)
	s.addUsed(q, r, false)
	s.updateUserUsage(q, a.usr, r, false)
}

func (s *Scheduler) addReserved(q *queue, a *app, r resource.Resource, add bool) {
	s.invalidate(changeLeaf, q)
	u := a.usr
	for p := q; p != nil; p = p.parent {
		if add {
			p.reserved = p.reserved.Add(r)
		} else {
			p.reserved = p.reserved.Sub(r)
		}
	}
	if add {
		u.reserved = u.reserved.Add(r)
	} else {
		u.reserved = u.reserved.Sub(r)
	}
}

// applyAllocation applies an accepted new container.
func (s *Scheduler) applyAllocation(q *queue, a *app, n *node, r *request, rsv *container, res allocResult) {
	size := r.size
	if rsv != nil {
		// The reservation becomes the container: queue and user usage already count it.
		s.unreserve(rsv, ReasonNone, false)
		if rsv.size != size {
			s.chargeNode(q, a, rsv.node, rsv.size, false)
			s.chargeNode(q, a, n, size, true)
		}
	}
	c := &container{id: s.nextID, app: a, node: n, size: size, priority: r.priority, locality: res.locality, start: s.now}
	if rsv == nil {
		s.fairMark(a) // LeafQueue.apply: orderingPolicy.containerAllocated
	}
	s.nextID++
	if r.duration > 0 {
		c.end = s.now + r.duration
		if n.nextEnd == 0 || c.end < n.nextEnd {
			n.nextEnd, n.nextC = c.end, c
		}
	}
	if r.isAM && a.amRequested && !a.hasAMContainer() {
		c.isAM = true
	}
	s.count.Allocations++
	a.addLive(c)
	a.consumption = a.consumption.Add(size)
	n.containers = append(n.containers, c)
	n.ends = append(n.ends, c.end)
	n.allocated = n.allocated.Add(size)
	s.decrementAsks(a, r, n, res.locality)
	if res.unreserve != nil {
		s.unreserve(res.unreserve, ReasonContinueLooking, true)
	}
	if rsv == nil {
		s.chargeNode(q, a, n, size, true)
	}
	kind := EvAllocated
	if rsv != nil {
		kind = EvReservationFulfil
	}
	if s.rec != RecordNone {
		u := a.usr
		e := Event{Kind: kind, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Container: c.id, Resource: size, Locality: res.locality.Locality(), Used: s.uUsed(q, u, n.part), Depth: q.depth, Partition: n.part}
		if s.pw.ignore {
			e.Detail = DetailShared
		}
		s.emit(e)
	}
	if c.isAM && a.state == AppAccepted {
		s.setAppState(a, AppRunning)
	}
}

func (a *app) hasAMContainer() bool {
	for _, c := range a.live {
		if c != nil && c.isAM {
			return true
		}
	}
	return false
}

// applyReservation applies an accepted new reservation (section 7.2).
func (s *Scheduler) applyReservation(q *queue, a *app, n *node, r *request, loc nodeType) {
	s.invalidate(changeLeafHead, q) // a reservation in its head
	c := &container{id: s.nextID, app: a, node: n, size: r.size, priority: r.priority, locality: loc, start: s.now, reserved: true}
	s.fairMark(a) // LeafQueue.apply: orderingPolicy.containerAllocated
	s.nextID++
	s.count.Reservations++
	n.reservation = c
	a.reservations = append(a.reservations, c)
	a.reservedRes = a.reservedRes.Add(c.size)
	r.numReserved++
	r.reReservations = 0
	s.chargeNode(q, a, n, c.size, true)
	if n.part == "" {
		s.addReserved(q, a, c.size, true) // QueueMetrics: the default partition's only
	}
	if s.rec != RecordNone {
		s.emit(Event{Kind: EvReserved, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: r.priority, Container: c.id, Resource: c.size, Locality: loc.Locality(), Used: n.unallocated(), Limit: c.size.Sub(n.unallocated()), Depth: q.depth, Partition: n.part})
	}
}

// unreserve releases a reservation (FiCaSchedulerApp.unreserve). When
// releaseUsage is set the queue and user usage it held is returned too;
// a fulfilled reservation keeps it, as the container takes its place.
func (s *Scheduler) unreserve(c *container, why Reason, releaseUsage bool) {
	s.invalidate(changeLeaf, c.app.queue)
	a, n, q := c.app, c.node, c.app.queue
	if n.reservation == c {
		n.reservation = nil
	}
	for i, x := range a.reservations {
		if x == c {
			a.reservations = append(a.reservations[:i], a.reservations[i+1:]...)
			break
		}
	}
	a.reservedRes = a.reservedRes.Sub(c.size)
	if r := a.findRequest(c.priority); r != nil {
		r.numReserved--
		r.reReservations = 0
	}
	if n.part == "" {
		s.addReserved(q, a, c.size, false)
	}
	if releaseUsage {
		s.chargeNode(q, a, n, c.size, false)
		s.fairMark(a) // completedContainer: orderingPolicy.containerReleased
	}
	if why != ReasonNone {
		s.emit(Event{Kind: EvUnreserved, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: c.priority, Container: c.id, Resource: c.size, Reason: why, Depth: q.depth})
	}
}

// decrementAsks is AppSchedulingInfo.allocate: the asks an allocation
// satisfies at its locality.
func (s *Scheduler) decrementAsks(a *app, r *request, n *node, loc nodeType) {
	s.invalidate(changeLeaf, a.queue)
	dec := func(name string) {
		if la := r.ask(name); la != nil {
			la.count--
			if la.count <= 0 {
				r.remove(name)
			}
		}
	}
	switch loc {
	case ntNodeLocal:
		dec(n.name)
		dec(n.rack)
	case ntRackLocal:
		dec(n.rack)
	}
	left := false // the request still wants containers
	if la := r.ask(AnyLocation); la != nil {
		la.count--
		left = la.count > 0
		if !left {
			r.remove(AnyLocation)
			if len(r.asks) == 0 {
				r.placed = false
			}
			if !a.hasOutstanding() {
				s.deactivateUserApp(a)
			}
		}
	}
	if !left || !a.demand {
		// Otherwise the app had demand and still has: nothing to refresh.
		s.refreshDemand(a)
	}
	s.addPendingFor(a.queue, r.label, r.size, false)
}

// completeContainer completes a live container: its resources return to the
// node, the app, the user and the queues (LeafQueue.completedContainer).
func (s *Scheduler) completeContainer(c *container, why Reason) {
	n := c.node
	for i, x := range n.containers {
		if x == c {
			n.containers = append(n.containers[:i], n.containers[i+1:]...)
			n.ends = append(n.ends[:i], n.ends[i+1:]...)
			break
		}
	}
	s.releaseContainer(c, n, why)
}

// releaseContainer is completeContainer after the container has left the
// list of its node, n.
func (s *Scheduler) releaseContainer(c *container, n *node, why Reason) {
	a := c.app
	q := a.queue
	s.invalidate(changeLeaf, q)
	a.removeLive(c)
	s.count.Completed++
	a.consumption = a.consumption.Sub(c.size)
	n.allocated = n.allocated.Sub(c.size)
	s.fairMark(a) // completedContainer: orderingPolicy.containerReleased
	s.chargeNode(q, a, n, c.size, false)
	if s.rec != RecordNone {
		s.emit(Event{Kind: EvContainerFinished, Node: n.name, Queue: q.path, App: a.id, User: a.user, Priority: c.priority, Container: c.id, Resource: c.size, Reason: why, Depth: q.depth, Partition: n.part})
	}
}

// completeDueContainers completes the node's containers whose duration has
// run out, in the order of the node's list. n.nextEnd is at most the
// earliest end among them, so the scan is skipped while it lies ahead. A
// scan reads the ends beside the list (n.ends) and recomputes n.nextEnd;
// if some are due, the due containers are taken out of the list, the
// others keeping their order, and completed.
//
// The scan's two loops make no call: in WebAssembly, a loop with a call in
// it (an append, a pointer stored with its write barrier) keeps its
// variables in memory, not in locals, on every turn. The kept containers
// move down by runs, one copy each.
func (s *Scheduler) completeDueContainers(n *node) {
	now := s.now
	if n.nextEnd == 0 || n.nextEnd > now {
		return
	}
	ends := n.ends
	// The earliest end still ahead and the first container that ends then
	// (the hint warm reads).
	next, at := int64(math.MaxInt64), -1
	for i, e := range ends {
		if e > now && e < next {
			next, at = e, i
		}
	}
	n.nextEnd, n.nextC = 0, nil
	if at >= 0 {
		n.nextEnd, n.nextC = next, n.containers[at]
	}
	first := -1
	for i, e := range ends {
		if isDue(e, now) {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	cs := n.containers
	due := s.due[:0]
	kept := first
	for i := first; i < len(ends); {
		if isDue(ends[i], now) {
			due = append(due, cs[i])
			i++
			continue
		}
		j := i + 1
		for j < len(ends) && !isDue(ends[j], now) {
			j++
		}
		copy(cs[kept:], cs[i:j])
		copy(ends[kept:], ends[i:j])
		kept += j - i
		i = j
	}
	clear(cs[kept:])
	n.containers, n.ends = cs[:kept], ends[:kept]
	for _, c := range due {
		s.releaseContainer(c, n, ReasonCompleted)
	}
	clear(due)
	s.due = due[:0]
}

// isDue reports whether a container ending at tick end (0: it does not end
// by itself) is due at tick now: 0 < end <= now, in one comparison.
func isDue(end, now int64) bool { return uint64(end-1) < uint64(now) }

// FinishContainers completes the application's count most recently allocated
// non-AM running containers (only those on node, when given). They complete
// now; nothing is scheduled until the next heartbeat.
func (s *Scheduler) FinishContainers(appID string, count int, nodeName string) error {
	s.invalidate(changeState, nil)
	a, err := s.liveApp(appID)
	if err != nil {
		return fmt.Errorf("finish_container: %w", err)
	}
	if count <= 0 {
		return fmt.Errorf("finish_container: count must be at least 1, not %d", count)
	}
	var pick []*container
	for i := len(a.live) - 1; i >= 0 && len(pick) < count; i-- {
		c := a.live[i]
		if c == nil || c.isAM || nodeName != "" && c.node.name != nodeName {
			continue
		}
		pick = append(pick, c)
	}
	if len(pick) < count {
		where := ""
		if nodeName != "" {
			where = " on " + nodeName
		}
		return fmt.Errorf("finish_container: %s has %d running non-AM containers%s, fewer than %d", a.id, len(pick), where, count)
	}
	for _, c := range pick {
		s.completeContainer(c, ReasonReleased)
	}
	return nil
}

// RemoveNode removes a node: its containers are lost, its reservation
// released, and limits recomputed.
func (s *Scheduler) RemoveNode(name string) error {
	s.invalidate(changeState, nil)
	n, err := s.nodeByName(name)
	if err != nil {
		return fmt.Errorf("remove_node: %w", err)
	}
	if n.reservation != nil {
		s.unreserve(n.reservation, ReasonNodeRemoved, true)
	}
	// Attempts whose AM ran here fail once the node is gone: in Hadoop the
	// attempt's removal is a later event than the node's.
	var lost []*app
	for len(n.containers) > 0 {
		c := n.containers[len(n.containers)-1]
		s.completeContainer(c, ReasonNodeRemoved)
		if c.isAM && c.app.state == AppRunning {
			lost = append(lost, c.app)
		}
	}
	idx := -1
	for i, x := range s.nodes {
		if x == n {
			idx = i
		}
	}
	s.nodes = append(s.nodes[:idx], s.nodes[idx+1:]...)
	for i, x := range s.nodes {
		x.id = i
	}
	delete(s.nodeIdx, n.name)
	s.addNodeResource(n, false)
	s.emit(Event{Kind: EvNodeRemoved, Node: n.name, Resource: n.total, Partition: n.part})
	s.updateClusterResource()
	for _, a := range lost {
		s.failAttempt(a, ReasonNodeRemoved)
	}
	return nil
}

// Tick runs one round in which every node heartbeats once, in registration
// order, then advances simulated time by one tick and runs the preemption
// monitor when its interval has passed.
func (s *Scheduler) Tick() {
	t := s.BeginTick()
	t.Step(t.Remaining())
}
