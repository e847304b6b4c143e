package core

import (
	"errors"
	"maps"
	"slices"
)

// Clone returns an independent deep copy of the scheduler, for undo and time
// travel (what it shares with the original is never changed in place: see
// Cloner). It is BeginClone and one Step without a budget.
func (s *Scheduler) Clone() *Scheduler {
	c := s.BeginClone()
	if _, err := c.Step(0); err != nil {
		panic("core: Clone: " + err.Error()) // the source cannot change during one Step
	}
	d, err := c.Scheduler()
	if err != nil {
		panic("core: Clone: " + err.Error())
	}
	return d
}

// ErrCloneSourceChanged is returned by Cloner.Step and Cloner.Scheduler when
// the scheduler being copied changed between BeginClone and the end of the
// copy: the copy is abandoned.
var ErrCloneSourceChanged = errors.New("the scheduler changed while it was being cloned; the copy is abandoned")

// ErrCloneUnfinished is returned by Cloner.Scheduler before the copy is
// complete.
var ErrCloneUnfinished = errors.New("the clone is not finished: call Step until it reports done")

// Cloner copies a scheduler in steps, so that a large copy can be spread
// over several tasks of a page (BeginClone). The scheduler must not change
// until the copy is done; if it does, the next Step reports
// ErrCloneSourceChanged rather than finishing a copy of a mixture of
// states. Reading the scheduler (its views) between steps is fine.
//
// The copy shares what never changes in place (the configuration, the
// parsed queue configurations, the groups' member lists, the last
// preemption decision) and copies everything else. It is made one kind of
// object after another, without maps from old to new objects: queues,
// nodes and applications are found by their index (queue.id, node.id,
// app.idx), a live container by its application's and its own index
// (container.li); nodes, applications, requests, users and containers are
// allocated in blocks.
type Cloner struct {
	src, dst *Scheduler
	mark     cloneMark
	phase    int
	i, j     int // the phase's position: an object, and a part of it
	copied   int
	err      error
	chunk    int // the size of the blocks this Step allocates (block)

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
	cblk  []container
	cpblk []*container
	endb  []int64
}

// cloneMark is what changes whenever a scheduler does: every exported
// method that changes state bumps gen (changed), counts a heartbeat, moves
// time, takes events or sets the recording level.
type cloneMark struct {
	gen, cgen               uint64
	now, nextID, nextSeq    int64
	count                   Counters
	events, apps, nodes, qs int
	rec                     RecordLevel
}

func (s *Scheduler) cloneMark() cloneMark {
	return cloneMark{gen: s.walk.gen, cgen: s.walk.cluster, now: s.now, nextID: s.nextID, nextSeq: s.nextSeq, count: s.count,
		events: len(s.events), apps: len(s.apps), nodes: len(s.nodes), qs: len(s.queues), rec: s.rec}
}

// BeginClone starts a copy of the scheduler made in steps (Cloner.Step); it
// copies nothing yet. Clone is BeginClone and one unbounded Step.
func (s *Scheduler) BeginClone() *Cloner {
	return &Cloner{src: s, mark: s.cloneMark()}
}

// Copies are allocated in blocks of objects of a kind. An unbounded Step
// (Clone) allocates the nodes, the applications and the containers in one
// block each, and requests, users and lists in blocks of cloneBlock: under
// WebAssembly a few large allocations copy faster than many small ones. A
// bounded Step allocates blocks of about its budget (at least
// minCloneBlock objects), so that the memory a Step allocates, and the
// garbage collector's work it is charged for (mark assists, proportional
// to allocation), stays in proportion to its budget.
const (
	cloneBlock    = 8192
	minCloneBlock = 256
)

// block is the size of the next block of a kind of which n remain (or of
// which n is a bound).
func (c *Cloner) block(n int) int { return max(1, min(n, c.chunk)) }

// Step copies about budget more objects (a budget of 0 or less: all that
// remain) and reports whether the Cloner has finished, successfully or not.
// A queue, a user, a node, an application, a request, a container or
// reservation, an event, a group and an entry of a leaf's application lists
// count one object each; a Step copies at least one object, and never
// splits a queue's users or an application's requests. The work is
// deterministic: the same scheduler and budgets take the same steps.
//
// If the scheduler changed since BeginClone, Step returns
// ErrCloneSourceChanged (and so does every later Step).
func (c *Cloner) Step(budget int) (bool, error) {
	if c.err != nil {
		return true, c.err
	}
	if c.phase == len(clonePhases) {
		return true, nil
	}
	if c.src.cloneMark() != c.mark {
		c.err = ErrCloneSourceChanged
		c.release()
		return true, c.err
	}
	if budget <= 0 {
		budget = int(^uint(0) >> 1)
	}
	c.chunk = max(budget, minCloneBlock)
	for left := budget; left > 0 && c.phase < len(clonePhases); {
		n := clonePhases[c.phase](c, left)
		left -= n
		c.copied += n
	}
	if c.phase < len(clonePhases) {
		return false, nil
	}
	c.release()
	return true, nil
}

