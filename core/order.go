package core

import (
	"sort"

	"yarnplay/core/config"
)

// sortedChildren is the parent's child order for one assignment pass
// (PriorityUtilizationQueueOrderingPolicy with the "utilization" policy,
// section 5.3): queues with a guarantee before those without, then lower
// used capacity first, ties to the larger absolute capacity, then the
// configured order (a stable sort). The hadoop-2 profile breaks ties by
// queue path, as Hadoop 2.7's queueComparator did.
func (s *Scheduler) sortedChildren(p *queue) []*queue {
	type keyed struct {
		q       *queue
		abs     float32
		used    float32
		absUsed float32
	}
	ks := make([]keyed, len(p.children))
	for i, c := range p.children {
		u, au := s.usedCapacity(c)
		ks[i] = keyed{c, c.conf.AbsCapacity, u, au}
	}
	if s.profile == config.Hadoop2 {
		sort.SliceStable(ks, func(i, j int) bool {
			if ks[i].used != ks[j].used {
				return ks[i].used < ks[j].used
			}
			return ks[i].q.path < ks[j].q.path
		})
	} else {
		sort.SliceStable(ks, func(i, j int) bool {
			return compareChildren(ks[i].abs, ks[i].used, ks[i].absUsed, ks[j].abs, ks[j].used, ks[j].absUsed) < 0
		})
	}
	out := make([]*queue, len(ks))
	for i, k := range ks {
		out[i] = k.q
	}
	return out
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
