package core

import (
	"yarnplay/core/resource"
)

// partWalk is the partition and scheduling mode of the walk under way on
// a labelled node: label the node's partition, ignore Hadoop's
// SchedulingMode.IGNORE_PARTITION_EXCLUSIVITY (the default partition's
// asks on a non-exclusive partition's node). The zero value is the
// default partition's walk (RESPECT_PARTITION_EXCLUSIVITY on a node
// without a label).
type partWalk struct {
	label  string
	ignore bool
}

// want is the partition a request must be for in this walk
// (LocalityAppPlacementAllocator.precheckNode).
func (w partWalk) want() string {
	if w.ignore {
		return ""
	}
	return w.label
}

// chargeNode charges a container or reservation on node n to its leaf,
// the leaf's ancestors and the user, in the node's partition (or returns
// it, with add false).
func (s *Scheduler) chargeNode(q *queue, a *app, n *node, r resource.Resource, add bool) {
	if n.part == "" {
		if add {
			s.allocateResource(q, a, r)
		} else {
			s.releaseResource(q, a, r)
		}
		return
	}
	s.addPartUsed(q, a, n.part, r, add)
}

// PartitionUserLimitTerms is UsersManager.computeUserLimit for a labelled
// partition: the partition's resources, the queue's guarantee in it, the
// users' usage ratios over the partition, the active users' usage in it.
// ignore is IGNORE_PARTITION_EXCLUSIVITY, where the maximum is the
// partition rather than the guarantee times the user-limit factor.
func (s *Scheduler) partitionUserLimitTerms(q *queue, label string, ignore bool) UserLimitTerms {
	var t UserLimitTerms
	rc, P, lf := s.rc, s.partRes(label), q.lf
	required := s.minAlloc()
	t.Partition, t.Required = P, required
	t.MinUserLimitPct, t.UserLimitFactor = q.conf.MinUserLimitPercent, q.conf.UserLimitFactor
	t.QueueCapacity = rc.Max(P, s.effMinP(q, label), required)
	var ratio float32
	var active resource.Resource
	for _, name := range sortedUserNames(lf) {
		u := lf.users[name]
		used := s.uUse(q, name, label).used
		if !P.IsZero() {
			ratio += rc.Ratio(used, P)
		}
		if u.activeAsks > 0 {
			active = active.Add(used)
		}
	}
	t.Consumed = rc.MultiplyAndNormalizeUp(P, float64(ratio), required)
	if rc.LessThan(P, t.Consumed, t.QueueCapacity) {
		t.CurrentCapacity = t.QueueCapacity
	} else {
		t.CurrentCapacity = t.Consumed.Add(required)
	}
	t.ActiveUsed, t.ActiveWeights = active, lf.activeWeights
	t.ByUsers = rc.DivideAndCeil(active.Add(required), lf.activeWeights)
	t.ByPercent = rc.DivideAndCeil(resource.MultiplyAndRoundDown(t.CurrentCapacity, float64(q.conf.MinUserLimitPercent)), 100)
	ul := rc.Max(P, t.ByUsers, t.ByPercent)
	if ignore {
		t.MaxUserLimit = P
	} else {
		t.MaxUserLimit = resource.MultiplyAndRoundDown(t.QueueCapacity, float64(q.conf.UserLimitFactor))
	}
	t.Limit = rc.RoundUp(rc.Min(P, ul, t.MaxUserLimit), required)
	return t
}

// userLimitP is getResourceLimitForActiveUsers in a partition: the
// queue's user limit there scaled by the user's weight. The default
// partition's is userLimitOf.
func (s *Scheduler) userLimitP(q *queue, u *user, label string, ignore bool) resource.Resource {
	if label == "" && !ignore {
		return s.userLimitOf(q, u)
	}
	t := s.partitionUserLimitTerms(q, label, ignore)
	return s.rc.MultiplyAndNormalizeDown(t.Limit, float64(u.weight), s.minAlloc())
}

// userReservedP is what a user has reserved on the partition's nodes
// (User.getReserved(partition)).
func (s *Scheduler) userReservedP(q *queue, user, label string) resource.Resource {
	var r resource.Resource
	for _, a := range q.lf.active {
		if a.user != user {
			continue
		}
		for _, c := range a.reservations {
			if c.node.part == label {
				r = r.Add(c.size)
			}
		}
	}
	return r
}

// canAssignToUserP is LeafQueue.canAssignToUser in a labelled partition.
func (s *Scheduler) canAssignToUserP(q *queue, a *app, limit resource.Resource, lim *limits, label string) bool {
	u := a.usr
	if u == nil {
		return false
	}
	cr := s.wholeCluster()
	lim.unreserve = resource.None
	used := s.uUse(q, u.name, label).used
	if s.rc.GreaterThan(cr, used, limit) {
		if s.set.ContinueLook && s.rc.LessThanOrEqual(cr, used.Sub(s.userReservedP(q, u.name, label)), limit) {
			lim.unreserve = used.Sub(limit)
			return true
		}
		return false
	}
	return true
}

