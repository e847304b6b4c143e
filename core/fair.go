package core

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"yarnplay/core/config"
)

// A leaf with ordering-policy=fair keeps its active applications in
// FairOrderingPolicy's order (Hadoop 3.3): by magnitude, the memory the
// application used when it was last reordered, over
// log2(1 + its demand in MB) when fair.enable-size-based-weight is on;
// then by start time, then those with demand before those without, then
// by application id (FifoComparator). The application priority does not
// count, unlike fifo's. The values compared are cached
// (ResourceUsage.getCachedUsed/getCachedDemand): an application's are
// refreshed only when it is reordered, which happens at the next
// assignment iterator (a leaf visit) for the applications marked since:
// on a new container or reservation (containerAllocated, not when a
// reservation is fulfilled), on a completed container or released
// reservation (containerReleased), and, with size-based weight, when its
// asks change and it is not waiting for its AM container (demandUpdated).
// A newly activated application joins with cached values of 0. The
// pending applications keep FifoOrderingPolicyForPendingApps's order
// (priority, then submission), whatever the leaf's policy.

// fairKey is an application's cached usage in FairOrderingPolicy, kept
// beside the leaf's active list (leafState.fairKeys, same index).
type fairKey struct {
	used, pending int64 // memory, MB: getCachedUsed and getCachedPending
}

// isFair reports whether a leaf orders its applications fairly.
func isFair(q *queue) bool { return q.conf.OrderingPolicy == config.PolicyFair }

// fairMagnitude is FairOrderingPolicy.getMagnitude.
func fairMagnitude(k fairKey, sizeBased bool) float64 {
	mag := float64(k.used)
	if sizeBased {
		weight := math.Log1p(float64(k.used+k.pending)) / math.Log(2) // getCachedDemand: used + pending
		mag = mag / weight
	}
	return mag
}

// fairCompare is FairOrderingPolicy's CompoundComparator: FairComparator
// ((int) Math.signum of the magnitudes' difference, 0 for NaN; start
// time; compareDemand), then FifoComparator (application id).
func fairCompare(a *app, ka fairKey, b *app, kb fairKey, sizeBased bool) int {
	d := fairMagnitude(ka, sizeBased) - fairMagnitude(kb, sizeBased)
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	if c := cmp.Compare(a.start, b.start); c != 0 {
		return c
	}
	da, db := ka.used+ka.pending, kb.used+kb.pending
	switch {
	case da == 0 && db > 0:
		return 1
	case db == 0 && da > 0:
		return -1
	}
	return cmp.Compare(a.seq, b.seq)
}

// fairInsert adds an activated application to a fair leaf's active list at
// its place (the skip list's add), with the cached values k.
func (s *Scheduler) fairInsert(q *queue, a *app, k fairKey) {
	lf, sb := q.lf, q.conf.FairSizeBasedWeight
	i := 0
	for i < len(lf.active) && fairCompare(lf.active[i], lf.fairKeys[i], a, k, sb) < 0 {
		i++
	}
	lf.active = append(lf.active, nil)
	copy(lf.active[i+1:], lf.active[i:])
	lf.active[i] = a
	lf.fairKeys = append(lf.fairKeys, fairKey{})
	copy(lf.fairKeys[i+1:], lf.fairKeys[i:])
	lf.fairKeys[i] = k
}

// fairRemove takes an application out of a fair leaf's active list and its
// marks (removeSchedulableEntity), returning its cached values.
func (s *Scheduler) fairRemove(q *queue, a *app) fairKey {
	lf := q.lf
	lf.fairMarked = removeApp(lf.fairMarked, a)
	for i, x := range lf.active {
		if x == a {
			k := lf.fairKeys[i]
			lf.active = append(lf.active[:i], lf.active[i+1:]...)
			lf.fairKeys = append(lf.fairKeys[:i], lf.fairKeys[i+1:]...)
			return k
		}
	}
	return fairKey{}
}

