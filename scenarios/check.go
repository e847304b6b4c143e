package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// fractionTolerance is how close a fraction must be to its expectation.
const fractionTolerance = 1e-4

// checker checks one expect step.
type checker struct {
	p    *Player
	step int
	out  []Mismatch
}

func (c *checker) fail(path, expected, found string) {
	c.out = append(c.out, Mismatch{Step: c.step, Path: "expect." + path, Expected: expected, Found: found})
}

// queue finds a queue by full path or unambiguous short name.
func (c *checker) queue(key, name string) (core.QueueView, bool) {
	q, err := c.p.s.Queue(name)
	if err != nil {
		c.fail(key+"."+name, "a queue "+name, "none: "+err.Error())
		return q, false
	}
	return q, true
}

func (c *checker) app(key, id string) (core.AppView, bool) {
	a, ok := c.p.s.App(id)
	if !ok {
		c.fail(key+"."+id, "an application "+id, "none")
	}
	return a, ok
}

func (c *checker) node(key, name string) (core.NodeView, bool) {
	n, ok := c.p.s.Node(name)
	if !ok {
		c.fail(key+"."+name, "a node "+name, "none")
	}
	return n, ok
}

// res compares a resource; without expected vcores only memory counts.
func (c *checker) res(path string, want ExpRes, got resource.Resource) {
	if got.MemoryMB == want.MemoryMB && (want.VCores == nil || *want.VCores == got.VCores) {
		return
	}
	c.fail(path, want.String(), formatRes(got, want.VCores != nil))
}

func (c *checker) num(path string, want, got int) {
	if want != got {
		c.fail(path, strconv.Itoa(want), strconv.Itoa(got))
	}
}

func (c *checker) text(path, want, got string) {
	if !strings.EqualFold(want, got) {
		c.fail(path, want, orDefault(got, `""`))
	}
}

func (c *checker) fraction(path string, want *float64, got float32) {
	if want != nil && math.Abs(*want-float64(got)) > fractionTolerance {
		c.fail(path, formatFloat(*want), formatFloat(float64(got)))
	}
}

// String renders an expected resource as Hadoop does, memory only when
// vcores are not compared: <memory:2048> or <memory:2048, vCores:1>.
func (r ExpRes) String() string {
	if r.VCores == nil {
		return fmt.Sprintf("<memory:%d>", r.MemoryMB)
	}
	return fmt.Sprintf("<memory:%d, vCores:%d>", r.MemoryMB, *r.VCores)
}

