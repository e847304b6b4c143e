package core

import "maps"

// Clone returns an independent deep copy of the scheduler, for undo and time
// travel. Immutable parts (parsed queue configurations) are shared.
//
// The copy is made in one pass per kind of object, without maps from old
// to new objects: queues, nodes and applications are found by their index
// (queue.id, node.id, app.idx), a live container by its application's and
// its own index (container.li), and nodes, applications and containers are
// allocated in blocks.
func (s *Scheduler) Clone() *Scheduler {
	c := *s
	c.conf = s.conf.Clone()
	c.groups = make(map[string][]string, len(s.groups))
	for k, v := range s.groups {
		c.groups[k] = append([]string(nil), v...)
	}
	c.rejected = maps.Clone(s.rejected)
	c.events = append([]Event(nil), s.events...)
	c.set.Warnings = append([]string(nil), s.set.Warnings...)
	c.due = nil
	c.lims = make([]limits, len(s.lims))

	queues := make([]queue, len(s.queues))
	c.queues = make([]*queue, len(s.queues))
	c.byPath = make(map[string]*queue, len(s.queues))
	for i, q := range s.queues {
		nq := &queues[i]
		*nq = *q
		if q.lf != nil {
			lf := *q.lf
			lf.memo = leafMemo{} // it may name an application of s
			lf.users = make(map[string]*user, len(q.lf.users))
			users := make([]user, 0, len(q.lf.users))
			for k, u := range q.lf.users {
				users = append(users, *u)
				lf.users[k] = &users[len(users)-1]
			}
			nq.lf = &lf
		}
		c.queues[i] = nq
		c.byPath[nq.path] = nq
	}
	cq := func(q *queue) *queue { return c.queues[q.id] }
	for _, q := range c.queues {
		if q.parent != nil {
			q.parent = cq(q.parent)
		}
		ch := make([]*queue, len(q.children))
		for i, x := range q.children {
			ch[i] = cq(x)
		}
		q.children = ch
		ord := make([]*queue, len(q.order))
		for i, x := range q.order {
			ord[i] = cq(x)
		}
		q.order, q.walk = ord, nil
	}
	c.root = cq(s.root)

	nodes := make([]node, len(s.nodes))
	c.nodes = make([]*node, len(s.nodes))
	c.nodeIdx = make(map[string]*node, len(s.nodes))
	for i, n := range s.nodes {
		nodes[i] = *n
		c.nodes[i] = &nodes[i]
		c.nodeIdx[n.name] = &nodes[i]
	}

	// An application that ended in a queue a refresh then removed still
	// points at the removed queue object, which is no longer in the tree
	// (and whose index may now name another queue): it gets a detached copy,
	// one per removed queue, that nothing schedules.
	detached := map[*queue]*queue{}
	appQueue := func(q *queue) *queue {
		if q.id < len(s.queues) && s.queues[q.id] == q {
			return cq(q)
		}
		if d, ok := detached[q]; ok {
			return d
		}
		d := *q
		d.parent, d.children, d.order, d.walk = nil, nil, nil, nil
		if q.lf != nil {
			lf := *q.lf
			lf.memo = leafMemo{}
			lf.active, lf.pending = nil, nil
			lf.users = make(map[string]*user, len(q.lf.users))
			for k, u := range q.lf.users {
				nu := *u
				lf.users[k] = &nu
			}
			d.lf = &lf
		}
		detached[q] = &d
		return &d
	}

	apps := make([]app, len(s.apps))
	c.apps = make([]*app, len(s.apps))
	c.appIdx = make(map[string]*app, len(s.apps))
	nc := 0
	for i, a := range s.apps {
		na := &apps[i]
		*na = *a
		na.queue = appQueue(a.queue)
		if a.usr != nil {
			na.usr = na.queue.lf.users[a.user]
		}
		na.requests = make([]*request, len(a.requests))
		for j, r := range a.requests {
			nr := *r
			nr.asks = append([]locAsk(nil), r.asks...)
			na.requests[j] = &nr
		}
		c.apps[i] = na
		c.appIdx[na.id] = na
		nc += a.nlive + len(a.reservations)
	}
	ca := func(a *app) *app { return c.apps[a.idx] }

	containers := make([]container, 0, nc)
	cc := func(x *container, a *app) *container {
		containers = append(containers, *x)
		y := &containers[len(containers)-1]
		y.app = a
		y.node = c.nodes[x.node.id]
		return y
	}
	for i, a := range s.apps {
		na := c.apps[i]
		live := make([]*container, len(a.live))
		for j, x := range a.live {
			if x != nil {
				live[j] = cc(x, na)
			}
		}
		na.live = live
		rs := make([]*container, len(a.reservations))
		for j, x := range a.reservations {
			rs[j] = cc(x, na)
		}
		na.reservations = rs
	}
	for _, q := range c.queues {
		if q.lf != nil {
			q.lf.active = remapApps(q.lf.active, ca)
			q.lf.pending = remapApps(q.lf.pending, ca)
		}
	}
	for i, n := range s.nodes {
		cn := c.nodes[i]
		cs := make([]*container, len(n.containers))
		for j, x := range n.containers {
			cs[j] = ca(x.app).live[x.li]
		}
		cn.containers = cs
		if r := n.reservation; r != nil {
			cn.reservation = nil
			for j, x := range r.app.reservations {
				if x == r {
					cn.reservation = ca(r.app).reservations[j]
				}
			}
		}
	}
	c.preempt = s.preempt.clone()
	return &c
}

func remapApps(list []*app, ca func(*app) *app) []*app {
	out := make([]*app, len(list))
	for i, a := range list {
		out[i] = ca(a)
	}
	return out
}
