package core

import (
	"fmt"
	"math"

	"yarnplay/core/resource"
)

// CheckInvariants verifies the scheduler's bookkeeping: every total agrees
// between containers, nodes, applications, users, queues and the cluster; no
// node is over-allocated; at most one reservation per node. That no allocation takes a queue above
// its effective maximum is checked by the tests across steps, since a cluster
// that shrinks or a refresh can leave a queue above it without any allocation.
// Application states are valid. It returns the first
// violation found. Tests run it after every step of random workloads.
func (s *Scheduler) CheckInvariants() error {
	rc := s.rc
	var cluster resource.Resource
	for _, n := range s.nodes {
		if n.part == "" {
			cluster = cluster.Add(n.total)
		}
		var sum resource.Resource
		if len(n.ends) != len(n.containers) {
			return fmt.Errorf("node %s: %d containers but %d end ticks", n.name, len(n.containers), len(n.ends))
		}
		for i, c := range n.containers {
			if c.node != n || c.reserved {
				return fmt.Errorf("node %s lists container %d that is not a live container on it", n.name, c.id)
			}
			if n.ends[i] != c.end {
				return fmt.Errorf("node %s: container %d ends at %d, but the node says %d", n.name, c.id, c.end, n.ends[i])
			}
			sum = sum.Add(c.size)
		}
		if sum != n.allocated {
			return fmt.Errorf("node %s: allocated %s but its containers sum to %s", n.name, n.allocated, sum)
		}
		if !rc.FitsIn(n.allocated, n.total) {
			return fmt.Errorf("node %s is over-allocated: %s of %s", n.name, n.allocated, n.total)
		}
		if r := n.reservation; r != nil && (!r.reserved || r.node != n) {
			return fmt.Errorf("node %s: its reservation %d is not a reservation on it", n.name, r.id)
		}
	}
	if cluster != s.cluster {
		return fmt.Errorf("cluster resource %s but nodes sum to %s", s.cluster, cluster)
	}
	if keyed := rc.GreaterThan(cluster, cluster, resource.None); s.keyed != keyed {
		return fmt.Errorf("the child order's keys take the cluster %s as having resources: %v, but it has: %v", cluster, s.keyed, keyed)
	}
	type agg struct{ used, reserved, am resource.Resource }
	users := map[*queue]map[string]*agg{}
	pending := map[*queue]resource.Resource{}
	for _, a := range s.apps {
		var cons, res, defUsed, defRes resource.Resource
		n := 0
		for i, c := range a.live {
			if c == nil {
				continue
			}
			n++
			if c.li != i {
				return fmt.Errorf("app %s: container %d at %d of its live list says %d", a.id, c.id, i, c.li)
			}
			if c.app != a || c.reserved {
				return fmt.Errorf("app %s lists container %d that is not its live container", a.id, c.id)
			}
			found := false
			for _, x := range c.node.containers {
				found = found || x == c
			}
			if !found {
				return fmt.Errorf("app %s: container %d is not on node %s", a.id, c.id, c.node.name)
			}
			cons = cons.Add(c.size)
			if c.node.part == "" {
				defUsed = defUsed.Add(c.size)
			}
		}
		for _, c := range a.reservations {
			if c.node.reservation != c {
				return fmt.Errorf("app %s: reservation %d is not its node %s's reservation", a.id, c.id, c.node.name)
			}
			res = res.Add(c.size)
			if c.node.part == "" {
				defRes = defRes.Add(c.size)
			}
		}
		if n != int(a.nlive) || (len(a.live) > 0 && a.live[len(a.live)-1] == nil) {
			return fmt.Errorf("app %s: %d live containers counted, %d listed", a.id, a.nlive, n)
		}
		if cons != a.consumption || res != a.reservedRes {
			return fmt.Errorf("app %s: consumption %s / reserved %s but containers sum to %s / %s", a.id, a.consumption, a.reservedRes, cons, res)
		}
		if a.demand != a.hasOutstanding() {
			return fmt.Errorf("app %s: demand %v but its requests say %v", a.id, a.demand, a.hasOutstanding())
		}
		live := a.state == AppAccepted || a.state == AppRunning
		if !live && (a.nlive > 0 || len(a.reservations) > 0) {
			return fmt.Errorf("app %s is %s but holds containers", a.id, a.state)
		}
		if !live {
			continue
		}
		if a.usr == nil || a.usr != a.queue.lf.users[a.user] {
			return fmt.Errorf("app %s: its user is not its queue's user %s", a.id, a.user)
		}
		if users[a.queue] == nil {
			users[a.queue] = map[string]*agg{}
		}
		g := users[a.queue][a.user]
		if g == nil {
			g = &agg{}
			users[a.queue][a.user] = g
		}
		g.used = g.used.Add(defUsed).Add(defRes)
		g.reserved = g.reserved.Add(defRes)
		if a.activated && s.amPartition(a) == "" {
			g.am = g.am.Add(a.amResource)
		}
		for _, r := range a.requests {
			if r.placed && r.outstanding() > 0 && r.label == "" {
				pending[a.queue] = pending[a.queue].Add(r.size.Times(int64(r.outstanding())))
			}
		}
	}
	for _, n := range s.nodes {
		if r := n.reservation; r != nil {
			found := false
			for _, x := range r.app.reservations {
				found = found || x == r
			}
			if !found {
				return fmt.Errorf("node %s is reserved by %s, which does not list the reservation", n.name, r.app.id)
			}
		}
	}
	for i := len(s.queues) - 1; i >= 0; i-- {
		q := s.queues[i]
		if down := rc.RoundDown(q.effMax, s.minAlloc()); q.effMaxDown != down {
			return fmt.Errorf("queue %s: keeps %s as its maximum rounded down, but %s rounds down to %s", q.path, q.effMaxDown, q.effMax, down)
		}
		if q.isLeaf() {
			var used, reserved, am resource.Resource
			for _, name := range sortedUserNames(q.lf) {
				u := q.lf.users[name]
				g := users[q][name]
				if g == nil {
					g = &agg{}
				}
				if u.used != g.used || u.reserved != g.reserved || u.amUsed != g.am {
					return fmt.Errorf("queue %s user %s: used %s reserved %s AM %s, but its apps sum to %s / %s / %s", q.path, name, u.used, u.reserved, u.amUsed, g.used, g.reserved, g.am)
				}
				used, reserved, am = used.Add(u.used), reserved.Add(u.reserved), am.Add(u.amUsed)
			}
			if used != q.used || reserved != q.reserved || am != q.lf.amUsed {
				return fmt.Errorf("queue %s: used %s reserved %s AM %s, but its users sum to %s / %s / %s", q.path, q.used, q.reserved, q.lf.amUsed, used, reserved, am)
			}
			if pending[q] != q.pending {
				return fmt.Errorf("queue %s: pending %s, but its apps' outstanding asks sum to %s", q.path, q.pending, pending[q])
			}
			if q.lf.lead > len(q.lf.active) {
				return fmt.Errorf("queue %s: a head of %d apps of %d active", q.path, q.lf.lead, len(q.lf.active))
			}
			for _, a := range q.lf.active[:q.lf.lead] {
				if a.demand || !a.reservedRes.IsZero() {
					return fmt.Errorf("queue %s: app %s is in the head a visit passes over, but has demand or a reservation", q.path, a.id)
				}
			}
			if m := &q.lf.ul; s.ulValid(q) {
				var t UserLimitTerms
				s.computeUserLimit(q, &t)
				if t.Limit != m.limit {
					return fmt.Errorf("queue %s: the user limit kept is %s, but it is %s now", q.path, m.limit, t.Limit)
				}
				if m.weightedOK {
					w := math.Float32frombits(m.weightBits)
					if want := s.rc.MultiplyAndNormalizeDown(t.Limit, float64(w), s.minAlloc()); want != m.weighted {
						return fmt.Errorf("queue %s: the user limit kept for weight %g is %s, but it is %s now", q.path, w, m.weighted, want)
					}
				}
			}
			if q.numApps != len(q.lf.active)+len(q.lf.pending)+len(q.lf.nonRunnable) {
				return fmt.Errorf("queue %s: %d applications counted, %d active + %d pending + %d non-runnable", q.path, q.numApps, len(q.lf.active), len(q.lf.pending), len(q.lf.nonRunnable))
			}
			if isFair(q) {
				if len(q.lf.fairKeys) != len(q.lf.active) {
					return fmt.Errorf("queue %s: %d fair keys for %d active apps", q.path, len(q.lf.fairKeys), len(q.lf.active))
				}
				for i := 1; i < len(q.lf.active); i++ {
					if fairCompare(q.lf.active[i-1], q.lf.fairKeys[i-1], q.lf.active[i], q.lf.fairKeys[i], q.conf.FairSizeBasedWeight) >= 0 {
						return fmt.Errorf("queue %s: active app %s is out of the fair order", q.path, q.lf.active[i].id)
					}
				}
			} else if len(q.lf.fairKeys) > 0 || len(q.lf.fairMarked) > 0 {
				return fmt.Errorf("queue %s: a fifo leaf keeps fair keys", q.path)
			}
			po := 0
			for _, u := range q.lf.users {
				if u.pendingOnly() {
					po++
				}
			}
			if po != q.lf.livePendingOnly {
				return fmt.Errorf("queue %s: %d users with only pending applications counted, %d have", q.path, q.lf.livePendingOnly, po)
			}
			if q.numRunnable != len(q.lf.active)+len(q.lf.pending) {
				return fmt.Errorf("queue %s: %d runnable applications counted, %d active + %d pending", q.path, q.numRunnable, len(q.lf.active), len(q.lf.pending))
			}
		} else {
			var used, reserved, pend resource.Resource
			n, runnable := 0, 0
			for _, c := range q.children {
				used, reserved, pend = used.Add(c.used), reserved.Add(c.reserved), pend.Add(c.pending)
				n += c.numApps
				runnable += c.numRunnable
			}
			if runnable != q.numRunnable {
				return fmt.Errorf("queue %s: %d runnable applications counted, its children's sum to %d", q.path, q.numRunnable, runnable)
			}
			if used != q.used || reserved != q.reserved || pend != q.pending || n != q.numApps {
				return fmt.Errorf("queue %s: used %s reserved %s pending %s apps %d, but its children sum to %s / %s / %s / %d", q.path, q.used, q.reserved, q.pending, q.numApps, used, reserved, pend, n)
			}
			if err := s.checkChildOrder(q); err != nil {
				return err
			}
		}
	}
	if err := s.checkPartitions(); err != nil {
		return err
	}
	if err := s.checkDynamic(); err != nil {
		return err
	}
	return s.checkAutoCreated()
}

