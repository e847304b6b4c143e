package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// Visit outcomes (AppVisit.Outcome).
const (
	OutcomeConsidered = "considered"
	OutcomeSkipped    = "skipped"
	OutcomeAllocated  = "allocated"
	OutcomeReserved   = "reserved"
)

// History marks (HistoryPoint.Marks).
const (
	MarkSubmit  = "submit"
	MarkFinish  = "finish"
	MarkReserve = "reserve"
	MarkPreempt = "preempt"
)

// histCache is the usage history aligned with one list of queues (a
// pathsID): points are computed once and shared by every frame.
type histCache struct {
	pathsID int
	points  []HistoryPoint
}

// views are the views of the scheduler's state a frame shows, kept for the
// next frame while the state is the same (the player and its step).
type views struct {
	p     *scenarios.Player
	pos   int
	queue []core.QueueView
	// nodes are the nodes' views without their usage (Frame.Nodes),
	// used and reserved their usage.
	nodes    []core.NodeView
	used     []resource.Resource
	reserved []NodeReservation
	cs       []core.ContainerBrief
	nodeAt   []int
	apps     []core.AppView
	// metrics are countMetrics of the views.
	metrics Metrics
}

// stateViews returns the views of the current state: those of the last
// frame when the state has not changed since (a selection, an error
// shown), else new ones.
func (s *Store) stateViews() *views {
	if v := &s.views; v.p == s.cur && v.pos == s.cur.Pos() && v.queue != nil {
		return v
	}
	sched := s.cur.Scheduler()
	v := views{p: s.cur, pos: s.cur.Pos()}
	v.queue = sched.QueuesOver(s.views.queue)
	n := sched.NumNodes()
	// The nodes' views go into the store's scratch list, from which the
	// frame takes their usage, and their static part unless it is the
	// last frame's.
	briefs, nodeAt := s.nodeScratch[:0], make([]int, 0, n+1)
	v.cs = containerList(s.spare.cs, sched.NumContainers(), s.reuse)
	for i := range n {
		nodeAt = append(nodeAt, len(v.cs))
		briefs, v.cs = sched.AppendNodesBrief(briefs, v.cs, i, i+1)
	}
	v.nodeAt = append(nodeAt, len(v.cs))
	s.nodeScratch = briefs
	v.nodes, v.used, v.reserved = splitNodes(briefs, s.views.nodes)
	v.apps = sched.AppsBriefOver(s.spare.apps, s.views.apps)
	v.metrics = countMetrics(v.apps, v.used, v.reserved, v.cs, v.nodeAt)
	if s.reuse { // else spare stays empty
		s.spare.cs, s.spare.apps = s.views.cs, s.views.apps
	}
	s.views = v
	return &s.views
}

// containerList returns an empty list for n containers: spare's array
// when it has room, else a new one, with room to grow when it is to be
// reused (ReuseViews): a big cluster's containers grow by thousands a
// step while its applications start.
func containerList(spare []core.ContainerBrief, n int, reuse bool) []core.ContainerBrief {
	switch {
	case cap(spare) >= n:
		return spare[:0]
	case reuse:
		return make([]core.ContainerBrief, 0, n+n/2)
	}
	return make([]core.ContainerBrief, 0, n)
}

// shownUsers are the queues of the last frame with their users, and what
// they came from (withUsers).
type shownUsers struct {
	views []core.QueueView
	shown map[string]bool
	out   []core.QueueView
}

// withUsers returns queues, the views' queues without their users
// (core.Scheduler.QueuesOver), with the users of the queues a frame shows
// (Frame.queuesShown): at a thousand leaves the users are tens of
// thousands, and a step changes most of them. It returns the last frame's
// list when the views and those queues are the same, else a copy.
func (c *shownUsers) withUsers(sched *core.Scheduler, queues []core.QueueView, shown map[string]bool) []core.QueueView {
	same := c.out != nil && len(c.views) == len(queues) && len(c.shown) == len(shown) &&
		(len(queues) == 0 || &c.views[0] == &queues[0])
	for p := range shown {
		same = same && c.shown[p]
	}
	if same {
		return c.out
	}
	out := slices.Clone(queues)
	for i := range out {
		if shown[out[i].Path] {
			out[i].Users = sched.QueueUsers(out[i].Path)
		}
	}
	*c = shownUsers{views: queues, shown: shown, out: out}
	return out
}

