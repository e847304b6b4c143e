package core

import (
	"maps"
	"slices"
)

// Clone returns an independent deep copy of the scheduler, for undo and time
// travel.
//
// The copy shares what never changes in place (the configuration, the
// parsed queue configurations, the groups' member lists, the last
// preemption decision) and copies everything else. It is made one kind of
// object after another (clonePhases), without maps from old to new
// objects: queues, nodes and applications are found by their index
// (queue.id, node.id, app.idx), a live container by its application's and
// its own index (container.li); nodes, applications, requests, users and
// containers are allocated in blocks.
func (s *Scheduler) Clone() *Scheduler {
	c := &cloner{src: s}
	for _, phase := range clonePhases {
		phase(c)
	}
	return c.dst
}

// cloner is a copy under way.
type cloner struct {
	src, dst *Scheduler

	// detached holds the copies of removed queues that ended applications
	// still point at (queueOf), unlinked those whose links are still the
	// source's; stale the copies of users that ended applications still
	// point at after the users left their queues (appUser).
	detached map[*queue]*queue
	unlinked []*queue
	stale    map[*user]*user
	// containers is the number of live containers still to copy, to size
	// the container blocks.
	containers int

	// Blocks the copies are taken from (take).
	qblk  []queue
	lblk  []leafState
	ublk  []user
	nblk  []node
	ablk  []app
	rblk  []request
	rpblk []*request
	askb  []locAsk
	cpblk []*container
	endb  []int64
}

// Copies are allocated in blocks of objects of a kind: the nodes, the
// applications and the containers in one block each, requests, users and
// lists in blocks of cloneBlock. Under WebAssembly a few large
// allocations copy faster than many small ones.
const cloneBlock = 8192

// clonePhases are the kinds of objects in the order they are copied.
var clonePhases = []func(c *cloner){
	(*cloner).cloneHeader,
	(*cloner).cloneEvents,
	(*cloner).cloneQueues,
	(*cloner).cloneQueueLinks,
	(*cloner).cloneNodes,
	(*cloner).cloneApps,
	(*cloner).cloneContainers,
	(*cloner).cloneLeafLists,
	(*cloner).cloneDetached,
}

// take returns the next n elements of a block (nil for none), allocating a
// new block of at least chunk elements when it is short. The slice's
// capacity is n: appending to it reallocates rather than overwrite the
// elements of the next one.
func take[T any](blk *[]T, n, chunk int) []T {
	if n == 0 {
		return nil
	}
	if len(*blk) < n {
		*blk = make([]T, max(n, chunk))
	}
	out := (*blk)[:n:n]
	*blk = (*blk)[n:]
	return out
}

// one returns the next element of a block. It is not inlined: its callers
// are not hot enough for the code its copies would add to app.wasm.
//
//go:noinline
func one[T any](blk *[]T, chunk int) *T {
	if len(*blk) == 0 {
		*blk = make([]T, chunk)
	}
	x := &(*blk)[0]
	*blk = (*blk)[1:]
	return x
}

// cloneHeader copies the scheduler's own fields and the small maps, and
// allocates the tables the later phases fill.
func (c *cloner) cloneHeader() {
	s := c.src
	d := new(Scheduler)
	*d = *s
	c.dst = d
	// The configuration is replaced by Refresh, never changed in place;
	// so are the groups' member lists (SetUserGroups).
	d.groups = maps.Clone(s.groups)
	d.lbl = s.lbl.clone()
	d.rejected = maps.Clone(s.rejected)
	d.userRunnable = maps.Clone(s.userRunnable)
	d.set.Warnings = slices.Clone(s.set.Warnings)
	d.events = nil
	if len(s.events) > 0 {
		d.events = make([]Event, len(s.events))
	}
	d.due, d.warmth = nil, 0
	d.blk = allocBlocks{}
	d.preempt = s.preempt.clone()
	d.queues = make([]*queue, len(s.queues))
	d.byPath = make(map[string]*queue, len(s.queues))
	d.nodes = make([]*node, len(s.nodes))
	d.nodeIdx = make(map[string]*node, len(s.nodes))
	d.apps = make([]*app, len(s.apps))
	d.appIdx = make(map[string]*app, len(s.apps))
	c.qblk = make([]queue, len(s.queues))
	c.detached = map[*queue]*queue{}
	c.stale = map[*user]*user{}
}

