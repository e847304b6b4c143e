package core

import (
	"fmt"
	"math"
	"slices"

	"yarnplay/core/config"
)

// epsilon is CSQueueUtils.EPSILON.
const epsilon = float32(0.0001)

// placement is Hadoop's ApplicationPlacementContext: the leaf queue's
// short name and the path of its parent.
type placement struct {
	queue, parent string
}

// place is UserGroupMappingPlacementRule.getPlacementForApp: the queue the
// mappings give the user, when the application names "default", that
// queue, or the mappings override (queue-mappings-override.enable). The
// error is the message of a failed placement. A recovered application
// (recovering) names the queue it ran in by its full path, where Hadoop
// stored the leaf's name: that counts as naming it, so that its
// auto-created leaf is created again (CapacityScheduler.
// addApplicationOnRecovery).
func (s *Scheduler) place(user, queue string, recovering bool) (*placement, error) {
	m := s.parsed.Mappings
	if len(m.List) == 0 {
		return nil, nil
	}
	pc, err := s.placementForUser(user)
	if err != nil || pc == nil {
		return nil, err
	}
	if queue == "default" || queue == pc.queue || m.Override || recovering && queue == pc.parent+"."+pc.queue {
		return pc, nil
	}
	return nil, nil
}

// placementForUser is UserGroupMappingPlacementRule.getPlacementForUser:
// the first mapping that matches decides, even when it places nowhere.
func (s *Scheduler) placementForUser(user string) (*placement, error) {
	for _, mp := range s.parsed.Mappings.List {
		if mp.Type == "u" {
			if mp.Source == "%user" {
				switch {
				case mp.Parent == "%primary_group" && mp.Queue == "%user":
					g, err := s.primaryGroup(user)
					if err != nil {
						return nil, err
					}
					return s.contextForGroupParent(user, g)
				case mp.Parent == "%secondary_group" && mp.Queue == "%user":
					g, err := s.secondaryGroup(user)
					if err != nil || g == "" {
						return nil, err
					}
					return s.contextForGroupParent(user, g)
				case mp.Queue == "%user":
					return s.placementContext(mp, user)
				case mp.Queue == "%primary_group":
					g, err := s.primaryGroup(user)
					if err != nil {
						return nil, err
					}
					return s.placementContext(mp, g)
				case mp.Queue == "%secondary_group":
					g, err := s.secondaryGroup(user)
					if err != nil || g == "" {
						return nil, err
					}
					return s.placementContext(mp, g)
				}
				return s.placementContext(mp, mp.Queue)
			}
			if user == mp.Source {
				switch mp.Queue {
				case "%primary_group":
					g, err := s.primaryGroup(user)
					if err != nil {
						return nil, err
					}
					return s.placementContext(mp, g)
				case "%secondary_group":
					g, err := s.secondaryGroup(user)
					if err != nil || g == "" {
						return nil, err
					}
					return s.placementContext(mp, g)
				}
				return s.placementContext(mp, mp.Queue)
			}
		}
		if mp.Type == "g" {
			groups, err := s.groupsOf(user)
			if err != nil {
				return nil, err
			}
			for _, g := range groups {
				if g == mp.Source {
					if mp.Queue == "%user" {
						return s.placementContext(mp, user)
					}
					return s.placementContext(mp, mp.Queue)
				}
			}
		}
	}
	return nil, nil
}

// groupsOf is Groups.getGroups: the user's groups (SetUserGroups), an
// error when there are none.
func (s *Scheduler) groupsOf(user string) ([]string, error) {
	g := s.groups[user]
	if len(g) == 0 {
		return nil, fmt.Errorf("No groups found for user %s", user)
	}
	return g, nil
}

func (s *Scheduler) primaryGroup(user string) (string, error) {
	g, err := s.groupsOf(user)
	if err != nil {
		return "", err
	}
	return g[0], nil
}

// secondaryGroup is the first of the user's other groups that names a
// queue, "" when none does.
func (s *Scheduler) secondaryGroup(user string) (string, error) {
	g, err := s.groupsOf(user)
	if err != nil {
		return "", err
	}
	for _, x := range g[1:] {
		if q, _ := s.lookupQueue(x); q != nil {
			return x, nil
		}
	}
	return "", nil
}