// Scheduler returns the finished copy, ErrCloneUnfinished before the last
// Step, or ErrCloneSourceChanged.
func (c *Cloner) Scheduler() (*Scheduler, error) {
	if c.err != nil {
		return nil, c.err
	}
	if c.phase < len(clonePhases) {
		return nil, ErrCloneUnfinished
	}
	return c.dst, nil
}

// Copied is the number of objects copied so far (as Step counts them).
func (c *Cloner) Copied() int { return c.copied }

// release drops what the Cloner no longer needs once it has finished.
func (c *Cloner) release() {
	dst := c.dst
	if c.err != nil {
		dst = nil
	}
	*c = Cloner{dst: dst, phase: c.phase, copied: c.copied, err: c.err}
}

// clonePhases are the kinds of objects in the order they are copied. Each
// copies at least one object (or moves to the next phase when none is
// left) and at most about left, and returns how many it copied.
var clonePhases = []func(c *Cloner, left int) int{
	(*Cloner).cloneHeader,
	(*Cloner).cloneEvents,
	(*Cloner).cloneQueues,
	(*Cloner).cloneQueueLinks,
	(*Cloner).cloneNodes,
	(*Cloner).cloneApps,
	(*Cloner).cloneContainers,
	(*Cloner).cloneLeafLists,
	(*Cloner).cloneDetached,
}

// next moves to the next phase.
func (c *Cloner) next() { c.phase, c.i, c.j = c.phase+1, 0, 0 }

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
func (c *Cloner) cloneHeader(int) int {
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
	c.next()
	return 1 + len(s.groups) + len(s.rejected)
}

func (c *Cloner) cloneEvents(left int) int {
	n := min(left, len(c.src.events)-c.i)
	copy(c.dst.events[c.i:c.i+n], c.src.events[c.i:])
	c.i += n
	if c.i == len(c.src.events) {
		c.next()
	}
	return n
}

func (c *Cloner) cloneQueues(left int) int {
	s, d, n := c.src, c.dst, 0
	for ; c.i < len(s.queues) && n < left; c.i++ {
		q := s.queues[c.i]
		nq := &c.qblk[c.i]
		*nq = *q
		if q.lf != nil {
			nq.lf = c.leaf(q.lf)
			n += len(q.lf.users)
		}
		d.queues[c.i] = nq
		d.byPath[nq.path] = nq
		n++
	}
	if c.i == len(s.queues) {
		c.next()
	}
	return n
}

// leaf copies a leaf's state and its users; the application lists are
// remapped later (cloneLeafLists).
func (c *Cloner) leaf(lf *leafState) *leafState {
	nl := one(&c.lblk, c.block(len(c.src.queues)))
	*nl = *lf
	nl.memo = leafMemo{} // it may name an application of the source
	nl.users = make(map[string]*user, len(lf.users))
	users := take(&c.ublk, len(lf.users), c.block(cloneBlock))
	i := 0
	for k, u := range lf.users {
		users[i] = *u
		nl.users[k] = &users[i]
		i++
	}
	return nl
}

func (c *Cloner) cloneQueueLinks(left int) int {
	d, n := c.dst, 0
	for ; c.i < len(d.queues) && n < left; c.i++ {
		q := d.queues[c.i]
		q.parent = c.queueOf(q.parent)
		q.children = c.remapQueues(q.children)
		q.order, q.opos = slices.Clone(q.order), slices.Clone(q.opos)
		n++
	}
	if c.i == len(d.queues) {
		d.root = c.queueOf(c.src.root)
		c.next()
	}
	return n
}

