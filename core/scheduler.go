package core

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// Scheduler is a Capacity Scheduler: the queue tree, the nodes, the
// applications and their containers. It is not safe for concurrent use; the
// playground changes it only on the UI goroutine.
type Scheduler struct {
	conf    *config.Conf
	parsed  *config.Parsed
	set     config.Settings
	profile config.Profile
	rc      resource.Calculator

	queues []*queue // pre-order
	byPath map[string]*queue
	root   *queue

	nodes   []*node // registration order
	nodeIdx map[string]*node

	apps     []*app // submission order
	appIdx   map[string]*app
	rejected map[string]rejection

	cluster resource.Resource
	now     int64
	nextID  int64
	nextSeq int64
	groups  map[string][]string
	events  []Event
	evHint  int // about the size of the recent records (TakeEvents)

	preempt preemptState
	// lbl is the node-label state, nil until labels are added.
	lbl *labelState
	// pw is the partition and mode of the walk under way on a labelled
	// node (partwalk.go); zero otherwise.
	pw partWalk

	rec   RecordLevel
	count Counters

	walk walkCache // what the walk remembers between passes (walkcache.go)
	// visit numbers leaf visits, for the users' per-visit limit cache.
	visit uint64
	due   []*container // scratch of completeDueContainers
	// warmth sums what warm read, which keeps its loads from being
	// dropped as unused.
	warmth int64
	// blk is what new applications, requests and users are
	// cut from (allocBlocks).
	blk allocBlocks
	// keyed is whether the cluster has resources: while it has none, the
	// used capacities the child order compares are 0 (orderKey).
	keyed bool

	// userRunnable is CSMaxRunningAppsEnforcer.usersNumRunnableApps;
	// nonRunnable counts the non-runnable attempts of every leaf;
	// nextStart orders attempts by start (app.start).
	userRunnable map[string]int
	nonRunnable  int
	nextStart    int32

	// autoLeaves are the auto-created leaves' configurations, in the
	// order they were created, with their current entitlements; the
	// slice is copied before it changes (it is shared with clones).
	autoLeaves []*config.QueueConf
	// dynamic are the queues Hadoop 3.4's flexible auto-queue creation
	// made, in the order they were created; their
	// configurations are in parsed (config.ParseWithDynamicQueues). The
	// slice is copied before it changes (it is shared with clones).
	dynamic []config.DynamicQueue
	// markedForDeletion are the dynamic queues AutoCreatedQueueDeletionPolicy
	// found eligible at its last run, sorted (replaced, never changed).
	markedForDeletion []string
}

type rejection struct {
	user, queue, message string
}

// New builds a scheduler from a configuration, refusing it as Hadoop would
// at start (the error's text is Hadoop's message).
func New(conf *config.Conf, profile config.Profile) (*Scheduler, error) {
	if conf == nil {
		conf = config.New()
	}
	parsed, err := config.Parse(conf, profile)
	if err != nil {
		return nil, err
	}
	s := &Scheduler{
		conf:     conf.Clone(),
		parsed:   parsed,
		set:      parsed.Settings,
		profile:  profile.Canonical(),
		rc:       parsed.Settings.Calculator,
		nodeIdx:  map[string]*node{},
		appIdx:   map[string]*app{},
		rejected: map[string]rejection{},
		groups:   map[string][]string{},
		nextID:   1,
		nextSeq:  1,
	}
	s.preempt = newPreemptState()
	s.buildQueues(parsed.Root, nil)
	for _, w := range parsed.Settings.Warnings {
		s.emit(Event{Kind: EvConfigWarning, Detail: w})
	}
	s.updateClusterResource()
	return s, nil
}

// buildQueues creates the live queue tree from a parsed one, pre-order.
// States follow AbstractCSQueue.initializeQueueState for fresh queue objects.
func (s *Scheduler) buildQueues(root *config.QueueConf, old map[string]*queue) {
	s.queues = nil
	s.byPath = map[string]*queue{}
	var build func(c *config.QueueConf, parent *queue) *queue
	build = func(c *config.QueueConf, parent *queue) *queue {
		q := old[c.Path]
		if q == nil || q.isLeaf() != c.IsLeaf() {
			q = &queue{path: c.Path, name: c.Name}
			q.state = initialState(c, parent)
			if c.IsLeaf() {
				q.lf = &leafState{users: map[string]*user{}}
			}
		}
		q.conf = c
		q.parent = parent
		q.children = nil
		q.order, q.opos = nil, nil
		q.id = len(s.queues)
		if parent != nil {
			q.depth = parent.depth + 1
		} else {
			q.depth = 0
		}
		s.queues = append(s.queues, q)
		s.byPath[q.path] = q
		for _, cc := range s.childConfs(c) {
			c := build(cc, q)
			c.cidx = int32(len(q.children))
			c.hpos = c.cidx // the configured order (ParentQueue.setChildQueues)
			q.children = append(q.children, c)
		}
		return q
	}
	s.root = build(root, nil)
}

