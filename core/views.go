package core

import "yarnplay/core/resource"

// Queue returns a copy of a queue's state, by full path or unambiguous short name.
func (s *Scheduler) Queue(name string) (QueueView, error) {
	q, err := s.lookupQueue(name)
	if err != nil {
		return QueueView{}, err
	}
	return s.queueView(q, nil, true), nil
}

// Queues returns every queue, pre-order, children in configuration order.
func (s *Scheduler) Queues() []QueueView {
	out := make([]QueueView, 0, len(s.queues))
	for _, q := range s.queues {
		out = append(out, s.queueView(q, nil, true))
	}
	return out
}

// queueView is a queue's view, over prev (nil: none), its last view,
// whose lists it shares where they are equal (QueuesOver); without its
// users unless users is set.
func (s *Scheduler) queueView(q *queue, prev *QueueView, users bool) QueueView {
	if prev == nil {
		prev = &QueueView{}
	}
	c := q.conf
	v := QueueView{
		Path: q.path, Name: q.name, Leaf: q.isLeaf(), State: q.state, Depth: q.depth,
		Capacity: c.Capacity, MaxCapacity: c.MaxCapacity, AbsCapacity: c.AbsCapacity, AbsMaxCapacity: c.AbsMaxCapacity,
		EffectiveMin: q.effMin, EffectiveMax: q.effMax,
		Absolute: c.Absolute, ConfiguredMin: c.MinResource, ConfiguredMax: c.MaxResource,
		Weighted: c.Weighted, Weight: c.Weight, NormalizedWeight: c.NormalizedWeight,
		ManagedParent: c.ManagedParent, AutoCreated: c.AutoCreated || c.Dynamic, AutoActive: q.autoActive,
		FlexibleParent: c.AutoQueueCreationV2, Dynamic: c.Dynamic, MaxChildQueues: c.AutoQueueMaxQueues,
		Used: q.used, Reserved: q.reserved, Pending: q.pending, NumApps: q.numApps,
		MaxAllocation: c.MaxAlloc, DisablePreemption: c.DisablePreemption,
		SubmitACL: c.SubmitACL.String(), AdminACL: c.AdminACL.String(),
		ConfiguredState: c.ConfiguredState, DefaultAppPriority: c.DefaultAppPriority,
		Priority: c.Priority, OrderingPolicy: c.OrderingPolicy,
		MaxParallelApps: c.MaxParallelApps, NumRunnableApps: q.numRunnable,
	}
	v.UsedCapacity, v.AbsUsedCapacity = s.usedCapacity(q)
	s.partitionViews(q, &v)
	if q.parent != nil {
		v.Parent = q.parent.path
	}
	v.Children = queuePaths(q.children, prev.Children)
	if len(q.children) > 0 {
		v.ChildList = queuePaths(hadoopChildren(q), prev.ChildList)
	}
	if !q.isLeaf() {
		s.countApps(q, &v)
		return v
	}
	lf := q.lf
	v.NumActiveApps, v.NumPendingApps = len(lf.active), len(lf.pending)
	v.AMUsed, v.AMLimit, v.UserAMLimit = lf.amUsed, s.amLimit(q), s.userAMLimit(q, "")
	v.MaxApps, v.MaxAppsPerUser = c.MaxApplications, c.MaxApplicationsPerUser
	v.ActiveUsers = s.numActiveUsersForAM(q) // UsersManager.getNumActiveUsers
	v.UserLimitFactor, v.MinUserLimitPercent, v.MaxAMPercent = c.UserLimitFactor, c.MinUserLimitPercent, c.MaxAMPercent
	v.UserLimit = s.userLimitTerms(q).Limit
	v.CurrentLimit = lf.currentLimit
	v.NodeLocalityDelay = s.set.NodeLocalityDelay
	v.ActiveApps = appIDs(lf.active, prev.ActiveApps)
	v.PendingApps = appIDs(lf.pending, prev.PendingApps)
	v.NumNonRunnableApps = len(lf.nonRunnable)
	v.NonRunnableApps = appIDs(lf.nonRunnable, prev.NonRunnableApps)
	if users {
		v.Users = s.userViews(q)
	}
	return v
}

func (s *Scheduler) countApps(q *queue, v *QueueView) {
	for _, c := range q.children {
		if c.isLeaf() {
			v.NumActiveApps += len(c.lf.active)
			v.NumPendingApps += len(c.lf.pending)
			v.NumNonRunnableApps += len(c.lf.nonRunnable)
		} else {
			s.countApps(c, v)
		}
	}
}

// UserLimitTerms returns the numbers of the selected leaf's user-limit
// formula now, for the formula panel.
func (s *Scheduler) UserLimitTerms(queueName string) (UserLimitTerms, error) {
	q, err := s.lookupQueue(queueName)
	if err != nil {
		return UserLimitTerms{}, err
	}
	if !q.isLeaf() {
		return UserLimitTerms{}, errNotLeaf(q)
	}
	return s.userLimitTerms(q), nil
}

// App returns a copy of an application's state. Rejected submissions are
// reported with state REJECTED and the message as Diagnostics.
func (s *Scheduler) App(id string) (AppView, bool) {
	if a, ok := s.appIdx[id]; ok {
		return s.appView(a), true
	}
	if r, ok := s.rejected[id]; ok {
		return AppView{ID: id, User: r.user, Queue: r.queue, State: AppRejected, Diagnostics: r.message}, true
	}
	return AppView{}, false
}