// checkChildOrder checks a parent's kept child order (order.go): a
// permutation of its children, each knowing its place, each with its
// order keys up to date, sorted by them.
func (s *Scheduler) checkChildOrder(p *queue) error {
	if len(p.order) != len(p.children) {
		return fmt.Errorf("queue %s: %d children but %d in its order", p.path, len(p.children), len(p.order))
	}
	if len(p.opos) != len(p.children) {
		return fmt.Errorf("queue %s: %d children but %d places in its order", p.path, len(p.children), len(p.opos))
	}
	seen := make([]bool, len(p.children))
	for i, o := range p.order {
		ci := o.child
		if ci < 0 || int(ci) >= len(p.children) || seen[ci] {
			return fmt.Errorf("queue %s: its order %v is not a permutation of its %d children", p.path, p.order, len(p.children))
		}
		seen[ci] = true
		c := p.children[ci]
		if c.cidx != ci {
			return fmt.Errorf("queue %s: child %s is child %d but says %d", p.path, c.path, ci, c.cidx)
		}
		if int(p.opos[ci]) != i {
			return fmt.Errorf("queue %s: child %s is at %d of its order but its place says %d", p.path, c.path, i, p.opos[ci])
		}
		if d := s.orderDivisor(c); c.kDiv != d {
			return fmt.Errorf("queue %s: keeps %s as what its used capacity is over, but its capacity gives %s", c.path, c.kDiv, d)
		}
		if k := s.slotOf(c); k != o {
			return fmt.Errorf("queue %s: child %s keeps the order keys %+v but its usage and capacity give %+v", p.path, c.path, o, k)
		}
		if i > 0 && o.key <= p.order[i-1].key {
			return fmt.Errorf("queue %s: child %s goes before %s but follows it", p.path, c.path, p.children[p.order[i-1].child].path)
		}
	}
	return nil
}