// canAssignToThisQueueP is AbstractCSQueue.canAssignToThisQueue in a
// labelled partition: the limit is the queue's maximum there, within the
// limit handed down, or under IGNORE_PARTITION_EXCLUSIVITY the whole
// partition (getCurrentLimitResource). It sets the headroom of lim.
func (s *Scheduler) canAssignToThisQueueP(q *queue, lim *limits, couldUnreserve resource.Resource) (bool, resource.Resource) {
	cr := s.wholeCluster()
	label := s.pw.label
	var current resource.Resource
	if s.pw.ignore {
		current = s.partRes(label)
	} else {
		current = s.rc.Min(cr, s.effMaxP(q, label), lim.limit)
	}
	used := s.qUsed(q, label)
	lim.headroom = current.Sub(used)
	if s.rc.GreaterThanOrEqual(cr, used, current) {
		if s.set.ContinueLook && s.rc.GreaterThan(cr, couldUnreserve, resource.None) &&
			s.rc.LessThan(cr, used.Sub(couldUnreserve), current) {
			return true, current
		}
		return false, current
	}
	return true, current
}

// childLimitP is ParentQueue.getResourceLimitsOfChild in a labelled
// partition.
func (s *Scheduler) childLimitP(p, c *queue, lim *limits) resource.Resource {
	label := s.pw.label
	cl := lim.net().Sub(s.qUsed(p, label)).Add(s.qUsed(c, label))
	cl = s.rc.Min(s.wholeCluster(), cl, s.rc.RoundDown(s.effMaxP(c, label), s.minAlloc()))
	return s.rc.RoundDown(cl, s.minAlloc())
}

// acceptLeafP is LeafQueue.accept and AbstractCSQueue.accept in a
// labelled partition (or the default partition's asks on a shared one).
func (s *Scheduler) acceptLeafP(q *queue, a *app, size, released resource.Resource) string {
	label, cr := s.pw.label, s.wholeCluster()
	u := a.usr
	ul := s.userLimitP(q, u, label, s.pw.ignore)
	if s.rc.GreaterThan(cr, s.uUse(q, u.name, label).used.Sub(released), ul) {
		return "user " + a.user + " would exceed its user limit " + ul.String() + " in partition " + label
	}
	net := size.Sub(released)
	for p := q; p != nil; p = p.parent {
		max := s.effMaxP(p, label)
		if s.pw.ignore {
			max = s.partRes(label)
		}
		if !s.rc.FitsIn(s.qUsed(p, label).Add(net), max) {
			return "queue " + p.path + " would exceed its maximum " + max.String() + " in partition " + label
		}
	}
	return ""
}

// usedCapacityP is CSQueueUtils.updateUsedCapacity for a partition.
func (s *Scheduler) usedCapacityP(q *queue, label string) (used, absUsed float32) {
	if label == "" {
		return s.usedCapacity(q)
	}
	P := s.partRes(label)
	if !s.rc.GreaterThan(P, P, resource.None) {
		return 0, 0
	}
	u := s.qUsed(q, label)
	guar := s.rc.Max(P, s.effMinP(q, label), s.minAlloc())
	return s.rc.Divide(P, u, guar), s.rc.Divide(P, u, P)
}

// amLimitP is calculateAndGetAMResourceLimitPerPartition for a labelled
// partition: the queue's guarantee there times the label's
// maximum-am-resource-percent (no current limit counts).
func (s *Scheduler) amLimitP(q *queue, label string) resource.Resource {
	if label == "" {
		return s.amLimit(q)
	}
	return s.rc.MultiplyAndNormalizeUp(s.effMinP(q, label), float64(q.conf.Label(label).MaxAMPercent), s.minAlloc())
}

// userAMLimitP is getUserAMResourceLimitPerPartition for a labelled
// partition.
func (s *Scheduler) userAMLimitP(q *queue, label, userName string) resource.Resource {
	if label == "" {
		return s.userAMLimit(q, userName)
	}
	w := float32(1)
	if u := q.lf.users[userName]; u != nil {
		w = u.weight
	}
	n := s.numActiveUsersForAM(q)
	eff := max(q.conf.MinUserLimitPercent/100.0, float32(1.0)/float32(max(n, 1)))
	eff = min(eff*w, 1.0)
	by := q.conf.Label(label).MaxAMPercent * eff * q.conf.UserLimitFactor
	l := s.rc.MultiplyAndNormalizeUp(s.effMinP(q, label), float64(by), s.minAlloc())
	return s.rc.Min(s.wholeCluster(), l, s.amLimitP(q, label))
}

// amUsedP is a leaf's AM resources in a partition (queueUsage.getAMUsed),
// and a user's.
func (s *Scheduler) amUsedP(q *queue, u *user, label string) (queueAM, userAM resource.Resource) {
	if label == "" {
		return q.lf.amUsed, u.amUsed
	}
	return s.qUse(q, label).amUsed, s.uUse(q, u.name, label).amUsed
}

// addAMUsed counts an application's AM resource in its leaf's and user's
// AM usage of its AM partition (or takes it away).
func (s *Scheduler) addAMUsed(q *queue, u *user, a *app, add bool) {
	label := s.amPartition(a)
	if label == "" {
		if add {
			q.lf.amUsed = q.lf.amUsed.Add(a.amResource)
			u.amUsed = u.amUsed.Add(a.amResource)
		} else {
			q.lf.amUsed = q.lf.amUsed.Sub(a.amResource)
			u.amUsed = u.amUsed.Sub(a.amResource)
		}
		return
	}
	k, uk := partKey{q.path, label}, userKey{q.path, u.name, label}
	qu, uu := s.lbl.q[k], s.lbl.u[uk]
	if add {
		qu.amUsed, uu.amUsed = qu.amUsed.Add(a.amResource), uu.amUsed.Add(a.amResource)
	} else {
		qu.amUsed, uu.amUsed = qu.amUsed.Sub(a.amResource), uu.amUsed.Sub(a.amResource)
	}
	s.lbl.q[k], s.lbl.u[uk] = qu, uu
}