// contextForGroupParent places the user's own queue under the queue named
// after a group (getContextForGroupParent, validateQueueMapping).
func (s *Scheduler) contextForGroupParent(user, group string) (*placement, error) {
	gq, _ := s.lookupQueue(group)
	if gq == nil {
		return nil, nil
	}
	full := gq.path + "." + user
	leaf, err := s.lookupQueue(full)
	if leaf == nil || !leaf.isLeaf() {
		if leaf == nil && isAmbiguous(err) {
			return nil, fmt.Errorf("mapping contains ambiguous leaf queue name: %s", full)
		}
		if !gq.conf.ManagedParent && !gq.conf.AutoQueueCreationV2 {
			return nil, fmt.Errorf("mapping contains invalid or non-leaf queue  and no managed parent is found: %s", full)
		}
	}
	return s.placementContext(config.QueueMapping{Parent: gq.path, Queue: user}, user)
}

// placementContext is getPlacementContext(mapping, leafQueueName).
func (s *Scheduler) placementContext(mp config.QueueMapping, leaf string) (*placement, error) {
	if mp.Parent == "" {
		q, err := s.lookupQueue(leaf)
		if q == nil {
			if isAmbiguous(err) {
				return nil, fmt.Errorf("mapping contains ambiguous leaf queue reference %s", leaf)
			}
			return nil, nil
		}
		return &placement{queue: leaf, parent: q.parent.path}, nil
	}
	parent, _ := s.lookupQueue(mp.Parent)
	if parent == nil {
		return nil, nil
	}
	if !parent.conf.ManagedParent && !parent.conf.AutoQueueCreationV2 {
		if q, _ := s.lookupQueue(parent.path + "." + leaf); q == nil {
			return nil, nil
		}
	}
	return &placement{queue: leaf, parent: parent.path}, nil
}

// autoCreateLeaf is CapacityScheduler.autoCreateLeafQueue and addQueue:
// the AutoCreatedLeafQueue constructed from its parent's template
// (config.NewAutoCreatedLeaf), ManagedParentQueue.addChildQueue's limits,
// and the queue-management policy's first entitlement for it
// (GuaranteedOrZeroCapacityOverTimePolicy.getInitialLeafQueueConfiguration):
// the template's capacity while the parent's activated leaves leave room
// for it, else 0. The error is Hadoop's message.
func (s *Scheduler) autoCreateLeaf(pc *placement) (*queue, error) {
	parent, _ := s.lookupQueue(pc.parent)
	if s.profile.AtLeast34() && (parent == nil || !parent.conf.ManagedParent) {
		// Hadoop 3.4's createQueue: flexible creation unless the parent
		// is a legacy managed parent.
		return s.createFlexibleLeaf(pc.parent + "." + pc.queue)
	}
	if parent == nil || !parent.conf.ManagedParent {
		return nil, fmt.Errorf("Could not auto-create leaf queue for %s. Queue mapping specifies an invalid parent queue which does not exist %s", pc.queue, pc.parent)
	}
	t := parent.conf.Template
	c, err := config.NewAutoCreatedLeaf(parent.conf, pc.queue, s.set, s.profile)
	if err != nil {
		return nil, err
	}
	if n := len(parent.children); n >= t.MaxQueues {
		return nil, fmt.Errorf("Cannot auto create leaf queue %s.Max Child Queue limit exceeded which is configured as : %d and number of child queues is : %d", c.Path, t.MaxQueues, n)
	}
	if t.FailOnExceeding {
		var sum float32
		for _, ch := range parent.children {
			sum += ch.conf.AbsCapacity
		}
		if float32(t.AbsCapacity+sum) > parent.conf.AbsCapacity {
			return nil, fmt.Errorf("Cannot auto create leaf queue %s. Child queues capacities have reached parent queue : %s's guaranteed capacity", c.Path, parent.path)
		}
	}
	q := &queue{path: c.Path, name: c.Name, conf: c, parent: parent, state: initialState(c, parent)}
	q.lf = &leafState{users: map[string]*user{}}
	q.cidx = int32(len(parent.children))
	q.hpos = q.cidx
	parent.children = append(slices.Clip(parent.children), q)
	s.autoLeaves = append(slices.Clip(s.autoLeaves), c)
	s.reindexQueues()
	// The constructor's limits: the whole cluster (new ResourceLimits).
	q.lf.cachedLimit, q.lf.currentLimit = s.cluster, s.cluster
	available := float32(float32(parent.conf.AbsCapacity-parent.autoActivated) + epsilon)
	detail := fmt.Sprintf("under %s, from its leaf-queue-template", parent.path)
	if available < t.AbsCapacity {
		detail += fmt.Sprintf(", with capacity 0: %s's active leaves hold %s%% of the cluster of its %s%%, no room for the template's %s%%",
			parent.path, pct(parent.autoActivated), pct(parent.conf.AbsCapacity), pct(t.AbsCapacity))
	}
	s.emit(Event{Kind: EvQueueCreated, Queue: q.path, Detail: detail})
	if available >= t.AbsCapacity {
		s.setEntitlement(q, true)
	} else {
		s.entitlementsChanged([]*queue{q})
	}
	return q, nil
}

