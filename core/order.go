package core

import (
	"cmp"
	"slices"
	"strings"

	"yarnplay/core/config"
)

// The parent's child order for an assignment pass
// (PriorityUtilizationQueueOrderingPolicy with the "utilization" policy,
// section 5.3): queues with a guarantee before those without, then lower
// used capacity first, ties to the larger absolute capacity, then the
// configured order (Hadoop's stable sort). The hadoop-2 profile breaks
// ties by queue path, as Hadoop 2.7's queueComparator did.
//
// Hadoop sorts a copy of the children on every visit. A stable sort by a
// strict weak order is the one permutation sorted by (key, configured
// index), so the order is kept instead: every parent holds its children
// sorted by childBefore, each child's keys cached on it; when a
// queue's usage changes (allocateResource, releaseResource) it is moved to
// its place among its siblings, and when every key may change (cluster
// resource, effective capacities, refresh) all are recomputed and sorted
// afresh, as Hadoop would.

// sortedChildren returns the parent's children in the order of a visit
// now, as indices in p.children: the parent's order itself, not a copy. A
// visit iterates it while no
// usage changes: in a walk, usage changes only by an allocation or a
// reservation (a reservation is released without one only when a node
// serves it, outside the walk), and the visit returns as soon as a child
// assigned one.
func (s *Scheduler) sortedChildren(p *queue) []int32 {
	return p.order
}

// childBefore is the strict total order of siblings, on the keys each
// queue keeps (orderKey): queues with a guarantee first (kGroup), then the
// lower used capacity (kUsed: over the guarantee, or over the cluster for
// queues without one), then kTie, the queue's rank among its siblings by
// absolute capacity, larger first, then configured order. This is
// compareChildren then the configured order, without its branches: a
// capacity is never negative and a used capacity never NaN. The hadoop-2
// profile has one group and ranks ties by path.
func childBefore(a, b *queue) bool {
	if a.kGroup != b.kGroup {
		return a.kGroup < b.kGroup
	}
	if a.kUsed < b.kUsed {
		return true
	}
	if a.kUsed > b.kUsed {
		return false
	}
	return a.kTie < b.kTie
}

// orderKey is the used capacity childBefore compares for a queue.
func (s *Scheduler) orderKey(q *queue) float32 {
	used, absUsed := s.usedCapacity(q)
	if q.kGroup != 0 {
		return absUsed
	}
	return used
}

// sortAllChildren recomputes every queue's order keys and sorts every
// parent's children, as Hadoop's sort does.
func (s *Scheduler) sortAllChildren() {
	for _, q := range s.queues {
		q.kGroup = 0
		if s.profile != config.Hadoop2 && q.conf.AbsCapacity == 0 {
			q.kGroup = 1
		}
		q.kUsed = s.orderKey(q)
	}
	var ties, sorted []*queue
	for _, p := range s.queues {
		if len(p.children) == 0 {
			p.order = p.order[:0]
			continue
		}
		ties = append(ties[:0], p.children...)
		if s.profile == config.Hadoop2 {
			slices.SortFunc(ties, func(a, b *queue) int { return strings.Compare(a.path, b.path) })
		} else {
			slices.SortStableFunc(ties, func(a, b *queue) int { return cmp.Compare(b.conf.AbsCapacity, a.conf.AbsCapacity) })
		}
		for i, c := range ties {
			c.kTie = int32(i)
		}
		ch := p.children
		if len(p.order) != len(ch) {
			p.order = p.order[:0]
			for i := range ch {
				p.order = append(p.order, int32(i))
			}
		}
		// childBefore is a strict total order, so any sort gives the
		// stable sort's permutation; pdqsort is quick on the nearly
		// sorted order of the last time. The sort is of pointers, in the
		// last order, then back to indices through opos: the browser build
		// has pdqsort for pointers already, where one for int32 would add
		// 5 KB to the gzipped app.wasm.
		sorted = sorted[:0]
		for _, ci := range p.order {
			sorted = append(sorted, ch[ci])
		}
		slices.SortFunc(sorted, func(a, b *queue) int {
			switch {
			case childBefore(a, b):
				return -1
			case childBefore(b, a):
				return 1
			}
			return 0
		})
		for i, c := range ch {
			c.opos = i
		}
		for i, c := range sorted {
			p.order[i] = int32(c.opos)
		}
		for i, ci := range p.order {
			ch[ci].opos = i
		}
	}
}

// reorder recomputes a queue's used capacities after its usage changed and
// moves it to its place among its siblings, whose keys are unchanged: back
// if it now goes before its predecessor, else forward. The root has no
// siblings; its keys are never compared, and not kept.
func (s *Scheduler) reorder(q *queue) {
	p := q.parent
	if p == nil {
		return
	}
	q.kUsed = s.orderKey(q)
	o, ch := p.order, p.children
	i := q.opos
	qi := o[i]
	if i > 0 && childBefore(q, ch[o[i-1]]) {
		for {
			o[i] = o[i-1]
			ch[o[i]].opos = i
			i--
			if i == 0 || !childBefore(q, ch[o[i-1]]) {
				break
			}
		}
	} else {
		for i+1 < len(o) && childBefore(ch[o[i+1]], q) {
			o[i] = o[i+1]
			ch[o[i]].opos = i
			i++
		}
	}
	o[i] = qi
	q.opos = i
}