func formatRes(r resource.Resource, withVCores bool) string {
	if !withVCores {
		return fmt.Sprintf("<memory:%d>", r.MemoryMB)
	}
	return r.String()
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// checkExpect checks every key of an expect step and returns what did not
// hold.
func (p *Player) checkExpect(step int, e *Expect) []Mismatch {
	c := &checker{p: p, step: step}
	c.queues(e)
	c.users(e)
	c.apps(e)
	c.nodes(e)
	c.preemption(e)
	return c.out
}

// queueRes checks {queue: res} against a field of the queue's view.
func (c *checker) queueRes(key string, m map[string]ExpRes, field func(core.QueueView) resource.Resource) {
	for _, name := range sortedKeys(m) {
		if q, ok := c.queue(key, name); ok {
			c.res(key+"."+name, m[name], field(q))
		}
	}
}

func (c *checker) queueInt(key string, m map[string]int, field func(core.QueueView) int) {
	for _, name := range sortedKeys(m) {
		if q, ok := c.queue(key, name); ok {
			c.num(key+"."+name, m[name], field(q))
		}
	}
}

func (c *checker) queues(e *Expect) {
	c.queueRes("queue_used", e.QueueUsed, func(q core.QueueView) resource.Resource { return q.Used })
	c.queueRes("queue_reserved", e.QueueReserved, func(q core.QueueView) resource.Resource { return q.Reserved })
	for _, name := range sortedKeys(e.QueueCapacities) {
		q, ok := c.queue("queue_capacities", name)
		if !ok {
			continue
		}
		want, p := e.QueueCapacities[name], "queue_capacities."+name+"."
		c.fraction(p+"capacity", want.Capacity, q.Capacity)
		c.fraction(p+"absolute_capacity", want.AbsoluteCapacity, q.AbsCapacity)
		c.fraction(p+"maximum_capacity", want.MaximumCapacity, q.MaxCapacity)
		c.fraction(p+"absolute_maximum_capacity", want.AbsoluteMaximumCapacity, q.AbsMaxCapacity)
	}
	for _, name := range sortedKeys(e.QueueState) {
		if q, ok := c.queue("queue_state", name); ok {
			c.text("queue_state."+name, e.QueueState[name], string(q.State))
		}
	}
	for _, name := range sortedKeys(e.QueueExists) {
		_, err := c.p.s.Queue(name)
		if got := err == nil; got != e.QueueExists[name] {
			c.fail("queue_exists."+name, strconv.FormatBool(e.QueueExists[name]), strconv.FormatBool(got))
		}
	}
	for _, name := range sortedKeys(e.QueueType) {
		if q, ok := c.queue("queue_type", name); ok {
			c.text("queue_type."+name, e.QueueType[name], map[bool]string{true: "leaf", false: "parent"}[q.Leaf])
		}
	}
	for _, name := range sortedKeys(e.QueueParent) {
		q, ok := c.queue("queue_parent", name)
		if !ok {
			continue
		}
		want := e.QueueParent[name]
		if p, err := c.p.s.Queue(want); err == nil {
			want = p.Path
		}
		if want != q.Parent {
			c.fail("queue_parent."+name, want, orDefault(q.Parent, "none"))
		}
	}
	for _, name := range sortedKeys(e.PartitionUsed) {
		q, ok := c.queue("partition_used", name)
		if !ok {
			continue
		}
		for _, l := range sortedKeys(e.PartitionUsed[name]) {
			var used resource.Resource
			for _, pv := range q.Partitions {
				if pv.Label == l {
					used = pv.Used
				}
			}
			c.res("partition_used."+name+"."+l, e.PartitionUsed[name][l], used)
		}
	}
	c.queueInt("num_active_apps", e.NumActiveApps, func(q core.QueueView) int { return q.NumActiveApps })
	c.queueInt("num_pending_apps", e.NumPendingApps, func(q core.QueueView) int { return q.NumPendingApps })
	c.queueInt("active_users", e.ActiveUsers, func(q core.QueueView) int { return q.ActiveUsers })
	c.queueRes("am_resource_limit", e.AMResourceLimit, func(q core.QueueView) resource.Resource { return q.AMLimit })
	c.queueRes("user_am_resource_limit", e.UserAMResourceLimit, func(q core.QueueView) resource.Resource { return q.UserAMLimit })
	c.queueInt("max_applications", e.MaxApplications, func(q core.QueueView) int { return q.MaxApps })
	c.queueInt("max_applications_per_user", e.MaxApplicationsPerUser, func(q core.QueueView) int { return q.MaxAppsPerUser })
	for i, a := range e.ACL {
		groups := a.Groups
		if len(groups) == 0 {
			groups = c.p.sc.Groups[a.User]
		}
		got, err := c.p.s.CheckAccess(a.Queue, a.User, groups, core.QueueACL(strings.ToUpper(a.ACL)))
		path := fmt.Sprintf("acl[%d] (%s %s on %s)", i, a.User, a.ACL, a.Queue)
		switch {
		case err != nil:
			c.fail(path, strconv.FormatBool(a.Allowed), "error: "+err.Error())
		case got != a.Allowed:
			c.fail(path, strconv.FormatBool(a.Allowed), strconv.FormatBool(got))
		}
	}
}

// user returns a user's view in a queue (zero when the user has nothing there).
func user(q core.QueueView, name string) core.UserView {
	for _, u := range q.Users {
		if u.Name == name {
			return u
		}
	}
	return core.UserView{Name: name}
}

func (c *checker) users(e *Expect) {
	userInts := func(key string, m map[string]map[string]int, field func(core.UserView) int) {
		for _, name := range sortedKeys(m) {
			q, ok := c.queue(key, name)
			if !ok {
				continue
			}
			for _, u := range sortedKeys(m[name]) {
				c.num(key+"."+name+"."+u, m[name][u], field(user(q, u)))
			}
		}
	}
	userInts("user_active_apps", e.UserActiveApps, func(u core.UserView) int { return u.ActiveApps })
	userInts("user_pending_apps", e.UserPendingApps, func(u core.UserView) int { return u.PendingApps })
	for _, name := range sortedKeys(e.UserUsed) {
		q, ok := c.queue("user_used", name)
		if !ok {
			continue
		}
		for _, u := range sortedKeys(e.UserUsed[name]) {
			c.res("user_used."+name+"."+u, e.UserUsed[name][u], user(q, u).Used)
		}
	}
}

func (c *checker) apps(e *Expect) {
	appRes := func(key string, m map[string]ExpRes, field func(core.AppView) resource.Resource) {
		for _, id := range sortedKeys(m) {
			if a, ok := c.app(key, id); ok {
				c.res(key+"."+id, m[id], field(a))
			}
		}
	}
	appInt := func(key string, m map[string]int, field func(core.AppView) int) {
		for _, id := range sortedKeys(m) {
			if a, ok := c.app(key, id); ok {
				c.num(key+"."+id, m[id], field(a))
			}
		}
	}
	perPriority := func(key string, m map[string]map[string]int, field func(core.RequestView) int) {
		for _, id := range sortedKeys(m) {
			a, ok := c.app(key, id)
			if !ok {
				continue
			}
			for _, ps := range sortedKeys(m[id]) {
				prio, _ := parsePriority(ps)
				got := 0
				for _, rv := range a.Requests {
					if rv.Priority == prio {
						got = field(rv)
					}
				}
				c.num(key+"."+id+"."+ps, m[id][ps], got)
			}
		}
	}
	for _, id := range sortedKeys(e.AppState) {
		if a, ok := c.app("app_state", id); ok {
			c.text("app_state."+id, e.AppState[id], string(a.State))
		}
	}
	appRes("app_consumption", e.AppConsumption, func(a core.AppView) resource.Resource { return a.Consumption })
	appRes("app_reserved", e.AppReserved, func(a core.AppView) resource.Resource { return a.Reserved })
	appRes("app_headroom", e.AppHeadroom, func(a core.AppView) resource.Resource { return a.Headroom })
	appInt("app_live_containers", e.AppLiveContainers, func(a core.AppView) int { return a.LiveContainers })
	appInt("app_attempt", e.AppAttempt, func(a core.AppView) int { return a.Attempt })
	appInt("app_reserved_containers", e.AppReservedContainers, func(a core.AppView) int { return a.ReservedContainers })
	perPriority("app_outstanding", e.AppOutstanding, func(rv core.RequestView) int { return rv.Outstanding })
	perPriority("app_scheduling_opportunities", e.AppSchedulingOpportunities, func(rv core.RequestView) int { return rv.MissedOpportunities })
	if e.LastStepAllocations != nil {
		c.allocations(*e.LastStepAllocations)
	}
}

// allocations compares the last step's new containers, in order.
func (c *checker) allocations(want []AllocationCheck) {
	got := c.p.lastAllocs
	match := len(got) == len(want)
	for i := 0; match && i < len(want); i++ {
		w, g := want[i], got[i]
		match = w.App == g.App && w.Node == g.Node && strings.EqualFold(w.Locality, string(g.Locality)) &&
			(w.Priority == nil || *w.Priority == g.Priority)
	}
	if match {
		return
	}
	ws := make([]string, len(want))
	for i, w := range want {
		ws[i] = fmt.Sprintf("%s on %s (%s", w.App, w.Node, w.Locality)
		if w.Priority != nil {
			ws[i] += fmt.Sprintf(", priority %d", *w.Priority)
		}
		ws[i] += ")"
	}
	gs := make([]string, len(got))
	for i, g := range got {
		gs[i] = fmt.Sprintf("%s on %s (%s, priority %d)", g.App, g.Node, g.Locality, g.Priority)
	}
	c.fail("last_step_allocations", "["+strings.Join(ws, "; ")+"]", "["+strings.Join(gs, "; ")+"]")
}

func (c *checker) nodes(e *Expect) {
	for _, name := range sortedKeys(e.NodeAllocated) {
		if n, ok := c.node("node_allocated", name); ok {
			c.res("node_allocated."+name, e.NodeAllocated[name], n.Allocated)
		}
	}
	for _, name := range sortedKeys(e.NodeReserved) {
		n, ok := c.node("node_reserved", name)
		if !ok {
			continue
		}
		want, path := e.NodeReserved[name], "node_reserved."+name
		switch {
		case want == nil && n.Reservation != nil:
			c.fail(path, "no reservation", fmt.Sprintf("%s reserved by %s", n.Reservation.Size, n.Reservation.App))
		case want != nil && n.Reservation == nil:
			c.fail(path, want.String(), "no reservation")
		case want != nil:
			c.res(path, *want, n.Reservation.Size)
		}
	}
	if e.ClusterUsed != nil {
		c.res("cluster_used", *e.ClusterUsed, c.p.s.ClusterUsed())
	}
}

func (c *checker) preemption(e *Expect) {
	if len(e.PreemptionMarked) == 0 && len(e.PreemptionEventsTotal) == 0 {
		return
	}
	r := c.p
	if r.lastDecision == nil && len(e.PreemptionMarked) > 0 {
		c.fail("preemption_marked", "a preemption round before this step", "none")
		return
	}
	marked := map[string]int{}
	if r.lastDecision != nil {
		for _, sel := range r.lastDecision.Marked {
			marked[sel.Queue]++
		}
	}
	for _, name := range sortedKeys(e.PreemptionMarked) {
		c.num("preemption_marked."+name, e.PreemptionMarked[name], marked[r.preemptionQueue(name)])
	}
	for _, name := range sortedKeys(e.PreemptionEventsTotal) {
		want, got := e.PreemptionEventsTotal[name], r.totals[r.preemptionQueue(name)]
		if got == nil {
			got = &[2]int{}
		}
		if want.Mark != nil {
			c.num("preemption_events_total."+name+".mark", *want.Mark, got[0])
		}
		if want.Kill != nil {
			c.num("preemption_events_total."+name+".kill", *want.Kill, got[1])
		}
	}
}
