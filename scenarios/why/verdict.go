package why

import (
	"fmt"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// precedence orders the rules an app may meet on different nodes: the
// checks that hold on every node (queue, user) before those of a node.
var precedence = []Rule{
	MaxParallelApps, AMLimit, UserAMLimit, ParentMaxCapacity, QueueMaxCapacity, UserLimit,
	LocalityDelay, Reserved, NoNodeFits, Partition,
}

func rank(r Rule) int {
	for i, x := range precedence {
		if x == r {
			return i
		}
	}
	return len(precedence)
}

// waiting reports whether an app waits, and what it still asks for.
func waiting(app core.AppView) (bool, int, resource.Resource) {
	out, need := 0, resource.Resource{}
	for _, r := range app.Requests {
		if r.Outstanding > 0 {
			if out == 0 {
				need = r.Resource
			}
			out += r.Outstanding
		}
	}
	switch app.State {
	case core.AppRejected:
		return true, 0, need
	case core.AppAccepted:
		if need.IsZero() {
			need = app.AMResource
		}
		return true, out, need
	case core.AppRunning:
		return out > 0, out, need
	}
	return false, 0, need
}

func (a *analysis) verdict(app core.AppView) (Verdict, bool) {
	w, out, need := waiting(app)
	if !w {
		return Verdict{}, false
	}
	v := Verdict{App: app.ID, Queue: app.Queue, User: app.User, State: app.State, Need: need, Outstanding: out, Allocated: a.allocs[app.ID]}
	if app.State == core.AppRejected {
		v.Rule = refusal(app.Diagnostics)
		v.Sentence = fmt.Sprintf("%s was refused at submission: %s", app.ID, app.Diagnostics)
		return v, true
	}
	q := a.queues[app.Queue]
	if app.NotRunnable {
		a.notRunnable(&v, app, q)
		return v, true
	}
	if app.State == core.AppAccepted && !app.Activated {
		a.pending(&v, app, q)
		return v, true
	}
	if v.Allocated > 0 {
		v.Sentence = fmt.Sprintf("%s is not stopped: it got %d container(s) in the heartbeats read", app.ID, v.Allocated)
		return v, true
	}
	best, found := a.seen[app.ID]
	// A queue on the app's path skipped at its limit stopped it, unless
	// the app was skipped for a check of its own: the queues above it let
	// it through then, and that check is what keeps it from the room they
	// have when it frees up (a user at its limit while the queue is full).
	for p := app.Queue; p != "" && !found; p = a.queues[p].Parent {
		if o, ok := a.atMax[p]; ok {
			if p != app.Queue && o.rule == QueueMaxCapacity {
				o.rule = ParentMaxCapacity
			}
			best, found = o, true
		}
	}
	if !found && !a.reached[app.ID] {
		for _, o := range a.fifo[app.Queue] {
			if o.blocker != app.ID {
				if bv, ok := a.blockerVerdict(o.blocker); ok {
					best, found = obs{rule: bv.Rule, reason: bv.Reason, used: bv.Used, limit: bv.Limit, node: bv.Node, tick: bv.Tick, blocker: o.blocker, text: bv.Sentence}, true
				}
				break
			}
		}
	}
	if !found && a.nfull > 0 && a.nfull >= a.nodes {
		best, found = a.full, true
		best.limit = need
	}
	if !found {
		v.Sentence = fmt.Sprintf("%s waits for %d container(s) of %s, but no check stopped it in the heartbeats read (it was not reached: the heartbeats ended before its turn)", app.ID, out, need)
		return v, true
	}
	v.Rule, v.Reason, v.Used, v.Limit, v.Node, v.Tick, v.Blocker = best.rule, best.reason, best.used, best.limit, best.node, best.tick, best.blocker
	if v.Blocker != "" {
		v.Sentence = fmt.Sprintf("%s waits behind %s in %s's FIFO order: %s", app.ID, v.Blocker, app.Queue, best.text)
		return v, true
	}
	if best.text != "" {
		v.Sentence = fmt.Sprintf("%s waits (%s): %s", app.ID, v.Rule, best.text)
		return v, true
	}
	if v.Rule == NoNodeFits || v.Rule == LocalityDelay {
		a.nodeNumbers(&v)
	}
	v.Sentence = sentence(v, a.st.Dominant)
	return v, true
}

// blockerVerdict is the verdict of the app that stops a leaf in FIFO order.
func (a *analysis) blockerVerdict(id string) (Verdict, bool) {
	i, ok := a.apps[id]
	if !ok || a.inBlock[id] {
		return Verdict{}, false
	}
	a.inBlock[id] = true
	defer delete(a.inBlock, id)
	v, ok := a.verdict(a.st.Apps[i])
	return v, ok && v.Rule != None
}

// notRunnable explains an app that max-parallel-apps holds back
// (CSMaxRunningAppsEnforcer): accepted, neither pending nor active, until
// an app of its queue (or an ancestor) or of its user finishes.
func (a *analysis) notRunnable(v *Verdict, app core.AppView, q core.QueueView) {
	v.Rule, v.Need = MaxParallelApps, app.AMResource
	v.Reason = core.ReasonQueueMaxParallelApps
	if q.MaxParallelApps == 0 || q.NumRunnableApps < q.MaxParallelApps {
		v.Reason = core.ReasonUserMaxParallelApps
	}
	if o := a.last(app.ID, MaxParallelApps); o != nil {
		v.Reason = o.reason
	}
	v.Sentence = sentence(*v, a.st.Dominant)
	if v.Reason == core.ReasonQueueMaxParallelApps {
		apps := "applications"
		if q.NumRunnableApps == 1 {
			apps = "application"
		}
		v.Sentence += fmt.Sprintf(": the queue runs %d %s, its max-parallel-apps", q.NumRunnableApps, apps)
	} else {
		v.Sentence += fmt.Sprintf(": %s's max-parallel-apps (user.max-parallel-apps) is reached", app.User)
	}
	v.Sentence += "; it starts when one of them finishes"
}

// pending explains an app waiting for the AM limits.
func (a *analysis) pending(v *Verdict, app core.AppView, q core.QueueView) {
	v.Rule = AMLimit
	if o := a.last(app.ID, AMLimit, UserAMLimit, MaxParallelApps); o != nil {
		v.Rule, v.Reason, v.Used, v.Limit, v.Tick = o.rule, o.reason, o.used, o.limit, o.tick
	} else {
		switch {
		case app.Diagnostics == string(core.ReasonUserAMLimit):
			v.Rule, v.Reason = UserAMLimit, core.ReasonUserAMLimit
		case strings.Contains(app.Diagnostics, "parallel"):
			v.Rule = MaxParallelApps
		default:
			v.Reason = core.ReasonQueueAMLimit
		}
		switch v.Rule {
		case AMLimit:
			v.Used, v.Limit = q.AMUsed.Add(app.AMResource), q.AMLimit
		case UserAMLimit:
			for _, u := range q.Users {
				if u.Name == app.User {
					v.Used = u.AMUsed.Add(app.AMResource)
				}
			}
			v.Limit = q.UserAMLimit
		}
	}
	v.Need = app.AMResource
	v.Sentence = sentence(*v, a.st.Dominant)
}

func (a *analysis) last(app string, rules ...Rule) *obs {
	o, ok := a.seen[app]
	if !ok {
		return nil
	}
	for _, r := range rules {
		if o.rule == r {
			return &o
		}
	}
	return nil
}

// nodeNumbers puts the most free resources of any node in Used and the
// ask in Limit, for no-node-fits and locality-delay.
func (a *analysis) nodeNumbers(v *Verdict) {
	var most resource.Resource
	for _, n := range a.st.Nodes {
		free := n.Capacity.Sub(n.Allocated)
		if free.MemoryMB > most.MemoryMB || (free.MemoryMB == most.MemoryMB && free.VCores > most.VCores) {
			most = free
		}
	}
	if len(a.st.Nodes) > 0 {
		v.Used = most
	}
	v.Limit = v.Need
}

// refusal maps a rejected submission's message to a rule.
func refusal(msg string) Rule {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "permission"):
		return ACL
	case strings.Contains(m, "is stopped"):
		return QueueStopped
	case strings.Contains(m, "applications"), strings.Contains(m, "application limit"):
		return MaxApplications
	case strings.Contains(m, "parallel"):
		return MaxParallelApps
	}
	return None
}