func (c *cloner) cloneEvents() { copy(c.dst.events, c.src.events) }

func (c *cloner) cloneQueues() {
	s, d := c.src, c.dst
	for i, q := range s.queues {
		nq := &c.qblk[i]
		*nq = *q
		if q.lf != nil {
			nq.lf = c.leaf(q.lf)
		}
		d.queues[i] = nq
		d.byPath[nq.path] = nq
	}
}

// leaf copies a leaf's state and its users; the application lists are
// remapped later (cloneLeafLists).
func (c *cloner) leaf(lf *leafState) *leafState {
	nl := one(&c.lblk, max(1, len(c.src.queues)))
	*nl = *lf
	nl.memo = leafMemo{} // it may name an application of the source
	nl.users = make(map[string]*user, len(lf.users))
	users := take(&c.ublk, len(lf.users), cloneBlock)
	i := 0
	for k, u := range lf.users {
		users[i] = *u
		nl.users[k] = &users[i]
		i++
	}
	return nl
}

func (c *cloner) cloneQueueLinks() {
	d := c.dst
	for _, q := range d.queues {
		q.parent = c.queueOf(q.parent)
		q.children = c.remapQueues(q.children)
		q.order, q.opos = slices.Clone(q.order), slices.Clone(q.opos)
	}
	d.root = c.queueOf(c.src.root)
}

// cloneNodes copies the nodes; their container lists are filled by
// cloneContainers and their reservations by cloneApps.
func (c *cloner) cloneNodes() {
	s, d := c.src, c.dst
	for i, n := range s.nodes {
		cn := one(&c.nblk, len(s.nodes)-i)
		*cn = *n
		cn.containers = take(&c.cpblk, len(n.containers), cloneBlock)
		cn.ends = take(&c.endb, len(n.ends), cloneBlock) // their end ticks, in the same order
		copy(cn.ends, n.ends)
		cn.reservation = nil
		cn.nextC = nil // a hint into the source's containers
		d.nodes[i] = cn
		d.nodeIdx[cn.name] = cn
	}
}

// cloneApps copies the applications with their requests and reservations;
// their live containers are copied by cloneContainers.
func (c *cloner) cloneApps() {
	s, d := c.src, c.dst
	for i, a := range s.apps {
		na := one(&c.ablk, len(s.apps)-i)
		*na = *a
		na.queue = c.queueOf(a.queue)
		if a.usr != nil {
			na.usr = c.appUser(a, na)
		}
		na.requests = take(&c.rpblk, len(a.requests), cloneBlock)
		for j, r := range a.requests {
			nr := one(&c.rblk, cloneBlock)
			*nr = *r
			nr.asks = take(&c.askb, len(r.asks), cloneBlock)
			copy(nr.asks, r.asks)
			na.requests[j] = nr
		}
		na.live = take(&c.cpblk, len(a.live), cloneBlock)
		c.containers += int(a.nlive)
		// The source's list, even empty, may have room an append of
		// either scheduler would then write into for both.
		na.reservations = nil
		if len(a.reservations) > 0 {
			rs := make([]container, len(a.reservations))
			na.reservations = make([]*container, len(a.reservations))
			for j, x := range a.reservations {
				y := &rs[j]
				*y = *x
				y.app = na
				y.node = d.nodes[x.node.id]
				if x.node.reservation == x {
					y.node.reservation = y
				}
				na.reservations[j] = y
			}
		}
		d.apps[i] = na
		d.appIdx[na.id] = na
	}
}

