package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"yarnplay/core"
	"yarnplay/scenarios"
)

// Time travel. Going to a step replays from the nearest checkpoint, so a
// step reached going back shows exactly the state it showed going forward.

// Jump stands on step k (0: the start; clamped to the scenario).
func (s *Store) Jump(k int) {
	k = min(max(k, 0), len(s.doc.Steps))
	s.seek(k)
	s.err = ""
	s.publish()
}

// First goes to the start.
func (s *Store) First() { s.Jump(0) }

// Last goes to the end.
func (s *Store) Last() { s.Jump(len(s.doc.Steps)) }

// Back goes one step back (nothing at the start).
func (s *Store) Back() { s.Jump(s.step - 1) }

// AtEnd reports whether the viewer stands on the last step.
func (s *Store) AtEnd() bool { return s.step >= len(s.doc.Steps) }

// Forward goes one step forward. At the end it acts instead: the next node
// in node order heartbeats (a new step).
func (s *Store) Forward() error {
	if !s.AtEnd() {
		s.Jump(s.step + 1)
		return nil
	}
	return s.Heartbeat("")
}

// ForwardTick goes forward until simulated time has moved one tick (or to
// the end). At the end it acts instead: every node heartbeats once (a new
// `tick` step).
func (s *Store) ForwardTick() error {
	if s.AtEnd() {
		return s.Tick(1)
	}
	start := s.cur.Scheduler().Now()
	for !s.AtEnd() {
		s.seek(s.step + 1)
		if s.cur.Scheduler().Now() > start {
			break
		}
	}
	s.err = ""
	s.publish()
	return nil
}

// PlayStep is one beat of play: the next step, or at the end one more
// tick while some application still wants containers or runs timed ones.
// It returns false (and does nothing) when play should pause: at the end
// with nothing left to do, or when the last tick changed nothing.
func (s *Store) PlayStep() bool {
	if !s.AtEnd() {
		s.Jump(s.step + 1)
		return true
	}
	if !s.busy() {
		return false
	}
	if s.step > 0 && s.doc.Steps[s.step-1].Tick != nil && !changed(s.res.Events) {
		return false
	}
	return s.Tick(1) == nil
}

// busy reports whether an application still asks for containers or has
// containers that finish by themselves.
func (s *Store) busy() bool {
	for _, a := range s.frame.Apps {
		if a.State != core.AppAccepted && a.State != core.AppRunning {
			continue
		}
		for _, r := range a.Requests {
			if r.Outstanding > 0 {
				return true
			}
		}
	}
	for _, c := range s.frame.Containers {
		if c.EndTick > 0 {
			return true
		}
	}
	return false
}

// changed reports whether events changed containers or reservations.
func changed(events []core.Event) bool {
	for _, e := range events {
		switch e.Kind {
		case core.EvAllocated, core.EvReserved, core.EvReservationFulfil, core.EvUnreserved,
			core.EvContainerFinished, core.EvAppFinished, core.EvAppActivated:
			return true
		}
	}
	return false
}

// Reset goes back to the scenario as it was loaded (the lesson, the file
// or the link), at the start. The selection stays.
func (s *Store) Reset() {
	sel, user := s.sel, s.selUser
	if err := s.Load(s.origin, s.lesson); err != nil {
		return
	}
	s.sel, s.selUser = sel, user
	s.publish()
}

// Fork ends the scenario at the current step: the later steps are dropped,
// so that the viewer can play a different future from here.
func (s *Store) Fork() error {
	if s.AtEnd() {
		return nil
	}
	d := s.edit()
	d.Steps = d.Steps[:s.step]
	return s.commit(d, s.step, s.step, nil)
}

// Select selects a queue by full path ("" for none) and forgets the
// selected user unless it is still a user of the queue.
func (s *Store) Select(queue string) {
	if queue != "" {
		if _, err := s.cur.Scheduler().Queue(queue); err != nil {
			s.err = "no queue " + queue + " at this step"
			s.publish()
			return
		}
	}
	if queue != s.sel {
		s.selUser = ""
	}
	s.sel = queue
	s.err = ""
	s.publish()
}

// SelectUser selects a user of the selected queue ("" for none).
func (s *Store) SelectUser(user string) {
	s.selUser = user
	s.publish()
}

// Actions on the cluster. Each becomes a step at the current position: the
// steps after it are replaced (the future forks). A step that fails is
// refused and changes nothing.

// Act adds st as the next step, dropping the steps after the current one,
// and stands on it. A step Hadoop refuses (or an invalid one) is refused.
func (s *Store) Act(st scenarios.Step) error {
	if k := st.Kind(); k == "" || k == scenarios.KindExpect {
		return s.refuse(errors.New("not a step the playground can add"))
	}
	// A step changes neither the cluster nor the configuration the work
	// starts with: the new work shares them with the old (no copy, which
	// would also give every frame a configuration map of its own, see
	// Store.conf).
	d := *s.doc
	d.Steps = s.appendStep(st)
	return s.commit(&d, s.step, s.step+1, stepMustSucceed)
}

// appendStep returns the work's steps up to the current one followed by
// st, without changing the work's. Copying ten thousand steps for every
// tick costs more than the tick's views: a step added at the end goes in
// place, after the last step added that way, when the steps have room.
// Scenarios with fewer steps that share them never see it, and no other
// scenario adds a step there: only the scenario whose steps end where
// the last one went may add the next (a refused step leaves the work one
// step short of that, so the next step is copied).
func (s *Store) appendStep(st scenarios.Step) []scenarios.Step {
	steps := s.doc.Steps[:s.step]
	if t := s.tail; len(t) > 0 && len(steps) == len(t) && &steps[0] == &t[0] && cap(steps) > len(steps) {
		s.tail = append(steps, st)
		return s.tail
	}
	s.tail = append(make([]scenarios.Step, 0, len(steps)+len(steps)/4+16), steps...)
	s.tail = append(s.tail, st)
	return s.tail
}