// splitNodes parts the nodes' views into what a frame holds of them: their
// static part (last's, the last frame's, when the nodes are the same),
// their usage as a flat array, and their reservations.
func splitNodes(briefs, last []core.NodeView) (nodes []core.NodeView, used []resource.Resource, reserved []NodeReservation) {
	same := len(last) == len(briefs)
	used = make([]resource.Resource, len(briefs))
	for i := range briefs {
		b := &briefs[i]
		used[i] = b.Allocated
		if b.Reservation != nil {
			reserved = append(reserved, NodeReservation{Node: i, Container: *b.Reservation})
		}
		if same {
			l := &last[i]
			same = b.Name == l.Name && b.Rack == l.Rack && b.Capacity == l.Capacity && b.Label == l.Label
		}
	}
	if same {
		return last, used, reserved
	}
	nodes = make([]core.NodeView, len(briefs))
	for i := range briefs {
		b := &briefs[i]
		nodes[i] = core.NodeView{Name: b.Name, Rack: b.Rack, Capacity: b.Capacity, Label: b.Label}
	}
	return nodes, used, reserved
}

// conf returns the configuration in force as a map: the last frame's when
// the configuration cannot have changed since (the same start and the
// same last refresh step before the current step), so that frames share it.
func (s *Store) conf(sched *core.Scheduler) map[string]string {
	var last *scenarios.Refresh
	for i := s.step - 1; i >= 0; i-- {
		if r := s.doc.Steps[i].Refresh; r != nil {
			last = r
			break
		}
	}
	c := &s.confCache
	if c.m != nil && c.refresh == last && sameMap(c.start, s.doc.Config) && c.xml == s.doc.ConfigXML && c.profile == s.doc.Profile {
		return c.m
	}
	*c = confCache{m: sched.Conf().Map(), refresh: last, start: s.doc.Config, xml: s.doc.ConfigXML, profile: s.doc.Profile}
	return c.m
}

// confCache is the configuration map of the last frame and what it came
// from.
type confCache struct {
	m            map[string]string
	refresh      *scenarios.Refresh
	start        map[string]string
	xml, profile string
}