// cloneNodes copies the nodes; their container lists are filled by
// cloneContainers and their reservations by cloneApps.
func (c *Cloner) cloneNodes(left int) int {
	s, d := c.src, c.dst
	end := min(len(s.nodes), c.i+left)
	for i := c.i; i < end; i++ {
		n := s.nodes[i]
		cn := one(&c.nblk, c.block(len(s.nodes)-i))
		*cn = *n
		cn.containers = take(&c.cpblk, len(n.containers), c.block(cloneBlock))
		cn.ends = take(&c.endb, len(n.ends), c.block(cloneBlock)) // their end ticks, in the same order
		copy(cn.ends, n.ends)
		cn.reservation = nil
		cn.nextC = nil // a hint into the source's containers
		d.nodes[i] = cn
		d.nodeIdx[cn.name] = cn
	}
	n := end - c.i
	c.i = end
	if c.i == len(s.nodes) {
		c.next()
	}
	return n
}

// cloneApps copies the applications with their requests and reservations;
// their live containers are copied by cloneContainers.
func (c *Cloner) cloneApps(left int) int {
	s, d, n := c.src, c.dst, 0
	for ; c.i < len(s.apps) && n < left; c.i++ {
		a := s.apps[c.i]
		na := one(&c.ablk, c.block(len(s.apps)-c.i))
		*na = *a
		na.queue = c.queueOf(a.queue)
		if a.usr != nil {
			na.usr = c.appUser(a, na)
		}
		na.requests = take(&c.rpblk, len(a.requests), c.block(cloneBlock))
		for j, r := range a.requests {
			nr := one(&c.rblk, c.block(cloneBlock))
			*nr = *r
			nr.asks = take(&c.askb, len(r.asks), c.block(cloneBlock))
			copy(nr.asks, r.asks)
			na.requests[j] = nr
		}
		na.live = take(&c.cpblk, len(a.live), c.block(cloneBlock))
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
		d.apps[c.i] = na
		d.appIdx[na.id] = na
		n += 1 + len(a.requests) + len(a.reservations)
	}
	if c.i == len(s.apps) {
		c.next()
	}
	return n
}

// queueOf is the copy of a queue. An application that ended in a queue a
// refresh then removed still points at the removed queue object, which is
// no longer in the tree (and whose index may now name another queue): it
// gets a copy of its own, whose links cloneDetached fills in.
func (c *Cloner) queueOf(q *queue) *queue {
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
func (c *Cloner) appUser(a, na *app) *user {
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
func (c *Cloner) cloneDetached(int) int {
	n := 0
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
		n++
	}
	c.next()
	return n
}

func (c *Cloner) remapQueues(list []*queue) []*queue {
	out := make([]*queue, len(list))
	for i, q := range list {
		out[i] = c.queueOf(q)
	}
	return out
}

// cloneContainers copies the live containers node by node, filling the
// nodes' lists and the applications' live lists (every live container is
// on its node's list, and at index li of its application's).
func (c *Cloner) cloneContainers(left int) int {
	s, n := c.src, 0
	apps, nodes := c.dst.apps, c.dst.nodes
	blk, remaining := c.cblk, c.containers // locals: the loop stores through pointers
	for c.i < len(s.nodes) && n < left {
		src := s.nodes[c.i].containers
		cn := nodes[c.i]
		dst := cn.containers
		end := min(len(src), c.j+left-n)
		for j := c.j; j < end; j++ {
			x := src[j]
			if len(blk) == 0 {
				blk = make([]container, c.block(remaining))
			}
			y := &blk[0]
			blk = blk[1:]
			remaining--
			*y = *x
			na := apps[x.app.idx]
			y.app, y.node = na, cn
			dst[j] = y
			na.live[x.li] = y
		}
		n += end - c.j
		c.j = end
		if c.j == len(src) {
			c.i, c.j = c.i+1, 0
		}
	}
	c.cblk, c.containers = blk, remaining
	if c.i == len(s.nodes) {
		c.next()
	}
	return n
}

// cloneLeafLists remaps the leaves' active and pending applications.
func (c *Cloner) cloneLeafLists(left int) int {
	d, n := c.dst, 0
	for ; c.i < len(d.queues) && n < left; c.i++ {
		lf := d.queues[c.i].lf
		if lf == nil {
			n++
			continue
		}
		lf.active = c.remapApps(lf.active)
		lf.pending = c.remapApps(lf.pending)
		lf.nonRunnable = c.remapApps(lf.nonRunnable)
		lf.fairMarked = c.remapApps(lf.fairMarked)
		lf.fairKeys = slices.Clone(lf.fairKeys)
		n += 1 + len(lf.active) + len(lf.pending) + len(lf.nonRunnable)
	}
	if c.i == len(d.queues) {
		c.next()
	}
	return n
}

func (c *Cloner) remapApps(list []*app) []*app {
	out := make([]*app, len(list))
	for i, a := range list {
		out[i] = c.dst.apps[a.idx]
	}
	return out
}
