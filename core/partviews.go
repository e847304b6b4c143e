package core

// partitionViews fills a queue view's node-label fields when the cluster
// has labels.
func (s *Scheduler) partitionViews(q *queue, v *QueueView) {
	if s.lbl == nil || len(s.lbl.res) == 0 {
		return
	}
	c := q.conf
	v.AccessibleLabels = c.Labels.Accessible
	v.DefaultLabelExpression = c.Labels.DefaultExpression
	for _, l := range s.NodeLabels() {
		lc := c.Label(l.Name)
		pv := PartitionView{Label: l.Name, Accessible: c.CanAccess(l.Name),
			Capacity: lc.Capacity, MaxCapacity: lc.MaxCapacity, AbsCapacity: lc.AbsCapacity, AbsMaxCapacity: lc.AbsMaxCapacity,
			EffectiveMin: s.effMinP(q, l.Name), EffectiveMax: s.effMaxP(q, l.Name)}
		use := s.qUse(q, l.Name)
		pv.Used, pv.Pending = use.used, use.pending
		pv.UsedCapacity, pv.AbsUsedCapacity = s.usedCapacityP(q, l.Name)
		if q.isLeaf() {
			pv.AMUsed, pv.AMLimit = use.amUsed, s.amLimitP(q, l.Name)
			pv.UserLimit = s.partitionUserLimitTerms(q, l.Name, false).Limit
		}
		v.Partitions = append(v.Partitions, pv)
	}
}
