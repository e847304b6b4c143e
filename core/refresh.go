package core

import (
	"fmt"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// initOnlyKeys are read when the ResourceManager starts and not by
// `yarn rmadmin -refreshQueues` (yarn-site settings, and the two
// per-heartbeat settings CapacityScheduler reads only at init).
var initOnlyKeys = []string{
	"yarn.scheduler.minimum-allocation-mb",
	"yarn.scheduler.minimum-allocation-vcores",
	"yarn.scheduler.maximum-allocation-mb",
	"yarn.scheduler.maximum-allocation-vcores",
	"yarn.acl.enable",
	"yarn.admin.acl",
	"yarn.cluster.max-application-priority",
	"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
	"yarn.resourcemanager.scheduler.monitor.enable",
	"yarn.scheduler.capacity.resource-calculator",
	"yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled",
	"yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments",
}

// RefreshError is a refused refresh; the configuration in force is unchanged.
type RefreshError struct {
	Property string // when known
	Queue    string // when known
	Message  string
}

func (e *RefreshError) Error() string { return "Failed to re-init queues : " + e.Message }

// Refresh applies a changed configuration to the running scheduler, as
// `yarn rmadmin -refreshQueues` does (sections 4 and 9): it is refused, with
// Hadoop's message, when Hadoop would refuse it, and then nothing changes.
// Otherwise new queues join, removed (stopped) queues go, capacities and
// limits change at once, queue states move, and applications and usage stay.
func (s *Scheduler) Refresh(newConf *config.Conf) error {
	s.invalidate(changeCluster, nil)
	if newConf == nil {
		return &RefreshError{Message: "no configuration given"}
	}
	conf := newConf.Clone()
	var ignored []string
	for _, k := range initOnlyKeys {
		ov, oldSet := s.conf.Get(k)
		nv, newSet := conf.Get(k)
		if oldSet != newSet || ov != nv {
			ignored = append(ignored, k)
		}
		if oldSet {
			conf.Set(k, ov)
		} else {
			conf.Unset(k)
		}
	}
	parsed, err := config.ParseOnCluster(conf, s.profile, s.cluster)
	var dynamic []config.DynamicQueue
	if err == nil {
		// Hadoop 3.4's dynamic leaves stay while their parent does.
		if dynamic = survivingDynamic(s.dynamic, parsed); len(dynamic) > 0 {
			parsed, err = config.ParseWithDynamicQueues(conf, s.profile, s.cluster, dynamic)
		}
	}
	if err != nil {
		re := &RefreshError{Message: err.Error()}
		if ce, ok := err.(*config.Error); ok {
			re.Property, re.Queue = ce.Property, ce.Queue
		}
		s.emit(Event{Kind: EvRefreshRefused, Detail: re.Error()})
		return re
	}
	fresh := freshStates(parsed.Root)
	if herr := s.validateHierarchy(parsed, conf, fresh); herr != nil {
		s.emit(Event{Kind: EvRefreshRefused, Queue: herr.Queue, Detail: herr.Error()})
		return herr
	}
	// Queue states of existing queues: check before changing anything.
	states, serr := s.plannedStates(parsed, fresh)
	if serr != nil {
		s.emit(Event{Kind: EvRefreshRefused, Queue: serr.Queue, Detail: serr.Error()})
		return serr
	}
	autoLeaves, aerr := s.reinitAutoLeaves(parsed)
	if aerr != nil {
		s.emit(Event{Kind: EvRefreshRefused, Queue: aerr.Queue, Detail: aerr.Error()})
		return aerr
	}

	// Apply.
	old := s.byPath
	var lists map[string][]string
	if s.profile != config.Hadoop2 {
		lists = s.childLists()
	}
	s.conf = conf
	s.parsed = parsed
	set := parsed.Settings
	set.Warnings = append(append([]string(nil), set.Warnings...), s.set.Warnings...)
	s.set = set
	s.autoLeaves = autoLeaves
	s.dynamic = dynamic
	s.buildQueues(parsed.Root, old)
	s.reinitChildLists(lists)
	for _, q := range s.queues {
		if q.lf != nil {
			s.resetAppOrder(q)
		}
	}
	for _, q := range s.queues {
		prev, existed := old[q.path]
		if existed && prev == q {
			if st, ok := states[q.path]; ok && st != q.state {
				q.state = st
				s.emit(Event{Kind: EvQueueState, Queue: q.path, Detail: string(st)})
			}
		} else {
			q.state = fresh[q.path]
		}
		if q.isLeaf() {
			s.refreshUserWeights(q)
		}
	}
	// Parents' application counts from their leaves.
	for i := len(s.queues) - 1; i >= 0; i-- {
		q := s.queues[i]
		if !q.isLeaf() {
			q.numApps, q.pending, q.used, q.reserved = 0, resource.None, resource.None, resource.None
			q.numRunnable = 0
			for _, c := range q.children {
				q.numApps += c.numApps
				q.numRunnable += c.numRunnable
				q.pending = q.pending.Add(c.pending)
				q.used = q.used.Add(c.used)
				q.reserved = q.reserved.Add(c.reserved)
			}
		}
	}
	// LeafQueue.reinitialize quirk (section 4.3): pending applications are
	// activated against the whole cluster before the real limits return.
	for _, q := range s.queues {
		if q.isLeaf() {
			q.lf.cachedLimit = s.cluster
			q.lf.currentLimit = s.cluster
			s.activateApplications(q)
		}
	}
	s.reinitManagedParents()
	s.updateClusterResource()
	s.updateRunnabilityOnReload() // CapacityScheduler.reinitialize
	detail := ""
	if len(ignored) > 0 {
		detail = "not refreshable, kept as at start: " + strings.Join(ignored, ", ")
		s.emit(Event{Kind: EvConfigWarning, Detail: detail})
	}
	s.emit(Event{Kind: EvRefreshed, Detail: detail})
	return nil
}

// freshStates computes the state every queue of a newly parsed tree would
// have as a new queue object (initializeQueueState with no previous state).
func freshStates(root *config.QueueConf) map[string]config.QueueState {
	st := map[string]config.QueueState{}
	root.Walk(func(c *config.QueueConf) {
		switch {
		case c.ConfiguredState != "":
			st[c.Path] = c.ConfiguredState
		case c.Parent == nil:
			st[c.Path] = config.Running
		default:
			ps := st[c.Parent.Path]
			if ps == config.Draining {
				ps = config.Stopped
			}
			st[c.Path] = ps
		}
	})
	return st
}

func refreshErr(q, msg string) *RefreshError { return &RefreshError{Queue: q, Message: msg} }

// validateHierarchy is CapacitySchedulerConfigValidator.validateQueueHierarchy
// (section 4.3), plus the hadoop-2 profile's rule that queues cannot be
// removed at run time.
func (s *Scheduler) validateHierarchy(p *config.Parsed, conf *config.Conf, fresh map[string]config.QueueState) *RefreshError {
	for _, old := range s.queues {
		if old.conf.AutoCreated {
			continue // not checked (AbstractAutoCreatedLeafQueue)
		}
		nc := p.Queue(old.path)
		if nc == nil {
			if s.profile == config.Hadoop2 {
				if moved := findShortName(p.Root, old.name); moved != nil {
					return refreshErr(old.path, fmt.Sprintf("%s is moved from:%s to:%s after refresh, which is not allowed.", old.name, old.path, moved.Path))
				}
				return refreshErr(old.path, fmt.Sprintf("%s cannot be found during refresh!", old.name))
			}
			if old.state != config.Stopped && !stoppedInConf(conf, old.path) {
				return refreshErr(old.path, fmt.Sprintf("%s cannot be deleted from the capacity scheduler configuration, as the queue is not yet in stopped state. Current State : %s", old.path, old.state))
			}
			if old.numApps > 0 {
				return refreshErr(old.path, fmt.Sprintf("%s cannot be deleted: it still has %d applications", old.path, old.numApps))
			}
			continue
		}
		if !old.isLeaf() && !old.conf.ManagedParent && nc.ManagedParent {
			return refreshErr(old.path, fmt.Sprintf("Can not convert parent queue: %s to auto create enabled parent queue since it could have other pre-configured queues which is not supported", old.path))
		}
		if old.conf.ManagedParent && !nc.ManagedParent {
			return refreshErr(old.path, fmt.Sprintf("Cannot convert auto create enabled parent queue: %s to leaf queue. Please check  parent queue's configuration %s is set to true", old.path, config.SuffixAutoCreateChildQueue))
		}
		if old.isLeaf() && !nc.IsLeaf() {
			if old.state != config.Stopped && !stoppedInConf(conf, old.path) {
				return refreshErr(old.path, fmt.Sprintf("Can not convert the leaf queue: %s to parent queue since it is not yet in stopped state. Current State : %s", old.path, old.state))
			}
			if old.numApps > 0 {
				return refreshErr(old.path, fmt.Sprintf("Can not convert the leaf queue: %s to parent queue: it still has %d applications", old.path, old.numApps))
			}
		}
		if old.isLeaf() && nc.IsLeaf() {
			om, nm := old.conf.MaxAlloc, nc.MaxAlloc
			if nm.MemoryMB < om.MemoryMB || nm.VCores < om.VCores {
				return refreshErr(old.path, fmt.Sprintf("Trying to reinitialize %s the maximum allocation size can not be decreased! Current setting: %s, trying to set it to: %s", old.path, om, nm))
			}
		}
	}
	return nil
}

func stoppedInConf(conf *config.Conf, path string) bool {
	v, ok := conf.Get(config.QueueKey(path, "state"))
	return ok && strings.EqualFold(strings.TrimSpace(v), string(config.Stopped))
}

func findShortName(root *config.QueueConf, name string) *config.QueueConf {
	var found *config.QueueConf
	root.Walk(func(c *config.QueueConf) {
		if found == nil && c.Name == name {
			found = c
		}
	})
	return found
}

// plannedStates computes the states existing queues move to on refresh
// (AbstractCSQueue.initializeQueueState with a previous state: stopQueue,
// with its cascade to all descendants, and activeQueue), pre-order, without
// changing anything; an activation under a non-running parent refuses the refresh.
func (s *Scheduler) plannedStates(p *config.Parsed, fresh map[string]config.QueueState) (map[string]config.QueueState, *RefreshError) {
	st := map[string]config.QueueState{}
	cur := func(path string) (config.QueueState, bool) {
		if v, ok := st[path]; ok {
			return v, true
		}
		if q, ok := s.byPath[path]; ok {
			return q.state, true
		}
		v, ok := fresh[path]
		return v, ok
	}
	var stop func(c *config.QueueConf)
	stop = func(c *config.QueueConf) {
		n := 0
		if q, ok := s.byPath[c.Path]; ok {
			n = q.numApps
		}
		if n > 0 {
			st[c.Path] = config.Draining
		} else {
			st[c.Path] = config.Stopped
		}
		for _, ch := range s.childConfs(c) {
			stop(ch)
		}
	}
	var err *RefreshError
	p.Root.Walk(func(c *config.QueueConf) {
		if err != nil {
			return
		}
		q, ok := s.byPath[c.Path]
		if !ok || q.isLeaf() != c.IsLeaf() {
			return // a new queue object: its fresh state
		}
		prev, _ := cur(c.Path)
		switch {
		case prev == config.Running && c.ConfiguredState == config.Stopped:
			stop(c)
		case prev != config.Running && c.ConfiguredState == config.Running:
			if c.Parent != nil {
				if ps, _ := cur(c.Parent.Path); ps != config.Running {
					err = refreshErr(c.Path, fmt.Sprintf("The parent Queue:%s is not running. Please activate the parent queue first", c.Parent.Path))
					return
				}
			}
			st[c.Path] = config.Running
		}
	})
	return st, err
}

// refreshUserWeights re-reads the users' weights (UsersManager.updateUserWeights).
func (s *Scheduler) refreshUserWeights(q *queue) {
	s.invalidate(changeLeaf, q)
	var w float32
	for _, name := range sortedUserNames(q.lf) {
		u := q.lf.users[name]
		u.weight = 1
		if cw, ok := q.conf.UserWeights[name]; ok {
			u.weight = cw
		}
		if u.activeAsks > 0 {
			w += u.weight
		}
	}
	q.lf.activeWeights = w
}

// reinitAutoLeaves is AutoCreatedLeafQueue.reinitialize for every
// auto-created leaf whose parent is still auto-create enabled: the leaf
// constructed again from the new template, with capacity 0; the others go
// (CapacitySchedulerQueueManager.updateQueues). It also makes
// ManagedParentQueue.reinitialize's check of a parent that fails
// auto-creation beyond its capacity.
func (s *Scheduler) reinitAutoLeaves(p *config.Parsed) ([]*config.QueueConf, *RefreshError) {
	var out []*config.QueueConf
	for _, c := range s.autoLeaves {
		np := p.Queue(c.Parent.Path)
		if np == nil || !np.ManagedParent {
			continue
		}
		nc, err := config.NewAutoCreatedLeaf(np, c.Name, p.Settings, s.profile)
		if err != nil {
			return nil, refreshErr(c.Path, err.Error())
		}
		out = append(out, nc)
	}
	for _, q := range s.queues {
		if !q.conf.ManagedParent {
			continue
		}
		np := p.Queue(q.path)
		if np == nil || !np.ManagedParent || !np.Template.FailOnExceeding {
			continue
		}
		var sum float32
		for _, c := range q.children {
			sum += c.conf.Capacity
		}
		if q.conf.Capacity < sum {
			return nil, refreshErr(q.path, fmt.Sprintf("Total of Auto Created leaf queues guaranteed capacity : %s exceeds Parent queue's %s "+
				"guaranteed capacity %s.Cannot enforce policy to auto create queues beyond parent queue's capacity",
				config.JavaFloatString(sum), q.path, config.JavaFloatString(q.conf.Capacity)))
		}
	}
	return out, nil
}

// reinitManagedParents is the rest of ManagedParentQueue.reinitialize: the
// policy's state cleared (reinitializeQueueManagementPolicy: every leaf
// inactive, capacity 0), then its changes computed and applied.
func (s *Scheduler) reinitManagedParents() {
	for _, p := range s.queues {
		if !p.conf.ManagedParent {
			continue
		}
		p.autoActivated = 0
		for _, c := range p.children {
			c.autoActive = false
		}
		s.queueManagementChanges(p)
	}
}