// Submit submits an application (see scenarios.Submit).
func (s *Store) Submit(sub scenarios.Submit) error {
	if sub.App == "" {
		sub.App = s.NextAppID()
	}
	if strings.TrimSpace(sub.User) == "" {
		return s.refuse(errors.New("say which user submits the application"))
	}
	if strings.TrimSpace(sub.Queue) == "" {
		return s.refuse(errors.New("say which queue the application goes to"))
	}
	return s.Act(scenarios.Step{Submit: &sub})
}

// NextAppID is a fresh application id: app_1, app_2, ...
func (s *Store) NextAppID() string {
	used := map[string]bool{}
	for _, a := range s.frame.Apps {
		used[a.ID] = true
	}
	for i := range s.doc.Steps {
		if sub := s.doc.Steps[i].Submit; sub != nil {
			used[sub.App] = true
		}
	}
	for i := 1; ; i++ {
		if id := fmt.Sprintf("app_%d", i); !used[id] {
			return id
		}
	}
}

// Request is an AM's allocate call: asks with YARN's replace semantics.
func (s *Store) Request(asks ...scenarios.Ask) error {
	if len(asks) == 0 {
		return s.refuse(errors.New("an allocate call needs at least one ask"))
	}
	for _, a := range asks {
		if a.Count < 0 {
			return s.refuse(fmt.Errorf("the count of containers cannot be negative (%d)", a.Count))
		}
	}
	return s.Act(scenarios.Step{Request: scenarios.Asks(asks)})
}

// Heartbeat makes a node heartbeat; "" is the next node in node order.
func (s *Store) Heartbeat(node string) error {
	if node == "" {
		node = s.frame.NextNode
	}
	if node == "" {
		return s.refuse(errors.New("the cluster has no node to heartbeat: add a node first"))
	}
	return s.Act(scenarios.Step{Heartbeat: scenarios.Heartbeats{{Node: node}}})
}

// Tick makes every node heartbeat once, n times over.
func (s *Store) Tick(n int) error {
	if n < 1 {
		return s.refuse(fmt.Errorf("a tick count is at least 1 (got %d)", n))
	}
	return s.Act(scenarios.Step{Tick: &n})
}

// FinishContainers completes the app's count most recently allocated
// non-AM containers (only those on node, when set).
func (s *Store) FinishContainers(app string, count int, node string) error {
	return s.Act(scenarios.Step{FinishContainer: &scenarios.FinishContainer{App: app, Count: count, Node: node}})
}

// FinishApp finishes an application's attempt.
func (s *Store) FinishApp(app string) error {
	if app == "" {
		return s.refuse(errors.New("say which application finishes"))
	}
	return s.Act(scenarios.Step{FinishApp: app})
}

// KillApp kills an application on behalf of a user.
func (s *Store) KillApp(app, by string) error {
	return s.Act(scenarios.Step{KillApp: &scenarios.KillApp{App: app, By: by}})
}

// Nodes and groups. At the start they change the cluster the scenario
// starts with (the later steps are kept and replayed); later they are steps.

// AddNodes adds a node, or with Count > 1 nodes named by "{i}" (the name
// gets "{i}" appended when it has none).
func (s *Store) AddNodes(spec scenarios.NodeSpec) error {
	spec.Name = strings.TrimSpace(spec.Name)
	if spec.Name == "" {
		return s.refuse(errors.New("a node needs a name"))
	}
	if spec.Count == 1 {
		spec.Count = 0
	}
	if spec.Count > 1 && !strings.Contains(spec.Name, "{i}") {
		spec.Name += "{i}"
	}
	if s.step > 0 {
		return s.Act(scenarios.Step{AddNode: &spec})
	}
	d := s.edit()
	d.Nodes = append(d.Nodes, spec)
	return s.commit(d, -1, 0, nil)
}

// RemoveNode removes a node: from the start's nodes at step 0, else as a
// remove_node step.
func (s *Store) RemoveNode(name string) error {
	if s.step > 0 {
		return s.Act(scenarios.Step{RemoveNode: &scenarios.RemoveNode{Name: name}})
	}
	d := s.edit()
	var nodes []scenarios.NodeSpec
	found := false
	for _, n := range d.Nodes {
		names := scenarios.ExpandNames(n.Name, n.Count)
		if !slices.Contains(names, name) {
			nodes = append(nodes, n)
			continue
		}
		found = true
		for _, other := range names {
			if other != name {
				one := n
				one.Name, one.Count = other, 0
				nodes = append(nodes, one)
			}
		}
	}
	if !found {
		return s.refuse(fmt.Errorf("no node %s in the cluster at the start", name))
	}
	d.Nodes = nodes
	return s.commit(d, -1, 0, nil)
}

// SetGroups sets a user's groups (for ACLs), from the start; no groups
// forgets the user's. The store stays on the current step.
func (s *Store) SetGroups(user string, groups []string) error {
	user = strings.TrimSpace(user)
	if user == "" {
		return s.refuse(errors.New("a user needs a name"))
	}
	d := s.edit()
	var clean []string
	for _, g := range groups {
		if g = strings.TrimSpace(g); g != "" {
			clean = append(clean, g)
		}
	}
	if d.Groups == nil {
		d.Groups = map[string][]string{}
	}
	if len(clean) == 0 {
		delete(d.Groups, user)
	} else {
		d.Groups[user] = clean
	}
	return s.commit(d, -1, s.step, nil)
}
