package core

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// The parent's child order for an assignment pass
// (PriorityUtilizationQueueOrderingPolicy.PriorityQueueComparator, section
// 5.3): queues with a guarantee before those without, then lower used
// capacity first, ties to the larger absolute capacity, then the order of
// the parent's child list (Hadoop's stable sort: the configured order, or
// after a refresh the HashMap order of ParentQueue.reinitialize,
// hashorder.go). Under the "priority-utilization" policy the queues'
// priorities count too (PriorityUtilizationQueueOrderingPolicy.compare):
// of two queues of different priorities, when both are under their
// guarantee (used capacity < 1) or both at or over it, the higher
// priority goes first; when one is under and the other not, the one
// under goes first. That is a total order: the queues under their
// guarantee, then those at or over it, each by priority (higher first),
// then used capacity. The hadoop-2 profile breaks ties by queue path, as
// Hadoop 2.7's queueComparator did.
//
// Hadoop sorts a copy of the children on every visit. A stable sort by a
// strict weak order is the one permutation sorted by (key, configured
// index), so the order is kept instead: every parent holds its children
// sorted, with their keys (orderSlot); when a queue's usage changes
// (allocateResource, releaseResource) it is moved to its place among its
// siblings, and when every key may change (cluster resource, effective
// capacities, refresh) all are recomputed and sorted afresh, as Hadoop
// would.

// orderSlot is a child's place in its parent's kept order, with its keys
// packed into one number (slotKey): a parent's slots lie side by side, so
// that moving a child among its siblings reads and writes the parent's
// arrays alone, not the siblings themselves (at 10 children a move passes
// about 4 of them, on every allocation and release, at each level of the
// tree), and each comparison is one of integers.
type orderSlot struct {
	key   uint64
	child int32 // the index in the parent's children
}

// slotKey packs the keys of a child in its parent's order, highest first:
// the group (1 bit: 0 with a guarantee, 1 without), whether the used
// capacity is at or over 1 (1 bit), the rank among its siblings by
// priority, higher first (15 bits: 0 for every child of a parent whose
// policy does not respect priorities, kPrio), the used capacity compared
// (32 bits, orderKey: over the guarantee, or over the cluster for queues
// without one; a share is never negative nor NaN, and the bits of a
// float32 that is neither order as the float does), and the rank among
// its siblings by absolute capacity, larger first, then the child list's
// order (15 bits, kTie). A parent has at most MaxQueues (20000 < 2^15)
// children. The keys are a strict total order of siblings: the
// comparator then the list order, without its branches. The hadoop-2
// profile has one group and ranks ties by path.
func slotKey(group uint8, prio int32, used float32, tie int32) uint64 {
	bits, over := uint64(0), uint64(0)
	if used > 0 {
		bits = uint64(math.Float32bits(used))
	}
	if used >= 1 {
		over = 1
	}
	return uint64(group)<<63 | over<<62 | uint64(uint32(prio)&0x7fff)<<47 | bits<<15 | uint64(uint32(tie)&0x7fff)
}

// sortedChildren returns the parent's children in the order of a visit
// now, as slots naming indices in p.children: the parent's order itself,
// not a copy. A visit iterates it while no usage changes: in a walk, usage
// changes only by an allocation or a reservation (a reservation is released
// without one only when a node serves it, outside the walk), and the visit
// returns as soon as a child assigned one.
func (s *Scheduler) sortedChildren(p *queue) []orderSlot {
	return p.order
}

// orderKey is the used capacity the order compares for a queue: its usage
// over kDiv, 0 while the cluster is empty (keyed false). Only the share
// compared is computed.
func (s *Scheduler) orderKey(q *queue) float32 {
	if !s.keyed {
		return 0
	}
	return s.rc.Divide(s.cluster, q.used, q.kDiv)
}

// orderDivisor is what a queue's used capacity is over in its parent's
// order: the cluster for a queue without a guarantee, else its guarantee
// (at least the minimum allocation). It changes only with the cluster,
// the effective capacities and the configuration, when sortAllChildren
// keeps it as kDiv.
func (s *Scheduler) orderDivisor(q *queue) resource.Resource {
	if q.kGroup != 0 {
		return s.cluster
	}
	return s.rc.Max(s.cluster, q.effMin, s.minAlloc())
}

// slotOf returns a queue's slot in its parent's order, as it is now.
func (s *Scheduler) slotOf(q *queue) orderSlot {
	return orderSlot{key: slotKey(q.kGroup, q.kPrio, s.orderKey(q), q.kTie), child: q.cidx}
}