// fairMark is entityRequiresReordering: a's place is recomputed at the
// leaf's next visit. Only an activated application of a fair leaf is
// marked.
func (s *Scheduler) fairMark(a *app) {
	q := a.queue
	if q.lf == nil || !a.activated || !isFair(q) {
		return
	}
	for _, x := range q.lf.fairMarked {
		if x == a {
			return
		}
	}
	s.invalidate(changeLeaf, q)
	q.lf.fairMarked = append(q.lf.fairMarked, a)
}

// fairDemandUpdated is FairOrderingPolicy.demandUpdated, called when an
// allocate call changed an application's asks and the application is not
// waiting for its AM container (CapacityScheduler.allocate).
func (s *Scheduler) fairDemandUpdated(a *app) {
	if a.queue.lf != nil && a.queue.conf.FairSizeBasedWeight && !(a.amRequested && a.state == AppAccepted) {
		s.fairMark(a)
	}
}

// fairReorder is AbstractComparatorOrderingPolicy.reorderScheduleEntities,
// at the start of a visit (getAssignmentIterator): each marked application
// is taken out, its cached used and pending memory refreshed
// (updateSchedulingResourceUsage), and put back at its place.
func (s *Scheduler) fairReorder(q *queue) {
	lf := q.lf
	if len(lf.fairMarked) == 0 {
		return
	}
	s.invalidate(changeLeaf, q)
	marked := lf.fairMarked
	lf.fairMarked = nil
	for _, a := range marked {
		s.fairRemove(q, a)
		s.fairInsert(q, a, fairKey{used: a.consumption.MemoryMB, pending: pendingMemory(a)})
	}
	s.invalidate(changeLeafHead, q)
}

// pendingMemory is the application's pending memory
// (attemptResourceUsage's pending: the outstanding "*" asks).
func pendingMemory(a *app) int64 {
	var m int64
	for _, r := range a.requests {
		if r.placed && r.outstanding() > 0 {
			m += r.size.MemoryMB * int64(r.outstanding())
		}
	}
	return m
}

// resetAppOrder is LeafQueue.setOrderingPolicy at a refresh: the leaf's
// policy object is made anew and given every active application
// (addAllSchedulableEntities), with nothing marked. A fair leaf keeps the
// cached values its applications had (0 for those of a fifo leaf, whose
// policy never caches), and sorts by them; a fifo leaf sorts by priority
// and submission.
func (s *Scheduler) resetAppOrder(q *queue) {
	lf := q.lf
	s.invalidate(changeLeafHead, q)
	lf.fairMarked = nil
	if !isFair(q) {
		lf.fairKeys = nil
		slices.SortFunc(lf.active, func(a, b *app) int {
			if appLess(a, b) {
				return -1
			}
			return 1
		})
		return
	}
	keys := map[*app]fairKey{}
	if len(lf.fairKeys) == len(lf.active) {
		for i, a := range lf.active {
			keys[a] = lf.fairKeys[i]
		}
	}
	apps := lf.active
	lf.active, lf.fairKeys = nil, nil
	for _, a := range apps {
		s.fairInsert(q, a, keys[a])
	}
}

// emitFairOrder records a fair leaf's order at a visit: each application
// with the used memory it is compared by (cached at its last reorder).
func (s *Scheduler) emitFairOrder(q *queue, n *node) {
	var b strings.Builder
	for i, a := range q.lf.active {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%d", a.id, q.lf.fairKeys[i].used)
	}
	s.emit(Event{Kind: EvFairOrder, Node: n.name, Queue: q.path, Depth: q.depth, Detail: b.String()})
}

// fairResort puts a fair leaf's active applications back in order with
// their cached values, after their start order or ids changed
// (Resequence).
func (s *Scheduler) fairResort(q *queue) {
	lf := q.lf
	apps, keys := lf.active, lf.fairKeys
	lf.active, lf.fairKeys = nil, nil
	for i, a := range apps {
		s.fairInsert(q, a, keys[i])
	}
}