// sameMap reports whether a and b are the same map (not equal maps).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// publish builds the frame of the current step.
func (s *Store) publish() {
	sched := s.cur.Scheduler()
	set := sched.Settings()
	v := s.stateViews()
	f := &Frame{
		Step:        s.step,
		Steps:       s.steps(),
		Kind:        s.res.Kind,
		Note:        s.res.Note,
		Tick:        sched.Now(),
		Cluster:     sched.ClusterResource(),
		ClusterUsed: sched.ClusterUsed(),
		Dominant:    set.Calculator.Kind == resource.DominantKind,
		MinAlloc:    set.MinAlloc,
		Queues:      v.queue,
		Nodes:       v.nodes,
		NodeUsed:    v.used,
		Reserved:    v.reserved,
		Containers:  v.cs,
		NodeAt:      v.nodeAt,
		Apps:        v.apps,
		Metrics:     v.metrics,
		Events:      s.res.Events,
		Narration:   s.res.Lines,
		Walk:        walk(s.res.Events),
		Selected:    s.sel,

		Err:         s.err,
		Title:       s.doc.Name,
		Description: s.doc.Description,
		Source:      s.doc.Source,
		Lesson:      s.lesson,
		Profile:     orDefault(s.doc.Profile, scenarios.ProfileHadoop3),
		Conf:        s.conf(sched),
		Groups:      s.doc.Groups,
		Revision:    s.rev,
		Warnings:    slices.Clone(set.Warnings),
		Assumptions: s.doc.Assumptions,
	}
	f.Label = s.label()
	if s.res.Err != nil {
		f.StepError = s.res.Err.Error()
		if s.step > 0 {
			st := &s.doc.Steps[s.step-1]
			f.Expected = len(st.Error) > 0 || len(st.ErrorAny) > 0
		}
	}
	for _, e := range s.res.Events {
		if e.Kind == core.EvHeartbeat {
			f.HeartbeatNode = e.Node
		}
	}
	f.NextNode = nextNode(f.Nodes, s.lastHeartbeat())
	f.Queues = s.shown.withUsers(sched, f.Queues, f.queuesShown())
	f.Users = s.users(f.Apps)
	if s.sel != "" {
		if t, err := sched.UserLimitTerms(s.sel); err == nil {
			f.UserLimit = &t
		}
		if t, err := sched.AMLimitTerms(s.sel); err == nil {
			f.AMLimit = &t
		}
		f.SelectedUser = s.selUser
	}
	f.Partitions = partitionsOf(sched)
	if f.HasPartition(s.part) {
		f.Partition = s.part
	}
	if s.sel != "" && len(f.Partitions) > 0 {
		f.PartitionLimits = map[string]PartitionLimits{}
		for _, p := range f.Partitions {
			if ul, am, err := sched.PartitionLimitTerms(s.sel, p.Label); err == nil {
				f.PartitionLimits[p.Label] = PartitionLimits{UserLimit: ul, AMLimit: am}
			}
		}
	}
	for i := 1; i <= s.step && i < len(s.recs); i++ {
		f.Check = append(f.Check, s.recs[i].checks...)
	}
	f.History = s.history(s.step)
	s.frame = f
}

// label says what the current step did: "step 42: heartbeat of n3".
func (s *Store) label() string {
	if s.step == 0 {
		return fmt.Sprintf("start: %s, %s", plural(len(s.cur.Scheduler().Nodes()), "node", "nodes"),
			plural(len(s.recs[0].paths), "queue", "queues"))
	}
	st := &s.doc.Steps[s.step-1]
	return fmt.Sprintf("step %d: %s%s", s.step, kindWords(st), Describe(st))
}

// lastHeartbeat is the node of the last heartbeat up to the current step,
// looking back a few steps; "" when none is near.
func (s *Store) lastHeartbeat() string {
	for i := len(s.res.Events) - 1; i >= 0; i-- {
		if e := s.res.Events[i]; e.Kind == core.EvHeartbeat {
			return e.Node
		}
	}
	for i := s.step; i >= 1 && i > s.step-16; i-- {
		st := &s.doc.Steps[i-1]
		if n := len(st.Heartbeat); n > 0 {
			return st.Heartbeat[n-1].Node
		}
		if st.Tick != nil {
			return ""
		}
	}
	return ""
}

// nextNode is the node after last in node order (the first after the end,
// or when last is unknown).
func nextNode(nodes []core.NodeView, last string) string {
	if len(nodes) == 0 {
		return ""
	}
	for i, n := range nodes {
		if n.Name == last {
			return nodes[(i+1)%len(nodes)].Name
		}
	}
	return nodes[0].Name
}