// Apps returns every accepted application in submission order.
func (s *Scheduler) Apps() []AppView {
	out := make([]AppView, 0, len(s.apps))
	for _, a := range s.apps {
		out = append(out, s.appView(a))
	}
	return out
}

func (s *Scheduler) appView(a *app) AppView {
	v := s.appViewBrief(a, nil)
	for _, c := range a.live {
		if c != nil {
			v.Containers = append(v.Containers, containerView(c))
		}
	}
	for _, c := range a.reservations {
		v.Containers = append(v.Containers, containerView(c))
	}
	return v
}

// appViewBrief is appView without the containers, over prev (nil: none),
// the application's last view, whose requests it shares when they are the
// same (AppsBriefOver).
func (s *Scheduler) appViewBrief(a *app, prev *AppView) AppView {
	v := AppView{
		ID: a.id, User: a.user, Queue: a.queue.path, State: a.state, Priority: a.priority, Seq: a.seq, Attempt: int(a.attempt),
		Activated: a.activated, AMResource: a.amResource, Consumption: a.consumption, Reserved: a.reservedRes,
		LiveContainers: int(a.nlive), ReservedContainers: len(a.reservations), Diagnostics: a.diagnostics,
		StartTick: int64(a.submitTick), FinishTick: int64(a.finishTick),
		NotRunnable: a.state == AppAccepted && !a.runnable,
	}
	// A live application's user is its queue's user of that name
	// (CheckInvariants): no lookup by name for each of tens of thousands.
	if a.usr != nil && (a.state == AppAccepted || a.state == AppRunning) {
		v.Headroom = s.headroom(a.queue, a.usr)
	}
	var reqs []RequestView
	if prev != nil {
		reqs = prev.Requests
	}
	v.Requests = requestViews(a.requests, reqs)
	return v
}

func containerView(c *container) ContainerView {
	return ContainerView{
		ID: c.id, App: c.app.id, Queue: c.app.queue.path, User: c.app.user, Node: c.node.name,
		Size: c.size, Priority: c.priority, IsAM: c.isAM, Locality: c.locality.Locality(),
		StartTick: c.start, EndTick: c.end, Reserved: c.reserved,
	}
}

// Node returns a copy of a node's state.
func (s *Scheduler) Node(name string) (NodeView, bool) {
	n, ok := s.nodeIdx[name]
	if !ok {
		return NodeView{}, false
	}
	return nodeView(n), true
}

// Nodes returns every node in registration order.
func (s *Scheduler) Nodes() []NodeView {
	out := make([]NodeView, 0, len(s.nodes))
	for _, n := range s.nodes {
		out = append(out, nodeView(n))
	}
	return out
}

func nodeView(n *node) NodeView {
	v := nodeViewBrief(n)
	for _, c := range n.containers {
		v.Containers = append(v.Containers, containerView(c))
	}
	return v
}

// nodeViewBrief is nodeView without the containers.
func nodeViewBrief(n *node) NodeView {
	v := NodeView{Name: n.name, Rack: n.rack, Capacity: n.total, Allocated: n.allocated, Label: n.part}
	if n.reservation != nil {
		c := containerView(n.reservation)
		v.Reservation = &c
	}
	return v
}

// NumNodes is the number of registered nodes.
func (s *Scheduler) NumNodes() int { return len(s.nodes) }

// AMLimitTerms are the numbers of a leaf's AM-limit computation (section 6.5).
type AMLimitTerms struct {
	CurrentLimit  resource.Resource // limit handed down by the parent
	Guaranteed    resource.Resource // effective minimum
	Usable        resource.Resource // max(current limit, guaranteed)
	MaxAMPercent  float32
	AMLimit       resource.Resource
	ActiveUsers   int // including users with only pending apps
	UserAMLimit   resource.Resource
	AMUsed        resource.Resource
	MinUserLimit  float32
	UserLimitFact float32
}

// AMLimitTerms returns a leaf's AM-limit formula with today's numbers.
func (s *Scheduler) AMLimitTerms(queueName string) (AMLimitTerms, error) {
	q, err := s.lookupQueue(queueName)
	if err != nil {
		return AMLimitTerms{}, err
	}
	if !q.isLeaf() {
		return AMLimitTerms{}, errNotLeaf(q)
	}
	return s.amLimitTerms(q), nil
}

func (s *Scheduler) amLimitTerms(q *queue) AMLimitTerms {
	return AMLimitTerms{
		CurrentLimit: q.lf.currentLimit, Guaranteed: q.effMin,
		Usable:       s.rc.Max(s.cluster, q.lf.currentLimit, q.effMin),
		MaxAMPercent: q.conf.MaxAMPercent, AMLimit: s.amLimit(q),
		ActiveUsers: s.numActiveUsersForAM(q), UserAMLimit: s.userAMLimit(q, ""),
		AMUsed: q.lf.amUsed, MinUserLimit: q.conf.MinUserLimitPercent, UserLimitFact: q.conf.UserLimitFactor,
	}
}

type notLeafError struct{ path string }

func (e notLeafError) Error() string { return "queue " + e.path + " is a parent queue, not a leaf" }

func errNotLeaf(q *queue) error { return notLeafError{q.path} }