// reindexQueues renumbers the queues in pre-order after one was added.
func (s *Scheduler) reindexQueues() {
	s.queues = s.queues[:0:0]
	var walk func(q *queue)
	walk = func(q *queue) {
		q.id = len(s.queues)
		s.queues = append(s.queues, q)
		s.byPath[q.path] = q
		for _, c := range q.children {
			c.depth = q.depth + 1
			walk(c)
		}
	}
	walk(s.root)
}

// setEntitlement gives an auto-created leaf its template's capacities
// (active) or none (AutoCreatedLeafQueue.reinitializeFromTemplate), and
// commits the change to the policy's state
// (commitQueueManagementChanges: activate, deactivate).
func (s *Scheduler) setEntitlement(q *queue, active bool) {
	t := q.parent.conf.Template
	capacity := float32(0)
	if active {
		capacity = t.Capacity
	}
	q.conf = config.WithEntitlement(q.conf, capacity, t.MaxCapacity)
	for i, c := range s.autoLeaves {
		if c.Path == q.path {
			s.autoLeaves = slices.Clone(s.autoLeaves)
			s.autoLeaves[i] = q.conf
			break
		}
	}
	detail := fmt.Sprintf("capacity %s%% of %s (absolute %s%%), maximum %s%%", pct(q.conf.Capacity), q.parent.path,
		pct(q.conf.AbsCapacity), pct(q.conf.MaxCapacity))
	switch {
	case active && !q.autoActive:
		q.autoActive = true
		q.parent.autoActivated = float32(q.parent.autoActivated + t.AbsCapacity)
		s.emit(Event{Kind: EvQueueActivated, Queue: q.path, Detail: detail})
	case !active && q.autoActive:
		q.autoActive = false
		q.parent.autoActivated = float32(q.parent.autoActivated - t.AbsCapacity)
		s.emit(Event{Kind: EvQueueDeactivated, Queue: q.path, Detail: detail})
	}
	s.entitlementsChanged([]*queue{q})
}

// entitlementsChanged is the rest of reinitializeFromTemplate for leaves
// whose capacities changed: their effective resources
// (mergeCapacities), the parents' child order, and the leaves' pending
// applications activated.
func (s *Scheduler) entitlementsChanged(leaves []*queue) {
	s.invalidate(changeCluster, nil)
	s.effectiveResources(false)
	s.sortAllChildren()
	for _, q := range leaves {
		s.activateApplications(q)
	}
}