// childConfs are a queue's configured children, and for a managed parent
// its auto-created leaves in the order they were created.
func (s *Scheduler) childConfs(c *config.QueueConf) []*config.QueueConf {
	if !c.ManagedParent {
		return c.Children
	}
	var out []*config.QueueConf
	for _, a := range s.autoLeaves {
		if a.Parent.Path == c.Path {
			out = append(out, a)
		}
	}
	return out
}

// initialState is the state of a newly created queue object: its configured
// state, else its parent's (DRAINING inherited as STOPPED), root RUNNING.
func initialState(c *config.QueueConf, parent *queue) config.QueueState {
	if c.ConfiguredState != "" {
		return c.ConfiguredState
	}
	if parent == nil {
		return config.Running
	}
	if parent.state == config.Draining {
		return config.Stopped
	}
	return parent.state
}

// emit records an event at the recording level. Only its first check is
// inlined where it is called: the scheduler emits from about sixty places,
// and an inlined append at each of them added 22.6 KB to the gzipped
// app.wasm.
func (s *Scheduler) emit(e Event) {
	if s.rec != RecordNone {
		s.record(&e)
	}
}

// record appends an event, unless the recording level leaves it out.
//
//go:noinline
func (s *Scheduler) record(e *Event) {
	switch s.rec {
	case RecordFull:
	case RecordDecisions:
		if walkKind(e.Kind) {
			return
		}
	default:
		return
	}
	e.Tick = s.now
	s.events = append(s.events, *e)
}

// full reports whether the walk is recorded: the hot path builds its
// events only then.
func (s *Scheduler) full() bool { return s.rec == RecordFull }

// walkKind reports whether events of a kind narrate the walk of a
// heartbeat rather than a change of state (RecordDecisions drops them).
func walkKind(k EventKind) bool {
	switch k {
	case EvHeartbeat, EvAssignPass, EvHeartbeatDone, EvQueueVisit, EvQueueSkipped, EvChildOrder, EvAppConsidered, EvAppSkipped, EvFairOrder:
		return true
	}
	return false
}

// TakeEvents returns the decision record since the last call and clears it.
//
// The record is a copy: the scheduler keeps its buffer for the next
// record, so that recording allocates only what it returns (a buffer grown
// afresh for every record would be allocated and copied several times
// over as it grows). A buffer much larger than the recent records
// (evHint) is let go.
func (s *Scheduler) TakeEvents() []Event {
	if len(s.events) == 0 {
		return nil
	}
	ev := make([]Event, len(s.events))
	copy(ev, s.events)
	s.evHint = max(len(ev), s.evHint/2)
	if cap(s.events) > 8*s.evHint {
		s.events = nil
	} else {
		clear(s.events)
		s.events = s.events[:0]
	}
	return ev
}

// Now is the simulated time in ticks.
func (s *Scheduler) Now() int64 { return s.now }

// nowMS is the simulated time in milliseconds (ticks x heartbeat interval).
func (s *Scheduler) nowMS() int64 { return s.now * s.set.HeartbeatIntervalMS }

// Conf returns a copy of the configuration in force.
func (s *Scheduler) Conf() *config.Conf { return s.conf.Clone() }

// Settings returns the global settings in force.
func (s *Scheduler) Settings() config.Settings { return s.set }

// ClusterResource is the sum of the registered nodes' capacities.
func (s *Scheduler) ClusterResource() resource.Resource { return s.cluster }

// ClusterUsed is the root queue's usage: containers plus reservations.
func (s *Scheduler) ClusterUsed() resource.Resource { return s.root.used }

// SetUserGroups records the groups a user belongs to, for ACL checks.
func (s *Scheduler) SetUserGroups(user string, groups []string) {
	s.invalidate(changeState, nil)
	s.groups[user] = append([]string(nil), groups...)
}

// ErrAmbiguousQueue is returned when a short queue name matches several queues.
var ErrAmbiguousQueue = errors.New("ambiguous queue name")

// lookupQueue finds a queue by full path or by unambiguous short name.
func (s *Scheduler) lookupQueue(name string) (*queue, error) {
	if q, ok := s.byPath[name]; ok {
		return q, nil
	}
	var found *queue
	for _, q := range s.queues {
		if q.name == name {
			if found != nil {
				return nil, fmt.Errorf("%w: %q is the short name of %s and %s; use the full path", ErrAmbiguousQueue, name, found.path, q.path)
			}
			found = q
		}
	}
	if found == nil {
		return nil, fmt.Errorf("unknown queue %q", name)
	}
	return found, nil
}

func (s *Scheduler) minAlloc() resource.Resource { return s.set.MinAlloc }

// maxDown is getEffectiveMaxCapacityDown: the effective maximum rounded down
// to the minimum allocation, as updateClusterResource keeps it.
func (s *Scheduler) maxDown(q *queue) resource.Resource {
	return q.effMaxDown
}

// limits is Hadoop's ResourceLimits: what a parent hands a child for one
// assignment pass.
type limits struct {
	limit, headroom, blocked, unreserve resource.Resource
}

