package core

import (
	"math"

	"yarnplay/core/resource"
)

// getUser returns a leaf's user, creating it (UsersManager.getUserAndAddIfAbsent).
func (s *Scheduler) getUser(q *queue, name string) *user {
	s.invalidate(changeLeaf, q)
	u := q.lf.users[name]
	if u == nil {
		w := float32(1)
		if cw, ok := q.conf.UserWeights[name]; ok {
			w = cw
		}
		u = one(&s.blk.users, userBlock)
		*u = user{name: name, weight: w}
		q.lf.users[name] = u
	}
	return u
}

// updateUserUsage adds (or removes) resources to a user's usage and updates
// the usage ratios incrementally, with Java float arithmetic
// (UsersManager.updateUserResourceUsage).
func (s *Scheduler) updateUserUsage(q *queue, u *user, r resource.Resource, allocate bool) {
	s.invalidate(changeLeaf, q)
	if allocate {
		u.used = u.used.Add(r)
	} else {
		u.used = u.used.Sub(r)
	}
	if u.activeAsks > 0 {
		if allocate {
			q.lf.activeUsed = q.lf.activeUsed.Add(r)
		} else {
			q.lf.activeUsed = q.lf.activeUsed.Sub(r)
		}
	}
	q.lf.usersVer++ // userLimitNeedsRecompute
	newRatio := s.rc.Ratio(u.used, s.cluster)
	delta := newRatio - u.usageRatio
	u.usageRatio = newRatio
	q.lf.usageRatio += delta
	if s.set.UserMetrics {
		// allocateResource and releaseResource compute the user's headroom
		// when user metrics are on (getUserMetrics is null otherwise).
		s.userLimitComputed(q)
	}
}

// userLimitComputed is what UsersManager.getComputedResourceLimitForActiveUsers
// does besides the limit itself (which the memo of queueUserLimit gives):
// when the users' state changed since the last computation
// (isRecomputeNeeded), reComputeUserLimits refreshes the cached count of
// users with only pending applications
// (computeNumActiveUsersWithOnlyPendingApps) and the local version is
// brought up to date. It is called where Hadoop computes the limit in a
// step that changes state: the first application a leaf visit reaches
// (computeUserLimitAndSetHeadroom), updateClusterResource with active
// applications, and each container with user metrics on; the views, which
// Hadoop answers from what was stored, never call it. A count that changes
// is a change of state (the AM limits read it).
func (s *Scheduler) userLimitComputed(q *queue) {
	lf := q.lf
	if lf.seenOK && lf.seenVer == lf.usersVer {
		return
	}
	lf.seenOK, lf.seenVer = true, lf.usersVer
	if n := lf.livePendingOnly; n != lf.pendingOnly {
		lf.pendingOnly = n // a copy of the count kept as it changes
		s.invalidate(changeLeaf, q)
	}
}

// recalculateUsageRatio recomputes every user's usage ratio from scratch
// (UsersManager.updateUsageRatio), in user-name order.
func (s *Scheduler) recalculateUsageRatio(q *queue) {
	s.invalidate(changeLeaf, q)
	var consumed float32
	for _, name := range sortedUserNames(q.lf) {
		u := q.lf.users[name]
		u.usageRatio = s.rc.Ratio(u.used, s.cluster)
		consumed += u.usageRatio
	}
	q.lf.usageRatio = consumed
}

// activateUserApp marks an application as having outstanding requests
// (UsersManager.activateApplication). A user with no activated application
// is not made active: Hadoop returns early in that case.
func (s *Scheduler) activateUserApp(a *app) {
	s.invalidate(changeLeaf, a.queue)
	if a.askActive {
		return
	}
	q, u := a.queue, a.usr
	if u.activatedApps <= 0 {
		return
	}
	a.askActive = true
	u.activeAsks++
	if u.activeAsks == 1 {
		q.lf.activeUsers++
		q.lf.activeWeights += u.weight
		q.lf.activeUsed = q.lf.activeUsed.Add(u.used)
		q.lf.usersVer++ // userLimitNeedsRecompute
	}
}

// deactivateUserApp is UsersManager.deactivateApplication.
func (s *Scheduler) deactivateUserApp(a *app) {
	s.invalidate(changeLeaf, a.queue)
	if !a.askActive {
		return
	}
	q, u := a.queue, a.usr
	a.askActive = false
	u.activeAsks--
	if u.activeAsks == 0 {
		q.lf.activeUsers--
		q.lf.activeWeights -= u.weight
		q.lf.activeUsed = q.lf.activeUsed.Sub(u.used)
		q.lf.usersVer++ // userLimitNeedsRecompute
	}
}

