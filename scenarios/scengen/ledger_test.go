package scengen

import (
	"fmt"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// ledger re-derives the scheduler's usage from its decision record alone:
// every allocation, reservation, fulfilment, release and completion, every
// node and application event. After each step it must agree with what the
// scheduler reports. While replaying it also checks the rules each
// allocation keeps: the user limit (Hadoop's one-container rule), the queue
// maximums, one reservation per node, and the application state machine.
type ledger struct {
	calc    resource.Calculator
	cluster resource.Resource
	nodes   map[string]*lnode
	conts   map[int64]*lcont
	apps    map[string]*lapp
	// users are per leaf path, then user name.
	users map[string]map[string]*luser
	// queues hold used and reserved per path, ancestors included.
	queues map[string]*lqueue
	// considered is the last app_considered event of the heartbeat pass.
	considered *core.Event
	// effMax is each queue's effective maximum during the step.
	effMax map[string]resource.Resource
	// stats counts what the record showed, for the variety test.
	stats *stats
}

type lnode struct {
	total, allocated resource.Resource
	reservation      *lcont
	containers       map[int64]bool
}

type lcont struct {
	id                     int64
	app, node, queue, user string
	size                   resource.Resource
	reserved               bool
}

type lapp struct {
	state                 core.AppState
	queue, user           string
	am                    resource.Resource
	activated             bool
	consumption, reserved resource.Resource
	live, resv            int
}

type luser struct{ used, reserved, am resource.Resource }

type lqueue struct{ used, reserved resource.Resource }

func newLedger(calc resource.Calculator, st *stats) *ledger {
	return &ledger{calc: calc, nodes: map[string]*lnode{}, conts: map[int64]*lcont{}, apps: map[string]*lapp{},
		users: map[string]map[string]*luser{}, queues: map[string]*lqueue{}, stats: st}
}

func (l *ledger) user(queue, name string) *luser {
	if l.users[queue] == nil {
		l.users[queue] = map[string]*luser{}
	}
	u := l.users[queue][name]
	if u == nil {
		u = &luser{}
		l.users[queue][name] = u
	}
	return u
}

// charge adds (or with negative resources, removes) usage to a leaf and
// its ancestors.
func (l *ledger) charge(leaf string, used, reserved resource.Resource) {
	for p := leaf; p != ""; {
		q := l.queues[p]
		if q == nil {
			q = &lqueue{}
			l.queues[p] = q
		}
		q.used, q.reserved = q.used.Add(used), q.reserved.Add(reserved)
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
}

func neg(r resource.Resource) resource.Resource { return resource.None.Sub(r) }

// withinMax checks the rule of AbstractCSQueue.accept after a new container
// or reservation: no queue on the path above its effective maximum.
func (l *ledger) withinMax(e core.Event) error {
	for p := e.Queue; p != ""; {
		max, ok := l.effMax[p]
		if q := l.queues[p]; ok && !l.calc.FitsIn(q.used, max) {
			return fmt.Errorf("%s of %s on %s took queue %s to %s, above its maximum %s", e.Kind, e.App, e.Node, p, q.used, max)
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return nil
}

// userLimit checks LeafQueue.accept's rule for a new container or
// reservation: the user's usage before it, less what it releases by
// continue-looking (already replayed), is at most the user limit of the
// decision (so the user ends at most one container above the limit).
func (l *ledger) userLimit(e core.Event) error {
	c := l.considered
	if c == nil || c.App != e.App || c.Node != e.Node {
		return fmt.Errorf("%s of %s on %s without the leaf considering the app first", e.Kind, e.App, e.Node)
	}
	u := l.user(e.Queue, e.User)
	l.stats.add("checked user limit", 1)
	if l.calc.GreaterThan(l.cluster, u.used, c.Limit) {
		return fmt.Errorf("%s of %s (%s) for user %s of %s, who already used %s, above its user limit %s",
			e.Kind, e.App, e.Resource, e.User, e.Queue, u.used, c.Limit)
	}
	return nil
}

func (l *ledger) transition(id string, to core.AppState) (*lapp, error) {
	a := l.apps[id]
	if a == nil {
		return nil, fmt.Errorf("app %s moves to %s but was never submitted", id, to)
	}
	if !core.CanTransition(a.state, to) {
		return nil, fmt.Errorf("app %s moves from %s to %s, which its state machine does not allow", id, a.state, to)
	}
	a.state = to
	return a, nil
}

// apply replays one step's events, checking each allocation's rules.
func (l *ledger) apply(events []core.Event) error {
	for i := range events {
		if err := l.event(events[i]); err != nil {
			return fmt.Errorf("event %d (%s): %w", i, events[i].Kind, err)
		}
	}
	return nil
}

func (l *ledger) event(e core.Event) error {
	l.stats.event(e)
	switch e.Kind {
	case core.EvNodeAdded:
		if l.nodes[e.Node] != nil {
			return fmt.Errorf("node %s added twice", e.Node)
		}
		l.nodes[e.Node] = &lnode{total: e.Resource, containers: map[int64]bool{}}
		l.cluster = l.cluster.Add(e.Resource)
	case core.EvNodeRemoved:
		n := l.nodes[e.Node]
		if n == nil || len(n.containers) > 0 || n.reservation != nil {
			return fmt.Errorf("node %s removed while unknown or holding containers", e.Node)
		}
		delete(l.nodes, e.Node)
		l.cluster = l.cluster.Sub(n.total)
	case core.EvHeartbeat, core.EvAssignPass:
		l.considered = nil
	case core.EvAppConsidered:
		c := e
		l.considered = &c
	case core.EvAllocated, core.EvReserved:
		return l.allocate(e)
	case core.EvReservationFulfil:
		n := l.nodes[e.Node]
		if n == nil || n.reservation == nil || n.reservation.app != e.App {
			return fmt.Errorf("reservation fulfilled for %s on %s, which holds no reservation of it", e.App, e.Node)
		}
		r := n.reservation
		l.release(r)
		a := l.apps[e.App]
		a.reserved, a.resv = a.reserved.Sub(r.size), a.resv-1
		u := l.user(r.queue, r.user)
		u.used, u.reserved = u.used.Sub(r.size), u.reserved.Sub(r.size)
		l.charge(r.queue, neg(r.size), neg(r.size))
		e.Kind = core.EvAllocated
		return l.place(e, false) // Hadoop checks no limit when a reservation is fulfilled
	case core.EvReReserved:
		if n := l.nodes[e.Node]; n == nil || n.reservation == nil || n.reservation.id != e.Container {
			return fmt.Errorf("re-reservation %d on %s, which does not hold it", e.Container, e.Node)
		}
	case core.EvUnreserved:
		c := l.conts[e.Container]
		if c == nil || !c.reserved || c.node != e.Node {
			return fmt.Errorf("unreserved %d on %s, which is not a reservation there", e.Container, e.Node)
		}
		l.release(c)
		a := l.apps[c.app]
		a.reserved, a.resv = a.reserved.Sub(c.size), a.resv-1
		u := l.user(c.queue, c.user)
		u.used, u.reserved = u.used.Sub(c.size), u.reserved.Sub(c.size)
		l.charge(c.queue, neg(c.size), neg(c.size))
	case core.EvContainerFinished:
		c := l.conts[e.Container]
		if c == nil || c.reserved || c.node != e.Node || c.app != e.App {
			return fmt.Errorf("container %d of %s finished on %s, but it is not running there", e.Container, e.App, e.Node)
		}
		l.release(c)
		n := l.nodes[c.node]
		n.allocated = n.allocated.Sub(c.size)
		a := l.apps[c.app]
		a.consumption, a.live = a.consumption.Sub(c.size), a.live-1
		u := l.user(c.queue, c.user)
		u.used = u.used.Sub(c.size)
		l.charge(c.queue, neg(c.size), resource.None)
	case core.EvAppSubmitted:
		if a := l.apps[e.App]; a != nil {
			return fmt.Errorf("app %s submitted again (it is %s)", e.App, a.state)
		}
		l.apps[e.App] = &lapp{state: core.AppAccepted, queue: e.Queue, user: e.User, am: e.Resource}
	case core.EvAppRejected:
		if a := l.apps[e.App]; a != nil {
			return fmt.Errorf("app %s rejected, but it is %s", e.App, a.state)
		}
		l.apps[e.App] = &lapp{state: core.AppRejected, queue: e.Queue, user: e.User}
	case core.EvAppActivated:
		a := l.apps[e.App]
		if a == nil || a.activated || a.am != e.Resource {
			return fmt.Errorf("app %s activated twice, unknown, or with another AM size %s", e.App, e.Resource)
		}
		a.activated = true
		u := l.user(a.queue, a.user)
		u.am = u.am.Add(a.am)
	case core.EvAppRunning:
		_, err := l.transition(e.App, core.AppRunning)
		return err
	case core.EvAttemptFailed:
		a, err := l.transition(e.App, core.AppAccepted)
		if err != nil {
			return err
		}
		if a.live > 0 || a.resv > 0 {
			return fmt.Errorf("app %s starts attempt %d holding %d containers and %d reservations", e.App, e.Seq, a.live, a.resv)
		}
		if a.activated {
			u := l.user(a.queue, a.user)
			u.am = u.am.Sub(a.am)
			a.activated = false
		}
	case core.EvAppFinished, core.EvAppKilled:
		to := core.AppFinished
		if e.Kind == core.EvAppKilled {
			to = core.AppKilled
		}
		a, err := l.transition(e.App, to)
		if err != nil {
			return err
		}
		if a.live > 0 || a.resv > 0 {
			return fmt.Errorf("app %s ends holding %d containers and %d reservations", e.App, a.live, a.resv)
		}
		if a.activated {
			u := l.user(a.queue, a.user)
			u.am = u.am.Sub(a.am)
		}
	}
	return nil
}

// allocate replays a new container or reservation after checking the user
// limit; place then checks the queue maximums.
func (l *ledger) allocate(e core.Event) error {
	if err := l.userLimit(e); err != nil {
		return err
	}
	return l.place(e, true)
}

// place records a new container (or reservation, for EvReserved) on its
// node, app, user and queues, and with checkMax checks the queue maximums.
func (l *ledger) place(e core.Event, checkMax bool) error {
	n, a := l.nodes[e.Node], l.apps[e.App]
	if n == nil || a == nil || l.conts[e.Container] != nil {
		return fmt.Errorf("%s %d of %s on %s: unknown node or app, or a container id used twice", e.Kind, e.Container, e.App, e.Node)
	}
	c := &lcont{id: e.Container, app: e.App, node: e.Node, queue: e.Queue, user: e.User, size: e.Resource, reserved: e.Kind == core.EvReserved}
	l.conts[c.id] = c
	u := l.user(e.Queue, e.User)
	u.used = u.used.Add(c.size)
	if c.reserved {
		if n.reservation != nil {
			return fmt.Errorf("node %s reserved for %s while it holds reservation %d", e.Node, e.App, n.reservation.id)
		}
		n.reservation = c
		a.reserved, a.resv = a.reserved.Add(c.size), a.resv+1
		u.reserved = u.reserved.Add(c.size)
		l.charge(e.Queue, c.size, c.size)
	} else {
		n.containers[c.id] = true
		n.allocated = n.allocated.Add(c.size)
		a.consumption, a.live = a.consumption.Add(c.size), a.live+1
		l.charge(e.Queue, c.size, resource.None)
		if e.Used != u.used {
			return fmt.Errorf("allocation to %s says its user uses %s; the record sums to %s", e.App, e.Used, u.used)
		}
	}
	if !checkMax {
		return nil
	}
	return l.withinMax(e)
}

// release takes a container or reservation off its node.
func (l *ledger) release(c *lcont) {
	n := l.nodes[c.node]
	if c.reserved {
		n.reservation = nil
	} else {
		delete(n.containers, c.id)
	}
	delete(l.conts, c.id)
}