// pct prints a fraction as a percentage.
func pct(f float32) string {
	v := float64(f) * 100
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// manageAutoCreatedLeaves is QueueManagementDynamicEditPolicy.editSchedule
// when the monitor runs it: each managed parent's policy computes and
// applies its changes, unless the parent fails auto-creation beyond its
// capacity.
func (s *Scheduler) manageAutoCreatedLeaves() {
	if !s.set.QueueManagement {
		return
	}
	every := max(int64(1), s.set.QueueManagementIntervalMS/max(int64(1), s.set.HeartbeatIntervalMS))
	if s.now%every != 0 {
		return
	}
	for _, p := range s.queues {
		if p.conf.ManagedParent && !p.conf.Template.FailOnExceeding {
			s.queueManagementChanges(p)
		}
	}
}

// queueManagementChanges is GuaranteedOrZeroCapacityOverTimePolicy.
// computeQueueManagementChanges for the default partition, applied and
// committed (ManagedParentQueue.validateAndApplyQueueManagementChanges):
// active leaves without applications are deactivated; then, while the
// parent's absolute capacity has room for the template's, leaves that are
// not active are activated in the order of their applications' submission.
func (s *Scheduler) queueManagementChanges(p *queue) {
	t := p.conf.Template
	var apps []*app
	deactivate := map[*queue]bool{}
	var deactivated float32
	for _, c := range p.children {
		apps = append(apps, c.lf.active...)
		apps = append(apps, c.lf.pending...)
		if c.autoActive && c.numApps == 0 {
			deactivate[c] = true
			deactivated += t.AbsCapacity
		}
	}
	slices.SortFunc(apps, func(a, b *app) int { return int(a.seq - b.seq) }) // by submit time
	available := float32(float32(float32(p.conf.AbsCapacity-p.autoActivated)+deactivated) + epsilon)
	var activate []*queue
	if available >= t.AbsCapacity && len(apps) > 0 && t.AbsCapacity > 0 {
		n := min(int(math.Floor(float64(available/t.AbsCapacity))), len(apps))
		for _, a := range apps {
			if len(activate) >= n {
				break
			}
			if q := a.queue; !q.autoActive && !deactivate[q] && !slices.Contains(activate, q) {
				activate = append(activate, q)
			}
		}
	}
	for _, c := range p.children {
		if deactivate[c] {
			s.setEntitlement(c, false)
		}
	}
	for _, c := range activate {
		s.setEntitlement(c, true)
	}
}

// checkAutoCreated checks the auto-created leaves (CheckInvariants): each
// is a leaf of a managed parent, listed once in autoLeaves with the
// configuration it holds, with the template's capacity when active and 0
// when not; a managed parent's activated sum is its active leaves'
// template absolute capacities (to a float rounding, as Hadoop adds them
// in the order they were activated).
func (s *Scheduler) checkAutoCreated() error {
	listed := 0
	for _, q := range s.queues {
		if q.conf.AutoCreated {
			listed++
			if !q.isLeaf() || q.parent == nil || !q.parent.conf.ManagedParent {
				return fmt.Errorf("queue %s: auto-created, but not a leaf of a managed parent", q.path)
			}
			if !slices.Contains(s.autoLeaves, q.conf) {
				return fmt.Errorf("queue %s: auto-created, but its configuration is not the one kept", q.path)
			}
			want := float32(0)
			if q.autoActive {
				want = q.parent.conf.Template.Capacity
			}
			if q.conf.Capacity != want {
				return fmt.Errorf("queue %s: capacity %g, but active=%v gives %g", q.path, q.conf.Capacity, q.autoActive, want)
			}
		}
		if !q.conf.ManagedParent {
			continue
		}
		var sum float64
		for _, c := range q.children {
			if !c.conf.AutoCreated {
				return fmt.Errorf("queue %s: a managed parent with the configured child %s", q.path, c.path)
			}
			if c.autoActive {
				sum += float64(q.conf.Template.AbsCapacity)
			}
		}
		if math.Abs(sum-float64(q.autoActivated)) > 1e-5 {
			return fmt.Errorf("queue %s: activated %g, but its active leaves' template capacities sum to %g", q.path, q.autoActivated, sum)
		}
	}
	if listed != len(s.autoLeaves) {
		return fmt.Errorf("%d auto-created leaves kept, %d in the tree", len(s.autoLeaves), listed)
	}
	return nil
}