// sortAllChildren recomputes every queue's order keys and sorts every
// parent's children, as Hadoop's sort does.
func (s *Scheduler) sortAllChildren() {
	s.keyed = s.rc.GreaterThan(s.cluster, s.cluster, resource.None)
	for _, q := range s.queues {
		q.kGroup = 0
		if s.profile != config.Hadoop2 && q.conf.AbsCapacity == 0 {
			q.kGroup = 1
		}
		q.kDiv = s.orderDivisor(q)
	}
	var ties, sorted []*queue
	var keys []uint64 // a parent's children's keys, by index in children
	for _, p := range s.queues {
		if len(p.children) == 0 {
			p.order, p.opos = p.order[:0], p.opos[:0]
			continue
		}
		ch := p.children
		ties = append(ties[:0], ch...)
		if s.profile == config.Hadoop2 {
			slices.SortFunc(ties, func(a, b *queue) int { return strings.Compare(a.path, b.path) })
		} else {
			// The child list's order (hpos), then by absolute capacity.
			slices.SortFunc(ties, func(a, b *queue) int { return cmp.Compare(a.hpos, b.hpos) })
			slices.SortStableFunc(ties, func(a, b *queue) int { return cmp.Compare(b.conf.AbsCapacity, a.conf.AbsCapacity) })
		}
		for i, c := range ties {
			c.kTie = int32(i)
		}
		s.rankPriorities(p, ties)
		keys = keys[:0]
		for _, c := range ch {
			keys = append(keys, s.slotOf(c).key)
		}
		if len(p.order) != len(ch) {
			p.order = p.order[:0]
			for i := range ch {
				p.order = append(p.order, orderSlot{child: int32(i)})
			}
		}
		// The keys are a strict total order, so any sort gives the
		// stable sort's permutation; pdqsort is quick on the nearly
		// sorted order of the last time. The sort is of pointers, in the
		// last order: the browser build has pdqsort for pointers already,
		// where one for the slots would add 5 KB to the gzipped app.wasm.
		sorted = sorted[:0]
		for _, o := range p.order {
			sorted = append(sorted, ch[o.child])
		}
		slices.SortFunc(sorted, func(a, b *queue) int { return cmp.Compare(keys[a.cidx], keys[b.cidx]) })
		p.opos = slices.Grow(p.opos[:0], len(ch))[:len(ch)]
		for i, c := range sorted {
			p.order[i] = orderSlot{key: keys[c.cidx], child: c.cidx}
			p.opos[c.cidx] = int32(i)
		}
	}
}

// addUsed adds r to the usage of q and of every queue above it (takes it
// away, with add false), and moves each to its new place among its
// siblings, whose keys are unchanged: back if it now goes before its
// predecessor, else forward. The root has no siblings; its keys are never
// compared, and not kept. It is one call for the whole path, with slotOf
// and the default calculator's Divide written out (both are over the
// inliner's budget): in WebAssembly, a call costs about as much as a
// level's move.
func (s *Scheduler) addUsed(q *queue, r resource.Resource, add bool) {
	for ; q != nil; q = q.parent {
		if add {
			q.used = q.used.Add(r)
		} else {
			q.used = q.used.Sub(r)
		}
		p := q.parent
		if p == nil {
			return
		}
		o, pos := p.order, p.opos
		i := pos[q.cidx]
		var share float32 // orderKey(q)
		switch {
		case !s.keyed:
		case s.rc.Kind == resource.DefaultKind && q.kDiv.MemoryMB != 0:
			share = float32(q.used.MemoryMB) / float32(q.kDiv.MemoryMB)
		default:
			share = s.rc.Divide(s.cluster, q.used, q.kDiv)
		}
		k := orderSlot{key: slotKey(q.kGroup, q.kPrio, share, q.kTie), child: q.cidx}
		if i > 0 && k.key < o[i-1].key {
			for {
				o[i] = o[i-1]
				pos[o[i].child] = i
				i--
				if i == 0 || k.key >= o[i-1].key {
					break
				}
			}
		} else {
			for int(i)+1 < len(o) && o[i+1].key < k.key {
				o[i] = o[i+1]
				pos[o[i].child] = i
				i++
			}
		}
		o[i] = k
		pos[q.cidx] = i
	}
}

// rankPriorities sets each child's kPrio: its rank among its siblings by
// queue priority, higher first, when the parent's ordering policy is
// priority-utilization (PriorityUtilizationQueueOrderingPolicy with
// respectPriority); 0 for all otherwise, as the policy then compares
// priorities 0 and 0. scratch is reused.
func (s *Scheduler) rankPriorities(p *queue, scratch []*queue) {
	if p.conf.OrderingPolicy != config.PolicyPriorityUtilization || s.profile == config.Hadoop2 {
		for _, c := range p.children {
			c.kPrio = 0
		}
		return
	}
	slices.SortStableFunc(scratch, func(a, b *queue) int { return cmp.Compare(b.conf.Priority, a.conf.Priority) })
	rank := int32(0)
	for i, c := range scratch {
		if i > 0 && c.conf.Priority != scratch[i-1].conf.Priority {
			rank++
		}
		c.kPrio = rank
	}
}
