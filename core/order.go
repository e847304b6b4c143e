package core

import (
	"slices"

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
// sorted by childBefore, each child's used capacities cached; when a
// queue's usage changes (allocateResource, releaseResource) it is moved to
// its place among its siblings, and when every key may change (cluster
// resource, effective capacities, refresh) all are recomputed and sorted
// afresh, as Hadoop would.

// sortedChildren returns the parent's children in the order of a visit
// now. The slice is the parent's own scratch copy: valid until the parent
// is visited again (the visit iterates it while usage changes).
func (s *Scheduler) sortedChildren(p *queue) []*queue {
	p.walk = append(p.walk[:0], p.order...)
	return p.walk
}

// childBefore is the strict total order of siblings: compareChildren on the
// cached used capacities, then the configured order (hadoop-2: used
// capacity, then path).
func (s *Scheduler) childBefore(a, b *queue) bool {
	if s.profile == config.Hadoop2 {
		if a.kUsed != b.kUsed {
			return a.kUsed < b.kUsed
		}
		return a.path < b.path
	}
	if c := compareChildren(a.conf.AbsCapacity, a.kUsed, a.kAbsUsed, b.conf.AbsCapacity, b.kUsed, b.kAbsUsed); c != 0 {
		return c < 0
	}
	return a.pos < b.pos
}

// sortAllChildren recomputes every queue's used capacities and sorts every
// parent's children from their configured order, as Hadoop's sort does.
func (s *Scheduler) sortAllChildren() {
	for _, q := range s.queues {
		q.kUsed, q.kAbsUsed = s.usedCapacity(q)
	}
	for _, p := range s.queues {
		if len(p.children) == 0 {
			p.order = p.order[:0]
			continue
		}
		if len(p.order) != len(p.children) {
			p.order = append(p.order[:0], p.children...)
		}
		// childBefore is a strict total order, so any sort gives the
		// stable sort's permutation; pdqsort is quick on the nearly
		// sorted order of the last time.
		slices.SortFunc(p.order, func(a, b *queue) int {
			switch {
			case s.childBefore(a, b):
				return -1
			case s.childBefore(b, a):
				return 1
			}
			return 0
		})
		for i, c := range p.order {
			c.opos = i
		}
	}
}

// reorder recomputes a queue's used capacities after its usage changed and
// moves it to its place among its siblings, whose keys are unchanged.
func (s *Scheduler) reorder(q *queue) {
	q.kUsed, q.kAbsUsed = s.usedCapacity(q)
	p := q.parent
	if p == nil {
		return
	}
	o := p.order
	i := q.opos
	for i > 0 && s.childBefore(q, o[i-1]) {
		o[i] = o[i-1]
		o[i].opos = i
		i--
	}
	for i+1 < len(o) && s.childBefore(o[i+1], q) {
		o[i] = o[i+1]
		o[i].opos = i
		i++
	}
	o[i] = q
	q.opos = i
}

func compareChildren(abs1, used1, absUsed1, abs2, used2, absUsed2 float32) int {
	switch {
	case abs1 > 0 && abs2 == 0:
		return -1
	case abs2 > 0 && abs1 == 0:
		return 1
	}
	u1, u2 := used1, used2
	if abs1 == 0 && abs2 == 0 {
		u1, u2 = absUsed1, absUsed2
	}
	switch {
	case u1 < u2:
		return -1
	case u1 > u2:
		return 1
	case abs1 > abs2:
		return -1
	case abs1 < abs2:
		return 1
	}
	return 0
}