// queueOf is the copy of a queue. An application that ended in a queue a
// refresh then removed still points at the removed queue object, which is
// no longer in the tree (and whose index may now name another queue): it
// gets a copy of its own, whose links cloneDetached fills in.
func (c *cloner) queueOf(q *queue) *queue {
	s := c.src
	if q == nil {
		return nil
	}
	if q.id < len(s.queues) && s.queues[q.id] == q {
		return c.dst.queues[q.id]
	}
	if d, ok := c.detached[q]; ok {
		return d
	}
	d := new(queue)
	*d = *q
	if q.lf != nil {
		d.lf = c.leaf(q.lf)
	}
	c.detached[q] = d
	c.unlinked = append(c.unlinked, q)
	return d
}

// appUser is the copy of an application's user. A live application's user
// is its queue's user of that name (CheckInvariants); an ended one may
// still point at a user that has since left the queue, which gets a copy
// of its own.
func (c *cloner) appUser(a, na *app) *user {
	if a.state == AppAccepted || a.state == AppRunning || a.queue.lf.users[a.user] == a.usr {
		return na.queue.lf.users[a.user]
	}
	if u, ok := c.stale[a.usr]; ok {
		return u
	}
	u := new(user)
	*u = *a.usr
	c.stale[a.usr] = u
	return u
}

// cloneDetached links the copies of removed queues (queueOf) to the copies
// of their parents, children and applications, as the source's are.
func (c *cloner) cloneDetached() {
	for len(c.unlinked) > 0 {
		q := c.unlinked[len(c.unlinked)-1]
		c.unlinked = c.unlinked[:len(c.unlinked)-1]
		d := c.detached[q]
		d.parent = c.queueOf(q.parent)
		d.children = c.remapQueues(q.children)
		d.order, d.opos = slices.Clone(q.order), slices.Clone(q.opos)
		if q.lf != nil {
			d.lf.active = c.remapApps(q.lf.active)
			d.lf.pending = c.remapApps(q.lf.pending)
			d.lf.nonRunnable = c.remapApps(q.lf.nonRunnable)
			d.lf.fairMarked = c.remapApps(q.lf.fairMarked)
			d.lf.fairKeys = slices.Clone(q.lf.fairKeys)
		}
	}
}

func (c *cloner) remapQueues(list []*queue) []*queue {
	out := make([]*queue, len(list))
	for i, q := range list {
		out[i] = c.queueOf(q)
	}
	return out
}

// cloneContainers copies the live containers node by node, filling the
// nodes' lists and the applications' live lists (every live container is
// on its node's list, and at index li of its application's).
func (c *cloner) cloneContainers() {
	apps := c.dst.apps
	var blk []container
	remaining := c.containers
	for i, n := range c.src.nodes {
		cn := c.dst.nodes[i]
		for j, x := range n.containers {
			if len(blk) == 0 {
				blk = make([]container, max(1, remaining))
			}
			y := &blk[0]
			blk = blk[1:]
			remaining--
			*y = *x
			na := apps[x.app.idx]
			y.app, y.node = na, cn
			cn.containers[j] = y
			na.live[x.li] = y
		}
	}
}

// cloneLeafLists remaps the leaves' active and pending applications.
func (c *cloner) cloneLeafLists() {
	for _, q := range c.dst.queues {
		lf := q.lf
		if lf == nil {
			continue
		}
		lf.active = c.remapApps(lf.active)
		lf.pending = c.remapApps(lf.pending)
		lf.nonRunnable = c.remapApps(lf.nonRunnable)
		lf.fairMarked = c.remapApps(lf.fairMarked)
		lf.fairKeys = slices.Clone(lf.fairKeys)
	}
}

func (c *cloner) remapApps(list []*app) []*app {
	out := make([]*app, len(list))
	for i, a := range list {
		out[i] = c.dst.apps[a.idx]
	}
	return out
}
