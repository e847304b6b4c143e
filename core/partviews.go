package core

import "fmt"

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

// PartitionLimitTerms returns a leaf's user-limit and AM-limit formulas
// in a labelled partition, with today's numbers (the default partition's
// are UserLimitTerms and AMLimitTerms).
func (s *Scheduler) PartitionLimitTerms(queueName, label string) (UserLimitTerms, AMLimitTerms, error) {
	q, err := s.lookupQueue(queueName)
	if err != nil {
		return UserLimitTerms{}, AMLimitTerms{}, err
	}
	if !q.isLeaf() {
		return UserLimitTerms{}, AMLimitTerms{}, errNotLeaf(q)
	}
	if label == "" {
		return s.userLimitTerms(q), s.amLimitTerms(q), nil
	}
	if s.lbl == nil || !hasLabel(s.lbl, label) {
		return UserLimitTerms{}, AMLimitTerms{}, fmt.Errorf("no node label %q in the cluster", label)
	}
	guar := s.effMinP(q, label)
	am := AMLimitTerms{Guaranteed: guar, Usable: guar, MaxAMPercent: q.conf.Label(label).MaxAMPercent,
		AMLimit: s.amLimitP(q, label), ActiveUsers: s.numActiveUsersForAM(q), UserAMLimit: s.userAMLimitP(q, label, ""),
		AMUsed: s.qUse(q, label).amUsed, MinUserLimit: q.conf.MinUserLimitPercent, UserLimitFact: q.conf.UserLimitFactor}
	return s.partitionUserLimitTerms(q, label, false), am, nil
}