// set makes l the limits handed to a visit: the limit and the headroom, with
// nothing blocked nor to unreserve.
func (l *limits) set(limit resource.Resource) {
	*l = limits{limit: limit, headroom: limit}
}

func (l *limits) net() resource.Resource { return l.limit.Sub(l.blocked) }

// childLimit is ParentQueue.getResourceLimitsOfChild (section 5.2).
func (s *Scheduler) childLimit(p, child *queue, parentLimits *limits, useNet bool) resource.Resource {
	parentLimits.limit = s.rc.Min(s.cluster, parentLimits.limit, p.effMax)
	l := parentLimits.limit
	if useNet {
		l = parentLimits.net()
	}
	avail := l.Sub(p.used)
	cl := avail.Add(child.used)
	cl = s.rc.Min(s.cluster, cl, s.maxDown(child))
	return s.rc.RoundDown(cl, s.minAlloc())
}

// updateClusterResource recomputes effective resources and limits after the
// cluster changed or the configuration was refreshed, then activates pending
// applications (ParentQueue/LeafQueue.updateClusterResource).
func (s *Scheduler) updateClusterResource() {
	s.invalidate(changeCluster, nil)
	s.effectiveResources(true)
	s.updateLimits(s.root, limits{limit: s.cluster, headroom: s.cluster})
	s.sortAllChildren()
}

func (s *Scheduler) updateLimits(q *queue, lim limits) {
	if q.isLeaf() {
		s.updateCurrentLimit(q, &lim)
		q.lf.currentLimit = q.lf.cachedLimit
		s.recalculateUsageRatio(q)
		s.activateApplications(q)
		// LeafQueue.updateClusterResource: userLimitNeedsRecompute, then
		// computeUserLimitAndSetHeadroom for every active application.
		q.lf.usersVer++
		if len(q.lf.active) > 0 {
			s.userLimitComputed(q)
		}
		return
	}
	for _, c := range q.children {
		l := s.childLimit(q, c, &lim, false)
		s.updateLimits(c, limits{limit: l, headroom: l})
	}
}

// updateCurrentLimit is LeafQueue.updateCurrentResourceLimits.
func (s *Scheduler) updateCurrentLimit(q *queue, lim *limits) {
	q.lf.cachedLimit = s.rc.Min(s.cluster, s.maxDown(q), lim.limit)
}

// usedCapacity is CSQueueUtils.updateUsedCapacity: used over the guarantee
// (at least the minimum allocation), and used over the cluster.
func (s *Scheduler) usedCapacity(q *queue) (used, absUsed float32) {
	if !s.rc.GreaterThan(s.cluster, s.cluster, resource.None) {
		return 0, 0
	}
	guar := s.rc.Max(s.cluster, q.effMin, s.minAlloc())
	return s.rc.Divide(s.cluster, q.used, guar), s.rc.Divide(s.cluster, q.used, s.cluster)
}

// hasAccess is the queue ACL check up the hierarchy
// (ConfiguredYarnAuthorizer.checkPermissionInternal).
func (s *Scheduler) hasAccess(q *queue, acl QueueACL, user string, groups []string) bool {
	for ; q != nil; q = q.parent {
		a := q.conf.SubmitACL
		if acl == AdministerQueue {
			a = q.conf.AdminACL
		}
		if a.Allows(user, groups) {
			return true
		}
	}
	return false
}

// CheckAccess reports whether user (in groups, plus the groups recorded with
// SetUserGroups) has the ACL on the queue, checking up to root. It does not
// depend on yarn.acl.enable, which only decides whether submissions are checked.
func (s *Scheduler) CheckAccess(queueName, user string, groups []string, acl QueueACL) (bool, error) {
	q, err := s.lookupQueue(queueName)
	if err != nil {
		return false, err
	}
	if acl != SubmitApplications && acl != AdministerQueue {
		return false, fmt.Errorf("unknown queue ACL %q: use SUBMIT_APPLICATIONS or ADMINISTER_QUEUE", acl)
	}
	return s.hasAccess(q, acl, user, s.userGroups(user, groups)), nil
}

func (s *Scheduler) userGroups(user string, extra []string) []string {
	g := append([]string(nil), s.groups[user]...)
	return append(g, extra...)
}

// sortedUserNames returns a leaf's user names in order: no map iteration
// decides anything.
func sortedUserNames(lf *leafState) []string {
	names := make([]string, 0, len(lf.users))
	for n := range lf.users {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// nodeByName returns a registered node.
func (s *Scheduler) nodeByName(name string) (*node, error) {
	n, ok := s.nodeIdx[name]
	if !ok {
		known := make([]string, 0, 3)
		for i, nn := range s.nodes {
			if i == 3 {
				known = append(known, "…")
				break
			}
			known = append(known, nn.name)
		}
		return nil, fmt.Errorf("unknown node %q (registered: %s)", name, strings.Join(known, ", "))
	}
	return n, nil
}
