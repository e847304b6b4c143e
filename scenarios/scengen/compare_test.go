package scengen

import (
	"encoding/json"
	"fmt"
	"slices"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// view is everything a reader can see of the scheduler after a step.
type view struct {
	Queues  []core.QueueView
	Apps    []core.AppView
	Nodes   []core.NodeView
	Cluster resource.Resource
	Used    resource.Resource
	Now     int64
	Conf    map[string]string
}

func viewOf(s *core.Scheduler) *view {
	return &view{Queues: s.Queues(), Apps: s.Apps(), Nodes: s.Nodes(), Cluster: s.ClusterResource(),
		Used: s.ClusterUsed(), Now: s.Now(), Conf: s.Conf().Map()}
}

func (v *view) json() []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// unchanged reports how a refused step changed what a reader sees, or "":
// before is the JSON of the view prev, taken before the step. An
// application a refused submission leaves REJECTED is no change.
func unchanged(before []byte, prev, after *view) string {
	known := map[string]bool{}
	for _, a := range prev.Apps {
		known[a.ID] = true
	}
	trimmed := *after
	trimmed.Apps = slices.DeleteFunc(slices.Clone(after.Apps), func(a core.AppView) bool {
		return !known[a.ID] && a.State == core.AppRejected
	})
	if a := trimmed.json(); string(before) != string(a) {
		return fmt.Sprintf("the refused step changed the state:\nbefore %s\nafter  %s", before, a)
	}
	return ""
}

// compare holds the ledger to the scheduler's views.
func (l *ledger) compare(v *view) error {
	if v.Cluster != l.cluster {
		return fmt.Errorf("cluster resource %s, the record sums to %s", v.Cluster, l.cluster)
	}
	if root := l.queues[config.RootQueue]; root != nil && v.Used != root.used || root == nil && !v.Used.IsZero() {
		return fmt.Errorf("cluster used %s, the record says root uses %v", v.Used, root)
	}
	if len(v.Nodes) != len(l.nodes) {
		return fmt.Errorf("%d nodes, the record has %d", len(v.Nodes), len(l.nodes))
	}
	for _, n := range v.Nodes {
		ln := l.nodes[n.Name]
		if ln == nil || ln.total != n.Capacity || ln.allocated != n.Allocated || len(ln.containers) != len(n.Containers) {
			return fmt.Errorf("node %s: capacity %s allocated %s in %d containers; the record has %+v", n.Name, n.Capacity, n.Allocated, len(n.Containers), ln)
		}
		for _, c := range n.Containers {
			if !ln.containers[c.ID] {
				return fmt.Errorf("node %s runs container %d, which the record does not place there", n.Name, c.ID)
			}
		}
		switch r := n.Reservation; {
		case r == nil && ln.reservation != nil, r != nil && (ln.reservation == nil || ln.reservation.id != r.ID || ln.reservation.size != r.Size):
			return fmt.Errorf("node %s: reservation %+v, the record has %+v", n.Name, r, ln.reservation)
		}
	}
	seen := map[string]bool{}
	for _, a := range v.Apps {
		seen[a.ID] = true
		la := l.apps[a.ID]
		if la == nil || la.state != a.State || la.consumption != a.Consumption || la.reserved != a.Reserved ||
			la.live != a.LiveContainers || la.resv != a.ReservedContainers {
			return fmt.Errorf("app %s: %s, consumption %s in %d, reserved %s in %d; the record has %+v", a.ID, a.State,
				a.Consumption, a.LiveContainers, a.Reserved, a.ReservedContainers, la)
		}
	}
	for _, id := range sortedKeys(l.apps) {
		if a := l.apps[id]; !seen[id] && a.state != core.AppRejected {
			return fmt.Errorf("app %s is %s in the record but not reported", id, a.state)
		}
	}
	paths := map[string]bool{}
	for _, q := range v.Queues {
		paths[q.Path] = true
		lq := l.queues[q.Path]
		if lq == nil {
			lq = &lqueue{}
		}
		if lq.used != q.Used || lq.reserved != q.Reserved {
			return fmt.Errorf("queue %s: used %s reserved %s; the record sums to %s / %s", q.Path, q.Used, q.Reserved, lq.used, lq.reserved)
		}
		if q.Leaf {
			if err := l.compareUsers(q); err != nil {
				return err
			}
		}
	}
	for _, p := range sortedKeys(l.queues) {
		if q := l.queues[p]; !paths[p] && (!q.used.IsZero() || !q.reserved.IsZero()) {
			return fmt.Errorf("queue %s is gone but the record has it using %s", p, q.used)
		}
	}
	return nil
}

func (l *ledger) compareUsers(q core.QueueView) error {
	var am resource.Resource
	reported := map[string]bool{}
	for _, u := range q.Users {
		reported[u.Name] = true
		lu := l.users[q.Path][u.Name]
		if lu == nil {
			lu = &luser{}
		}
		if lu.used != u.Used || lu.reserved != u.Reserved || lu.am != u.AMUsed {
			return fmt.Errorf("queue %s user %s: used %s reserved %s AM %s; the record sums to %+v", q.Path, u.Name, u.Used, u.Reserved, u.AMUsed, *lu)
		}
		am = am.Add(u.AMUsed)
	}
	for _, name := range sortedKeys(l.users[q.Path]) {
		if lu := l.users[q.Path][name]; !reported[name] && *lu != (luser{}) {
			return fmt.Errorf("queue %s does not report user %s, whom the record has using %+v", q.Path, name, *lu)
		}
	}
	if am != q.AMUsed {
		return fmt.Errorf("queue %s: AM used %s, its users sum to %s", q.Path, q.AMUsed, am)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// usedAboveMax reports a queue whose usage grew past its effective
// maximum over a step in which that maximum did not change.
func usedAboveMax(before, after []core.QueueView, calc resource.Calculator) error {
	prev := map[string]core.QueueView{}
	for _, q := range before {
		prev[q.Path] = q
	}
	for _, q := range after {
		p, ok := prev[q.Path]
		if !ok || q.EffectiveMax != p.EffectiveMax {
			continue
		}
		grew := q.Used.MemoryMB > p.Used.MemoryMB || calc.Kind == resource.DominantKind && q.Used.VCores > p.Used.VCores
		if grew && !calc.FitsIn(q.Used, q.EffectiveMax) {
			return fmt.Errorf("queue %s grew to %s, above its maximum %s", q.Path, q.Used, q.EffectiveMax)
		}
	}
	return nil
}

// appStates checks the states applications report across a step: a new
// application is ACCEPTED, RUNNING or REJECTED; one that changed moved along
// the state machine (in one or two transitions).
func appStates(before, after []core.AppView) error {
	prev := map[string]core.AppState{}
	for _, a := range before {
		prev[a.ID] = a.State
	}
	for _, a := range after {
		from, ok := prev[a.ID]
		switch {
		case !ok:
			if a.State != core.AppAccepted && a.State != core.AppRunning && a.State != core.AppRejected {
				return fmt.Errorf("app %s appears in state %s", a.ID, a.State)
			}
		case from != a.State && !core.CanTransition(from, a.State) &&
			!(core.CanTransition(from, core.AppRunning) && core.CanTransition(core.AppRunning, a.State)):
			return fmt.Errorf("app %s went from %s to %s", a.ID, from, a.State)
		}
	}
	return nil
}
