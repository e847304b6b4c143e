package core

import "maps"

// Clone returns an independent deep copy of the scheduler, for undo and time
// travel. Immutable parts (parsed queue configurations) are shared.
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

	qmap := make(map[*queue]*queue, len(s.queues))
	c.queues = make([]*queue, len(s.queues))
	c.byPath = make(map[string]*queue, len(s.queues))
	for i, q := range s.queues {
		nq := *q
		if q.lf != nil {
			lf := *q.lf
			lf.users = make(map[string]*user, len(q.lf.users))
			for k, u := range q.lf.users {
				nu := *u
				lf.users[k] = &nu
			}
			nq.lf = &lf
		}
		c.queues[i] = &nq
		c.byPath[nq.path] = &nq
		qmap[q] = &nq
	}
	for _, q := range c.queues {
		if q.parent != nil {
			q.parent = qmap[q.parent]
		}
		ch := make([]*queue, len(q.children))
		for i, x := range q.children {
			ch[i] = qmap[x]
		}
		q.children = ch
		ord := make([]*queue, len(q.order))
		for i, x := range q.order {
			ord[i] = qmap[x]
		}
		q.order, q.walk = ord, nil
	}
	c.root = qmap[s.root]

	nmap := make(map[*node]*node, len(s.nodes))
	c.nodes = make([]*node, len(s.nodes))
	c.nodeIdx = make(map[string]*node, len(s.nodes))
	for i, n := range s.nodes {
		nn := *n
		c.nodes[i] = &nn
		c.nodeIdx[nn.name] = &nn
		nmap[n] = &nn
	}

	amap := make(map[*app]*app, len(s.apps))
	c.apps = make([]*app, len(s.apps))
	c.appIdx = make(map[string]*app, len(s.apps))
	for i, a := range s.apps {
		na := *a
		na.queue = qmap[a.queue]
		if a.usr != nil {
			na.usr = na.queue.lf.users[a.user]
		}
		na.requests = make([]*request, len(a.requests))
		for j, r := range a.requests {
			nr := *r
			nr.asks = append([]locAsk(nil), r.asks...)
			na.requests[j] = &nr
		}
		c.apps[i] = &na
		c.appIdx[na.id] = &na
		amap[a] = &na
	}
	cmap := map[*container]*container{}
	cc := func(x *container) *container {
		if x == nil {
			return nil
		}
		if y, ok := cmap[x]; ok {
			return y
		}
		y := *x
		y.app = amap[x.app]
		y.node = nmap[x.node]
		cmap[x] = &y
		return &y
	}
	remapApps := func(list []*app) []*app {
		out := make([]*app, len(list))
		for i, a := range list {
			out[i] = amap[a]
		}
		return out
	}
	for _, q := range c.queues {
		if q.lf != nil {
			q.lf.active = remapApps(q.lf.active)
			q.lf.pending = remapApps(q.lf.pending)
		}
	}
	for _, a := range c.apps {
		live := make([]*container, len(a.live))
		for i, x := range a.live {
			if x != nil {
				live[i] = cc(x)
			}
		}
		a.live = live
		rs := make([]*container, len(a.reservations))
		for i, x := range a.reservations {
			rs[i] = cc(x)
		}
		a.reservations = rs
	}
	for _, n := range c.nodes {
		cs := make([]*container, len(n.containers))
		for i, x := range n.containers {
			cs[i] = cc(x)
		}
		n.containers = cs
		n.reservation = cc(n.reservation)
	}
	c.preempt = s.preempt.clone(cmap)
	return &c
}