// users are the users the work names: owners of apps, users with groups,
// submitters and killers in its steps, sorted.
func (s *Store) users(apps []core.AppView) []string {
	steps := s.stepUsers.read(s.doc.Steps)
	set := make(map[string]bool, len(steps)+len(s.doc.Groups))
	for u := range steps {
		set[u] = true
	}
	for u := range s.doc.Groups {
		set[u] = true
	}
	last := ""
	for _, a := range apps {
		// Apps come in runs of one user's often enough to skip a hash.
		if a.User != last {
			set[a.User] = true
			last = a.User
		}
	}
	out := make([]string, 0, len(set))
	for u := range set {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// stepUsers is the set of users a work's steps name (submitters, killers),
// kept for the first n steps of the array whose first step is at first.
// The work's steps change by a copy (edit), by a shorter slice (Fork, a
// refused step) or by a step appended in place (appendStep), which leaves
// the steps before it as they were: read goes on from step n while the
// steps are the same array and no shorter, and reads them all again
// otherwise. At benchmark 5's scale (20,000 steps), reading them all took
// 5 to 9 ms of every frame in the browser.
type stepUsers struct {
	first *scenarios.Step
	n     int
	set   map[string]bool
}

// read returns the users steps name.
func (c *stepUsers) read(steps []scenarios.Step) map[string]bool {
	if len(steps) == 0 || &steps[0] != c.first || c.n > len(steps) {
		*c = stepUsers{set: map[string]bool{}}
		if len(steps) > 0 {
			c.first = &steps[0]
		}
	}
	for ; c.n < len(steps); c.n++ {
		st := &steps[c.n]
		if st.Submit != nil && st.Submit.User != "" {
			c.set[st.Submit.User] = true
		}
		if st.KillApp != nil && st.KillApp.By != "" {
			c.set[st.KillApp.By] = true
		}
	}
	return c.set
}

// walk is, per leaf, the apps considered in order and what became of each.
func walk(events []core.Event) map[string][]AppVisit {
	out := map[string][]AppVisit{}
	settle := func(e core.Event, outcome string) {
		l := out[e.Queue]
		if n := len(l); n > 0 && l[n-1].App == e.App && l[n-1].Outcome == OutcomeConsidered {
			l[n-1].Outcome, l[n-1].Reason = outcome, e.Reason
			return
		}
		out[e.Queue] = append(l, AppVisit{App: e.App, User: e.User, Outcome: outcome, Reason: e.Reason})
	}
	for _, e := range events {
		switch e.Kind {
		case core.EvAppConsidered:
			out[e.Queue] = append(out[e.Queue], AppVisit{App: e.App, User: e.User, Outcome: OutcomeConsidered})
		case core.EvAppSkipped:
			settle(e, OutcomeSkipped)
		case core.EvAllocated, core.EvReservationFulfil:
			settle(e, OutcomeAllocated)
		case core.EvReserved, core.EvReReserved:
			settle(e, OutcomeReserved)
		}
	}
	return out
}

// marks are the notable events of a step, each once, in a fixed order;
// reserved adds a reservation the step's events do not show (they were
// not recorded).
func marks(r scenarios.StepResult, reserved bool) []string {
	var has [4]bool
	has[2] = reserved
	for _, e := range r.Events {
		switch e.Kind {
		case core.EvAppSubmitted:
			has[0] = true
		case core.EvAppFinished, core.EvAppKilled:
			has[1] = true
		case core.EvReserved:
			has[2] = true
		case core.EvPreemptionMarked, core.EvPreemptionKilled:
			has[3] = true
		}
	}
	var out []string
	for i, m := range []string{MarkSubmit, MarkFinish, MarkReserve, MarkPreempt} {
		if has[i] {
			out = append(out, m)
		}
	}
	return out
}

// history returns the usage of every queue at steps 0..k, aligned with the
// queues of step k. Points are shared between frames and never changed.
func (s *Store) history(k int) []HistoryPoint {
	if k >= len(s.recs) {
		k = len(s.recs) - 1
	}
	want := s.recs[k]
	if s.hist.pathsID != want.pathsID {
		s.hist = histCache{pathsID: want.pathsID}
	}
	if len(s.hist.points) <= k {
		index := make(map[string]int, len(want.paths))
		for i, p := range want.paths {
			index[p] = i
		}
		for i := len(s.hist.points); i <= k; i++ {
			r := s.recs[i]
			hp := HistoryPoint{Step: i, Tick: r.tick, Marks: r.marks, Used: r.used}
			if r.pathsID != want.pathsID {
				hp.Used = make([]resource.Resource, len(want.paths))
				for j, p := range r.paths {
					if at, ok := index[p]; ok {
						hp.Used[at] = r.used[j]
					}
				}
			}
			s.hist.points = append(s.hist.points, hp)
		}
	}
	return s.hist.points[: k+1 : k+1]
}

// kindWords say what kind of step a step is, before Describe's words,
// so a learner tells a step of the scenario from a heartbeat: "scenario
// action: " for what a user or an operator does (submit, ask, finish,
// kill, refresh, add or remove a node, preemption); nothing for a
// heartbeat, a tick or a check, whose descriptions say it ("heartbeat of
// n7", "tick of all nodes: …", "check: …").
func kindWords(st *scenarios.Step) string {
	switch st.Kind() {
	case scenarios.KindHeartbeat, scenarios.KindTick, scenarios.KindExpect:
		return ""
	}
	return "scenario action: "
}

// Describe says what a step does, in a few words: "heartbeat of n3",
// "alice submits app_1 to a".
func Describe(st *scenarios.Step) string {
	switch st.Kind() {
	case scenarios.KindSubmit:
		sub := st.Submit
		am := "no AM"
		if sub.AM != nil {
			am = "AM " + mb(sub.AM.MemoryMB)
		}
		return fmt.Sprintf("%s submits %s to %s (%s)", sub.User, sub.App, sub.Queue, am)
	case scenarios.KindRequest:
		var parts []string
		for _, a := range st.Request {
			at := ""
			if a.Locality != "" && a.Locality != core.AnyLocation {
				at = " on " + a.Locality
			}
			parts = append(parts, fmt.Sprintf("%s asks for %d × %s%s", a.App, a.Count, mb(a.Resource.MemoryMB), at))
		}
		return strings.Join(parts, "; ")
	case scenarios.KindHeartbeat:
		var names []string
		for _, h := range st.Heartbeat {
			n := h.Node
			if h.Times > 1 {
				n += fmt.Sprintf(" ×%d", h.Times)
			}
			names = append(names, n)
		}
		if len(names) == 1 && st.Heartbeat[0].Times <= 1 {
			return "heartbeat of " + names[0]
		}
		return "heartbeats of " + strings.Join(names, ", ")
	case scenarios.KindTick:
		if *st.Tick == 1 {
			return "tick of all nodes: every node heartbeats once"
		}
		return fmt.Sprintf("%d ticks of all nodes: every node heartbeats %d times", *st.Tick, *st.Tick)
	case scenarios.KindFinishContainer:
		fc := st.FinishContainer
		on := ""
		if fc.Node != "" {
			on = " on " + fc.Node
		}
		return fmt.Sprintf("%s finishes %s%s", fc.App, plural(fc.Count, "container", "containers"), on)
	case scenarios.KindFinishApp:
		return st.FinishApp + " finishes"
	case scenarios.KindKillApp:
		return fmt.Sprintf("%s kills %s", st.KillApp.By, st.KillApp.App)
	case scenarios.KindRefresh:
		r := st.Refresh
		n := len(r.Set) + len(r.Unset)
		if r.ReplaceConfig != nil {
			return "refresh the queues with a new configuration"
		}
		return "refresh the queues (" + plural(n, "property", "properties") + " changed)"
	case scenarios.KindAddNode:
		a := st.AddNode
		if a.Count > 1 {
			return fmt.Sprintf("add %d nodes %s", a.Count, a.Name)
		}
		return "add node " + a.Name
	case scenarios.KindRemoveNode:
		return "remove node " + st.RemoveNode.Name
	case scenarios.KindPreemptionSnapshot:
		return "preemption snapshot"
	case scenarios.KindPreemptionRound:
		return fmt.Sprintf("preemption round at %d ms", st.PreemptionRound.NowMS)
	case scenarios.KindRestore:
		r := st.Restore
		return fmt.Sprintf("restore the cluster: %s, %s", plural(len(r.Apps), "application", "applications"), plural(len(r.Containers), "container", "containers"))
	case scenarios.KindExpect:
		return "check: the scenario's expectations"
	}
	return "an unknown step"
}

func mb(v int64) string { return fmt.Sprintf("%d MB", v) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
