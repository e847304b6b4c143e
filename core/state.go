package core

import (
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// queue is a live queue: its configuration and its usage.
type queue struct {
	// The child order of section 5.3, kept sorted as usage changes rather
	// than re-sorted on every visit (order.go): kGroup and kTie are the
	// queue's fixed keys in its parent's order (recomputed when the order
	// is), cidx its index in the parent's children. order holds a parent's
	// children sorted, as slots with their keys and their indices in
	// children, and opos each child's place in order (by index in
	// children): moving one among its siblings is then a plain write in the
	// parent's arrays, where moving a pointer would go through the
	// collector's write barrier while it marks.
	kTie   int32
	kGroup uint8
	cidx   int32
	kPrio  int32 // the rank by priority among siblings (slotKey)
	parent *queue
	lf     *leafState // nil for parent queues
	depth  int

	// used includes reserved resources (CSQueue.getUsedResources).
	used, reserved resource.Resource
	// kDiv is what used is over in the parent's order (orderDivisor),
	// kept with the other keys.
	kDiv resource.Resource
	// pending is the aggregate of the outstanding "*" asks of every
	// application below the queue, activated or not.
	pending        resource.Resource
	effMin, effMax resource.Resource
	// effMaxDown is effMax rounded down to the minimum allocation
	// (getEffectiveMaxCapacityDown), set with effMax: the limits of every
	// visit read it.
	effMaxDown resource.Resource
	order      []orderSlot
	opos       []int32

	id int
	// hpos is the queue's place in its parent's child list
	// (ParentQueue.childQueues): the configured order, or after a refresh
	// the HashMap order of ParentQueue.reinitialize (hashorder.go). Ties
	// of the child order, and CSMaxRunningAppsEnforcer's search, follow it.
	hpos     int32
	conf     *config.QueueConf // immutable; shared between clones
	path     string
	name     string
	children []*queue
	state    config.QueueState
	numApps  int // pending + active + non-runnable applications below this queue
	// numRunnable counts the runnable applications below this queue
	// (getNumRunnableApps: a leaf's runnableApps, a parent's count kept
	// by CSMaxRunningAppsEnforcer).
	numRunnable int
	// autoActive is, for an auto-created leaf, whether its parent's
	// queue-management policy has given it the template's capacity
	// (LeafQueueStatePerPartition.isActive); autoActivated is, for a
	// managed parent, the sum of its active leaves' template absolute
	// capacities (ParentQueueState), in float arithmetic.
	autoActive    bool
	autoActivated float32
	// lastSubmittedMS is when the queue last took an application (a
	// leaf) or a dynamic child (a parent), in simulated milliseconds
	// (getLastSubmittedTimestamp), for AutoCreatedQueueDeletionPolicy.
	lastSubmittedMS int64
}

func (q *queue) isLeaf() bool { return q.lf != nil }

// leafState is what only a leaf queue has.
type leafState struct {
	active  []*app // FIFO: application priority desc, then submission order
	pending []*app // waiting for the AM limits, same order
	// fairKeys are, for a fair leaf, the active applications' cached
	// values (same index as active); fairMarked the applications to
	// reorder at the next visit (fair.go).
	fairKeys   []fairKey
	fairMarked []*app
	// nonRunnable are the accepted attempts over a max-parallel-apps
	// limit (LeafQueue.nonRunnableApps), in the order they were added.
	nonRunnable []*app
	users       map[string]*user
	amUsed      resource.Resource

	// cachedLimit is LeafQueue.cachedResourceLimitsForHeadroom;
	// currentLimit is queueResourceLimitsInfo.queueCurrentLimit.
	cachedLimit, currentLimit resource.Resource

	usageRatio    float32 // sum of the users' usage ratios, accumulated as Hadoop does
	activeUsers   int
	activeWeights float32
	activeUsed    resource.Resource

	ul ulMemo // the last user-limit computation and its inputs

	// usersVer is UsersManager.latestVersionOfUsersState, moved where
	// Hadoop calls userLimitNeedsRecompute; seenVer is the version at
	// which the user limit was last computed (the local version),
	// seenOK false before the first computation; pendingOnly is
	// activeUsersWithOnlyPendingApps, the count of users whose
	// applications are all pending as it was at that computation
	// (computeNumActiveUsersWithOnlyPendingApps): a cached figure.
	usersVer, seenVer uint64
	seenOK            bool
	pendingOnly       int
	// livePendingOnly is that count now, kept as users' counts change
	// (countApps), which a computation copies instead of walking the
	// users.
	livePendingOnly int

	// lead is at most the number of active apps at the head of the list
	// with nothing outstanding and no reservation, which an unrecorded
	// visit passes over (visitLeaf). It is set by the visits and reset to
	// 0 by invalidate(changeLeafHead) when an app gains demand or a
	// reservation or the active list changes; an app losing either only
	// lengthens the head.
	lead int

	// gen changes with anything a visit of the leaf reads (invalidate);
	// memo is the last visit that changed nothing (heartbeat.go).
	gen  uint64
	memo leafMemo
}

// leafMemo is a leaf visit that changed nothing, with what it depended on
// besides the leaf's own state (the limit handed down, the cluster and
// configuration generation) and what it left behind.
type leafMemo struct {
	ok                  bool
	gen, cgen           uint64
	limit               resource.Resource
	headroom, unreserve resource.Resource
	cached, current     resource.Resource
	setCurrent          bool
	result              assignment
}

// user is one user of a leaf queue (UsersManager.User). What a visit
// reads of it comes first.
type user struct {
	used resource.Resource // includes reservations

	// The user's limit cached for one leaf visit (LeafQueue.getUserLimitCache):
	// valid while visit equals the scheduler's visit counter;
	// visitReservation is set with visitCanAssign false, and read only then.
	visitLimit       resource.Resource
	visit            uint64
	weight           float32
	usageRatio       float32
	activeAsks       int32 // applications with outstanding requests (usersApplications)
	visitCanAssign   bool
	visitReservation resource.Resource

	name          string
	reserved      resource.Resource
	amUsed        resource.Resource
	activatedApps int32 // User.getActiveApplications: activated attempts
	pendingApps   int32
}

func (u *user) totalApps() int { return int(u.activatedApps + u.pendingApps) }

// pendingOnly reports a user whose applications are all pending
// (computeNumActiveUsersWithOnlyPendingApps's test).
func (u *user) pendingOnly() bool { return u.pendingApps > 0 && u.activatedApps <= 0 }

// countApps changes a user's pending and activated counts by dp and da,
// keeping the leaf's live count of pending-only users.
func (lf *leafState) countApps(u *user, dp, da int32) {
	was := u.pendingOnly()
	u.pendingApps += dp
	u.activatedApps += da
	if now := u.pendingOnly(); now != was {
		if now {
			lf.livePendingOnly++
		} else {
			lf.livePendingOnly--
		}
	}
}

// app is an application with its single attempt. The fields a leaf visit
// reads of every active app come first.
type app struct {
	reservedRes resource.Resource
	usr         *user // the leaf's user of that name, while the app is live
	queue       *queue
	requests    []*request // by request priority, ascending
	// demand is hasOutstanding(), refreshed whenever asks change.
	demand bool
	// runnable is FiCaSchedulerApp.isRunnable (max-parallel-apps).
	runnable bool

	id       string
	idx      int // index in Scheduler.apps
	seq      int64
	user     string
	state    AppState
	priority int

	amResource  resource.Resource // normalised; counts toward AM limits
	hasAM       bool
	amRequested bool
	activated   bool
	askActive   bool  // counted in the user's active applications
	attempt     int32 // the current attempt's number, from 1

	// live holds the running containers in allocation order, with nil
	// where a container completed (so that completing one is O(1));
	// nlive counts the others. The last element is never nil.
	live  []*container
	nlive int32
	// start orders the attempts by when they started (getStartTime); it
	// shares nlive's word, which keeps an app in its size class.
	start        int32
	reservations []*container
	consumption  resource.Resource
	diagnostics  string
	// submitTick and finishTick are the ticks it was submitted and
	// finished (or was killed) at, finishTick 0 while it is live: int32
	// keeps an app in its 256-byte size class (tickInt32 saturates).
	submitTick, finishTick int32
}

// request is a SchedulerRequestKey's placement: the asks at each resource
// name, with the delay-scheduling counters.
type request struct {
	placed         bool              // the placement allocator exists (Hadoop removes it when "*" reaches 0 by an update)
	asks           []locAsk          // resource names in insertion order; "*" included
	size           resource.Resource // the "*" ask's normalised capability
	priority       int
	missed         int // scheduling opportunities
	reReservations int
	numReserved    int
	duration       int64
	isAM           bool
	// label is the request's partition (the "*" ask's node label
	// expression, normalized: getPrimaryRequestedNodePartition);
	// missedNP is missedNonPartitionedReqSchedulingOpportunity.
	label    string
	missedNP int
}

type locAsk struct {
	name  string
	count int
	relax bool
}

func (r *request) ask(name string) *locAsk {
	for i := range r.asks {
		if r.asks[i].name == name {
			return &r.asks[i]
		}
	}
	return nil
}

func (r *request) count(name string) int {
	if a := r.ask(name); a != nil {
		return a.count
	}
	return 0
}

func (r *request) outstanding() int { return r.count(AnyLocation) }

func (r *request) remove(name string) {
	for i := range r.asks {
		if r.asks[i].name == name {
			r.asks = append(r.asks[:i], r.asks[i+1:]...)
			return
		}
	}
}

// container is a live container or a reservation. What completing it
// reads of it comes first.
type container struct {
	app      *app
	li       int // index in app.live, for a live container
	size     resource.Resource
	node     *node
	id       int64
	priority int
	end      int64 // 0: until released
	isAM     bool
	reserved bool
	locality nodeType
	start    int64
}

// addLive appends a container to the app's live containers.
func (a *app) addLive(c *container) {
	c.li = len(a.live)
	a.live = append(a.live, c)
	a.nlive++
}

// removeLive removes a live container, keeping the others' order; the
// slice is compacted when more than half of it is holes.
func (a *app) removeLive(c *container) {
	a.live[c.li] = nil
	a.nlive--
	if c.li == len(a.live)-1 {
		// The last one: the holes before it go too, so that the last
		// element is again not nil. Any other leaves the tail as it is,
		// and its cache line unread.
		n := c.li
		for n > 0 && a.live[n-1] == nil {
			n--
		}
		a.live = a.live[:n]
	}
	if len(a.live) > 2*int(a.nlive)+8 {
		j := 0
		for _, x := range a.live {
			if x != nil {
				x.li = j
				a.live[j] = x
				j++
			}
		}
		clear(a.live[j:])
		a.live = a.live[:j]
	}
}

// node is a registered NodeManager.
type node struct {
	id         int
	name, rack string
	part       string // the node's partition (label), "" the default
	total      resource.Resource
	allocated  resource.Resource
	containers []*container
	// ends holds the containers' end ticks, in the order of containers,
	// so that finding the due ones reads no container.
	ends        []int64
	reservation *container
	// nextEnd is at most the earliest end of the node's containers that end
	// by themselves (0: none), so a heartbeat skips the scan when nothing is due.
	nextEnd int64
	// nextC is the first container in the list that ends at nextEnd, as it
	// was when nextEnd was set: a hint that a tick reads, with its
	// application, ahead of the node's heartbeat (warm). It may be stale
	// (the container completed early); it is only read, never acted on.
	nextC *container
}

func (n *node) unallocated() resource.Resource { return n.total.Sub(n.allocated) }