// mb says a resource: memory alone unless the dominant resource
// calculator compares vcores too.
func mb(r resource.Resource, dominant bool) string {
	if !dominant {
		return fmt.Sprintf("%d MB", r.MemoryMB)
	}
	return fmt.Sprintf("%d MB, %d vcores", r.MemoryMB, r.VCores)
}

// sentence says a verdict in words.
func sentence(v Verdict, dominant bool) string {
	var s string
	switch v.Rule {
	case AMLimit:
		s = fmt.Sprintf("%s waits for the queue's AM limit: its AM of %s would take %s's AM usage to %s, past the limit of %s (maximum-am-resource-percent)", v.App, mb(v.Need, dominant), v.Queue, mb(v.Used, dominant), mb(v.Limit, dominant))
	case UserAMLimit:
		s = fmt.Sprintf("%s waits for the user AM limit: its AM of %s would take %s's AM usage in %s to %s, past the user's %s", v.App, mb(v.Need, dominant), v.User, v.Queue, mb(v.Used, dominant), mb(v.Limit, dominant))
	case MaxParallelApps:
		s = fmt.Sprintf("%s waits for max-parallel-apps in %s", v.App, v.Queue)
	case UserLimit:
		s = fmt.Sprintf("%s waits for %s's user limit in %s: the user uses %s of a %s limit (minimum-user-limit-percent, user-limit-factor)", v.App, v.User, v.Queue, mb(v.Used, dominant), mb(v.Limit, dominant))
	case QueueMaxCapacity:
		s = fmt.Sprintf("%s waits for %s's maximum capacity: the queue uses %s of %s", v.App, v.Queue, mb(v.Used, dominant), mb(v.Limit, dominant))
	case ParentMaxCapacity:
		s = fmt.Sprintf("%s waits for a parent queue's maximum capacity: above %s the queue uses %s of %s", v.App, v.Queue, mb(v.Used, dominant), mb(v.Limit, dominant))
	case NoNodeFits:
		s = fmt.Sprintf("%s waits for a node with room: it asks for %s and the most any node has free is %s", v.App, mb(v.Limit, dominant), mb(v.Used, dominant))
	case LocalityDelay:
		s = fmt.Sprintf("%s waits for locality (node-locality-delay, or locality not relaxed) for its %s container", v.App, mb(v.Need, dominant))
	case Reserved:
		s = fmt.Sprintf("%s waits on a reservation for %s", v.App, mb(v.Need, dominant))
		if v.Node != "" {
			s += " on " + v.Node
		}
		if v.Reason == "" && !v.Limit.IsZero() {
			s += fmt.Sprintf(", which has %s free", mb(v.Used, dominant))
		}
	case Partition:
		switch v.Reason {
		case core.ReasonAMNotShared:
			s = fmt.Sprintf("%s waits for a node of its AM's partition: an AM container is never placed on another partition's node, even one lent to the default partition", v.App)
		case core.ReasonDefaultFirst:
			s = fmt.Sprintf("%s waits for the default partition's nodes: a non-exclusive partition's node serves its %s ask only after it missed as many chances as the cluster has nodes", v.App, mb(v.Need, dominant))
		default:
			s = fmt.Sprintf("%s waits for a node of the partition its ask names (node label): the nodes that heartbeat are in another partition", v.App)
		}
	default:
		return fmt.Sprintf("%s waits", v.App)
	}
	return s
}