// UserLimitTerms are the numbers of one user-limit computation
// (UsersManager.computeUserLimit), for the formula panel and the record.
type UserLimitTerms struct {
	Partition       resource.Resource // cluster resource
	QueueCapacity   resource.Resource // max(guaranteed, minimum allocation)
	Consumed        resource.Resource // from the users' usage ratios
	CurrentCapacity resource.Resource // queueCapacity, or consumed + required when above it
	ActiveUsed      resource.Resource // used by active users
	Required        resource.Resource // the minimum allocation
	ActiveWeights   float32           // active users, by weight
	ByUsers         resource.Resource // ceil((activeUsed + required) / activeWeights)
	ByPercent       resource.Resource // ceil(currentCapacity x minimum-user-limit-percent / 100)
	MaxUserLimit    resource.Resource // queueCapacity x user-limit-factor
	Limit           resource.Resource // roundUp(min(max(ByUsers, ByPercent), MaxUserLimit))
	MinUserLimitPct float32
	UserLimitFactor float32
}

// userLimitTerms computes the active-users user limit of a leaf (section 6.3).
func (s *Scheduler) userLimitTerms(q *queue) UserLimitTerms {
	var t UserLimitTerms
	s.computeUserLimit(q, &t)
	return t
}

// computeUserLimit is userLimitTerms, writing every field of t. The memo
// (queueUserLimit) computes into a variable of its own: in WebAssembly,
// returning the terms copies them through memory, a call out of the module.
func (s *Scheduler) computeUserLimit(q *queue, t *UserLimitTerms) {
	rc, P, lf := s.rc, s.cluster, q.lf
	required := s.minAlloc()
	t.Partition, t.Required = P, required
	t.MinUserLimitPct, t.UserLimitFactor = q.conf.MinUserLimitPercent, q.conf.UserLimitFactor
	t.QueueCapacity = rc.Max(P, q.effMin, required)
	t.Consumed = rc.MultiplyAndNormalizeUp(P, float64(lf.usageRatio), required)
	if rc.LessThan(P, t.Consumed, t.QueueCapacity) {
		t.CurrentCapacity = t.QueueCapacity
	} else {
		t.CurrentCapacity = t.Consumed.Add(required)
	}
	t.ActiveUsed = lf.activeUsed
	t.ActiveWeights = lf.activeWeights
	resourceUsed := lf.activeUsed.Add(required)
	t.ByUsers = rc.DivideAndCeil(resourceUsed, lf.activeWeights)
	t.ByPercent = rc.DivideAndCeil(resource.MultiplyAndRoundDown(t.CurrentCapacity, float64(q.conf.MinUserLimitPercent)), 100)
	ul := rc.Max(P, t.ByUsers, t.ByPercent)
	t.MaxUserLimit = resource.MultiplyAndRoundDown(t.QueueCapacity, float64(q.conf.UserLimitFactor))
	t.Limit = rc.RoundUp(rc.Min(P, ul, t.MaxUserLimit), required)
}

// ulMemo is a leaf's last user-limit computation, valid while the leaf's
// generation (gen, which every change of its users' usage, activity and
// weights moves: invalidate) and the cluster and configuration generation
// (cgen, walkCache.cluster: the cluster resource, the effective
// capacities, the configuration and with it the minimum allocation) are
// those it was made at. Hadoop recomputes the limit only when its users'
// state version changes; this memo recomputes it whenever the leaf
// changed, which gives the same numbers as recomputing every time
// (CheckInvariants recomputes a valid memo and compares).
type ulMemo struct {
	ok        bool
	gen, cgen uint64
	limit     resource.Resource
	// weighted is the limit scaled by the weight whose bits are
	// weightBits (userLimitWeighted), when weightedOK.
	weightedOK bool
	weightBits uint32
	weighted   resource.Resource
}

// ulValid reports whether the memo holds the user limit of leaf q now.
func (s *Scheduler) ulValid(q *queue) bool {
	m := &q.lf.ul
	return m.ok && s.walk.leafUnchanged(q.lf, m.gen, m.cgen)
}

// queueUserLimit is userLimitTerms(q).Limit, memoized.
func (s *Scheduler) queueUserLimit(q *queue) resource.Resource {
	m := &q.lf.ul
	if s.ulValid(q) {
		return m.limit
	}
	var t UserLimitTerms
	s.computeUserLimit(q, &t)
	// Field by field, for the reason computeUserLimit gives.
	m.ok, m.gen, m.cgen, m.limit = true, q.lf.gen, s.walk.cluster, t.Limit
	m.weightedOK, m.weightBits, m.weighted = false, 0, resource.Resource{}
	return m.limit
}

// userLimitOf is getResourceLimitForActiveUsers for one of the leaf's
// users: the queue's user limit scaled by the user's weight.
func (s *Scheduler) userLimitOf(q *queue, u *user) resource.Resource {
	return s.userLimitWeighted(q, u.weight)
}

// userLimitWeighted is the queue's user limit scaled by a weight. The last
// one is memoized with the queue's limit (whose memo covers the minimum
// allocation): most users of a leaf have the same weight.
func (s *Scheduler) userLimitWeighted(q *queue, w float32) resource.Resource {
	l := s.queueUserLimit(q)
	m, wb := &q.lf.ul, math.Float32bits(w)
	if !m.weightedOK || m.weightBits != wb {
		m.weightedOK, m.weightBits, m.weighted = true, wb, s.rc.MultiplyAndNormalizeDown(l, float64(w), s.minAlloc())
	}
	return m.weighted
}

// canAssignToUser is LeafQueue.canAssignToUser (strict "used > limit").
func (s *Scheduler) canAssignToUser(q *queue, a *app, limit resource.Resource, lim *limits) bool {
	u := a.usr
	if u == nil {
		return false
	}
	lim.unreserve = resource.None
	if s.rc.GreaterThan(s.cluster, u.used, limit) {
		if s.set.ContinueLook && s.rc.LessThanOrEqual(s.cluster, u.used.Sub(a.reservedRes), limit) {
			lim.unreserve = u.used.Sub(limit)
			return true
		}
		return false
	}
	return true
}

// headroom is LeafQueue.getHeadroom (section 6.4) for an application's user,
// against the queue's current limit. u is the leaf's user (a live
// application's a.usr, CheckInvariants), so its weight needs no lookup by
// name: the views ask this of tens of thousands of applications a frame.
func (s *Scheduler) headroom(q *queue, u *user) resource.Resource {
	rc := s.rc
	ul := s.userLimitOf(q, u)
	h := resource.ComponentwiseMin(ul.SubNonNegative(u.used), q.lf.currentLimit.SubNonNegative(q.used))
	h = rc.RoundDown(h, s.minAlloc())
	free := s.cluster.Sub(s.root.used)
	h = rc.Min(s.cluster, free, h)
	return resource.ComponentwiseMax(h, resource.None)
}

// numActiveUsersForAM is UsersManager.getNumActiveUsers: the users with
// outstanding asks, counted as they change, plus the users whose
// applications are all pending as counted at the last user-limit
// computation (userLimitComputed), a cached figure: a brand-new user's
// first application is judged before it counts.
func (s *Scheduler) numActiveUsersForAM(q *queue) int {
	return q.lf.activeUsers + q.lf.pendingOnly
}

// amLimit is calculateAndGetAMResourceLimitPerPartition (section 6.5).
func (s *Scheduler) amLimit(q *queue) resource.Resource {
	usable := s.rc.Max(s.cluster, q.lf.currentLimit, q.effMin)
	return s.rc.MultiplyAndNormalizeUp(usable, float64(q.conf.MaxAMPercent), s.minAlloc())
}

// userAMLimit is getUserAMResourceLimitPerPartition (section 6.5).
func (s *Scheduler) userAMLimit(q *queue, userName string) resource.Resource {
	w := float32(1)
	if u := q.lf.users[userName]; u != nil {
		w = u.weight
	}
	n := s.numActiveUsersForAM(q)
	eff := max(q.conf.MinUserLimitPercent/100.0, float32(1.0)/float32(max(n, 1)))
	eff = min(eff*w, 1.0)
	by := q.conf.MaxAMPercent * eff * q.conf.UserLimitFactor
	l := s.rc.MultiplyAndNormalizeUp(q.effMin, float64(by), s.minAlloc())
	return s.rc.Min(s.cluster, l, s.amLimit(q))
}
