package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// Store owns the work in progress: the scenario being played and edited
// (the scenario is the document), the player standing on the current step,
// checkpoints for time travel, the selection, and the Frame it publishes.
//
// A Store is not safe for concurrent use: the UI calls it on its one
// goroutine. Every action either succeeds, or is refused with an error and
// changes nothing (the error is also in the next Frame's Err, in words).
// Scenarios the store holds are never changed after they are committed: an
// edit makes a new one.
type Store struct {
	doc    *scenarios.Scenario
	origin *scenarios.Scenario
	lesson string
	rev    int
	// works counts the works held (see Works).
	works int

	// cur stands on step (it belongs to the store alone); res is what that
	// step did.
	cur  *scenarios.Player
	res  scenarios.StepResult
	step int

	// cps are checkpoints by ascending step (cps[0] is the start); recs[i]
	// is what step i left (recs holds every step up to the furthest one
	// played since the last edit).
	cps     []checkpoint
	recs    []record
	pathsID int
	// going is a move to a step under way, part by part (JumpPart).
	going *going
	// near is a checkpoint going back left a little before the step it
	// went to, when the nearest of cps was far (see nearMark): stepping
	// back again replays from it. There is at most one, outside cps and
	// their thinning.
	near *checkpoint
	// furthest is the objects of the furthest state played (see
	// checkpointShare), cloneFloor included.
	furthest int64
	// due is the checkpoint the last step recorded called for, its player
	// not cloned yet, when the store defers them (DeferCheckpoints).
	due    *checkpoint
	lazyCP bool

	sel, selUser string
	// part is the partition the views show (SelectPartition), "" the
	// default one.
	part  string
	err   string
	frame *Frame
	hist  histCache

	// views, shown and confCache are what the last frame showed of the
	// state; nodeScratch is where the nodes' views are built before the
	// frame takes its parts of them (splitNodes).
	views       views
	shown       shownUsers
	nodeScratch []core.NodeView
	// spare is the lists of the views before the last, which the next
	// views are built over when the store reuses them (ReuseViews).
	reuse bool
	spare struct {
		cs   []core.ContainerBrief
		apps []core.AppView
	}
	// link is the share link's payload of the work (LinkAt).
	link      linkCache
	confCache confCache
	// scratch is where record reads the usage of the queues.
	scratch struct {
		paths []string
		used  []resource.Resource
	}
	// tail are the steps Act last appended a step to: while the work's
	// steps are these, the next step goes in place (see appendStep).
	tail []scenarios.Step
	// stepUsers are the users the work's steps name (users).
	stepUsers stepUsers
	// played counts the steps the store has played (replays included).
	played int
	// rest is the saved work whose later steps are still to be read
	// (RestoreHeadFor), nil once they are.
	rest *scenarios.LinkHead
}

// record is what a step left, for the usage chart and the checks.
type record struct {
	tick int64
	// heartbeats is the scheduler's count of node heartbeats after the
	// step (for the work between two steps, see work).
	heartbeats int64
	pathsID    int
	paths      []string
	used       []resource.Resource
	marks      []string
	checks     []string
	// apps counts the applications submitted up to this step (for the
	// cost of a checkpoint).
	apps int
}

// Blank returns a new scenario as Hadoop ships its configuration: one
// queue, default, with all of root's capacity, on one node of the default
// size, and no steps.
func Blank() *scenarios.Scenario {
	return &scenarios.Scenario{
		Version: scenarios.FormatVersion,
		Name:    "Untitled",
		Config: map[string]string{
			"yarn.scheduler.capacity.root.queues":           "default",
			"yarn.scheduler.capacity.root.default.capacity": "100",
		},
		Nodes: []scenarios.NodeSpec{{Name: "n0"}},
	}
}

// New returns a store holding a Blank scenario.
func New() *Store {
	s := &Store{}
	if err := s.Load(Blank(), ""); err != nil {
		panic("store: the empty scenario does not load: " + err.Error())
	}
	return s
}

// Frame returns the frame of the current step. It is never changed once
// published: every change publishes a new one (but see ReuseViews).
func (s *Store) Frame() *Frame { return s.frame }

// ReuseViews has the store build the lists of each state's views of the
// nodes' containers and of the applications (Frame.Containers,
// Frame.Apps) over those of the views before the last, instead of new
// lists for every state. Those lists are most of the garbage a step of a
// big cluster leaves, which sets how often the collector runs. A frame's
// Containers and Apps are then its own only until the store has built
// the views of two more states: who keeps a frame longer keeps them apart
// (Frame.ForPage copies the applications it keeps, Frame.OwnContainers
// and ForPaintedNodes the containers).
func (s *Store) ReuseViews() { s.reuse = true }

// Scenario returns the work in progress. It must not be changed: edit it
// through the store's actions.
func (s *Store) Scenario() *scenarios.Scenario { return s.doc }

// Lesson returns the slug of the built-in lesson the work started from ("").
func (s *Store) Lesson() string { return s.lesson }

// Works counts the works the store has held: it changes whenever an action
// replaces the work, or starts it again (Load, and so Reset, OpenLink,
// ImportScenario and Restore; ImportXML, a new start), and not when one
// edits or plays it, nor when an action is refused. Play of the work
// before must stop then.
func (s *Store) Works() int { return s.works }

// Step returns the step the viewer stands on.
func (s *Store) Step() int { return s.step }

// Load replaces the work with sc (from a lesson, a file or a link) at step
// 0. A scenario that is not valid, or whose start Hadoop would refuse, is
// refused and the current work stays.
func (s *Store) Load(sc *scenarios.Scenario, lesson string) error {
	if err := sc.Validate(); err != nil {
		return s.refuse(fmt.Errorf("the scenario is not valid: %w", err))
	}
	if err := s.start(sc, lesson); err != nil {
		return err
	}
	s.publish()
	return nil
}

// start is Load of sc, already validated, without publishing its frame:
// the work stands on its first step.
func (s *Store) start(sc *scenarios.Scenario, lesson string) error {
	p, err := scenarios.NewPlayer(sc)
	if err != nil {
		return s.refuse(startError(err))
	}
	*s = Store{doc: sc, origin: sc, lesson: lesson, works: s.works + 1, sel: s.sel, selUser: s.selUser, part: s.part,
		reuse: s.reuse, lazyCP: s.lazyCP}
	s.cps = []checkpoint{{step: 0, p: p}}
	s.seek(0)
	if s.sel != "" {
		if _, err := s.cur.Scheduler().Queue(s.sel); err != nil {
			s.sel, s.selUser = "", ""
		}
	}
	return nil
}

// startError words a start that fails.
func startError(err error) error {
	var se *scenarios.StartError
	if errors.As(err, &se) && se.Path == "config" {
		return se.Err
	}
	return err
}

// refuse records err for the next frame and returns it; nothing changes.
func (s *Store) refuse(err error) error {
	s.err = err.Error()
	if s.doc != nil {
		s.publish()
	}
	return err
}

// ok clears the last error after an action that succeeded, and publishes.
func (s *Store) ok() error {
	s.err = ""
	s.publish()
	return nil
}

// Report shows err in the next frame's Err, in words (the page's own
// errors: a link that did not open, a save that failed).
func (s *Store) Report(err error) {
	if err != nil {
		s.refuse(err)
	}
}

// ClearError forgets the error shown.
func (s *Store) ClearError() {
	s.err = ""
	s.publish()
}

// play plays p's next step, records it, and returns what it did. The
// scheduler records only what the store will use, which makes the same
// decisions faster (see core.RecordLevel): the step the viewer will stand
// on (target) in full, to be narrated, unless it is big; a step played
// for the first time (for its marks on the usage chart) or followed by an
// expectation (which may check its allocations) its decisions; any other
// step nothing. A big target step is summed up instead of narrated, and
// recorded as when it was first played (its decisions when preemption
// runs), so that its frame is the same however it is reached.
func (s *Store) play(p *scenarios.Player, target bool) scenarios.StepResult {
	s.takeDue() // before its player, maybe p, plays on
	sched := p.Scheduler()
	st := &s.doc.Steps[p.Pos()]
	big := stepHeartbeats(st, sched.NumNodes()) > FullRecordHeartbeats
	fresh := p.Pos()+1 == len(s.recs)
	next := p.Pos() + 1
	expectNext := next < len(s.doc.Steps) && s.doc.Steps[next].Expect != nil
	level := core.RecordNone
	switch {
	case target && !big:
		level = core.RecordFull
	case expectNext || ((fresh || target) && (!big || sched.Settings().Preemption.Enabled)):
		level = core.RecordDecisions
	}
	sched.SetRecord(level)
	p.SetNarrate(target && !big)
	before := sched.Counters()
	r := p.Next()
	s.played++
	after := sched.Counters()
	if target && big {
		r.Lines = append(summary(after, before, sched.Now()), r.Lines...)
		if r.Err != nil {
			r.Lines = append(r.Lines, "the step fails: "+r.Err.Error())
		}
	}
	s.record(p, r, level == core.RecordNone && after.Reservations > before.Reservations)
	return r
}

// FullRecordHeartbeats is the most node heartbeats a step may make for the
// playground to record and narrate its every decision. Recording the walk
// of a heartbeat (the queues visited, the applications considered and
// skipped) costs many times the heartbeat itself: a bigger step (a tick of
// a cluster of more nodes) is played without it and summed up.
const FullRecordHeartbeats = 256

// stepHeartbeats is the number of node heartbeats st makes on a cluster of
// nodes nodes.
func stepHeartbeats(st *scenarios.Step, nodes int) int64 {
	switch {
	case st.Tick != nil:
		return int64(*st.Tick) * int64(nodes)
	case st.Heartbeat != nil:
		var n int64
		for _, h := range st.Heartbeat {
			n += int64(max(h.Times, 1))
		}
		return n
	}
	return 0
}

// summary sums up a big step from the scheduler's counters before and
// after it, in place of a sentence per decision.
func summary(after, before core.Counters, now int64) []string {
	n := func(v int64, one, many string) string { return plural(int(v), one, many) }
	return []string{
		fmt.Sprintf("%s in this step; simulated time is now tick %d.",
			n(after.Heartbeats-before.Heartbeats, "node heartbeat", "node heartbeats"), now),
		fmt.Sprintf("%s allocated, %s completed, %s made.",
			n(after.Allocations-before.Allocations, "container", "containers"),
			n(after.Completed-before.Completed, "container", "containers"),
			n(after.Reservations-before.Reservations, "reservation", "reservations")),
		fmt.Sprintf("Steps of more than %d heartbeats are summed up: recording the scheduler's every decision would take far longer than the step. "+
			"To follow its decisions one by one, go forward one heartbeat at a time.", FullRecordHeartbeats),
	}
}

// record keeps what step r.Step left, the first time it is played, and
// takes a checkpoint when one is due. reserved says that the step made a
// reservation when its events were not recorded.
func (s *Store) record(p *scenarios.Player, r scenarios.StepResult, reserved bool) {
	if r.Step != len(s.recs) {
		return
	}
	sched := p.Scheduler()
	rec := record{tick: sched.Now(), heartbeats: sched.Counters().Heartbeats}
	// Most steps change neither the queues nor, between heartbeats, their
	// usage: records share what did not change, read into scratch space.
	s.scratch.paths, s.scratch.used = sched.QueueUsage(s.scratch.paths[:0], s.scratch.used[:0])
	if n := len(s.recs); n > 0 && slices.Equal(s.recs[n-1].paths, s.scratch.paths) {
		prev := &s.recs[n-1]
		rec.paths, rec.pathsID = prev.paths, prev.pathsID
		rec.used = prev.used
		if !slices.Equal(prev.used, s.scratch.used) {
			rec.used = slices.Clone(s.scratch.used)
		}
	} else {
		s.pathsID++
		rec.paths, rec.used, rec.pathsID = slices.Clone(s.scratch.paths), slices.Clone(s.scratch.used), s.pathsID
	}
	rec.marks = marks(r, reserved)
	for _, m := range r.Mismatches {
		rec.checks = append(rec.checks, m.String())
	}
	if n := len(s.recs); n > 0 {
		rec.apps = s.recs[n-1].apps
		if r.Kind == scenarios.KindSubmit {
			rec.apps++
		}
	}
	s.recs = append(s.recs, rec)
	last := s.cps[len(s.cps)-1]
	n := objects(sched, rec) + cloneFloor
	s.furthest = n
	if r.Step > last.step && s.work(last.step, r.Step) >= span(n) {
		if s.lazyCP {
			s.due = &checkpoint{step: r.Step, p: p, objects: n}
		} else {
			s.cps = append(s.cps, checkpoint{step: r.Step, p: s.clone(p), objects: n})
		}
	}
	s.fit(r.Step)
}

// commit makes doc the work in progress: the steps up to keep are the same
// as before (keep < 0: the start changed too), and the store then stands on
// step target. accept, when set, judges what the target step did; a
// refusal (or a replay that panics) restores everything as it was.
func (s *Store) commit(doc *scenarios.Scenario, keep, target int, accept func(scenarios.StepResult) error) (err error) {
	if s.cur == nil || s.step != keep || !validAppend(s.doc, doc, keep, s.cur.Scheduler()) {
		if err := doc.Validate(); err != nil {
			return s.refuse(err)
		}
	}
	saved := *s
	inPlace := false
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error while replaying the scenario (the change is undone): %v", r)
		}
		if err != nil {
			*s = saved
			if inPlace {
				// The player moved on: stand on the step again from the
				// checkpoints.
				s.cur = nil
				s.seek(saved.step)
			}
			s.refuse(err)
		}
	}()
	if s.due != nil && s.due.step > keep {
		s.due = nil // a step of the work before the change
	}
	if keep < 0 {
		p, err := scenarios.NewPlayer(doc)
		if err != nil {
			return startError(err)
		}
		s.cps = []checkpoint{{step: 0, p: p}}
		s.near = nil
		s.recs = nil
		s.record(p, p.Start(), false)
		s.cur = nil
		s.hist = histCache{}
	} else {
		// What is kept is shared with the saved state, which appends do
		// not reach; what is cut is copied first.
		n := 0
		for n < len(s.cps) && s.cps[n].step <= keep {
			n++
		}
		if n < len(s.cps) {
			s.cps = slices.Clone(s.cps[:n])
		}
		if s.near != nil && s.near.step > keep {
			s.near = nil
		}
		if keep+1 < len(s.recs) {
			s.recs = slices.Clone(s.recs[:keep+1])
			s.hist = histCache{}
		}
		switch {
		case s.cur != nil && s.step == keep && target == keep+1 && cannotFail(&doc.Steps[keep], s.cur.Scheduler()):
			// The next step plays on the current player itself: cloning
			// it costs more than the step.
			inPlace = true
			s.cur.Rebase(doc)
		case s.cur != nil && s.step <= keep:
			s.cur = s.clone(s.cur)
			s.cur.Rebase(doc)
		default:
			s.cur = nil
		}
	}
	s.doc = doc
	s.seek(target)
	if accept != nil {
		if err := accept(s.res); err != nil {
			return err
		}
	}
	s.rev++
	s.err = ""
	s.publish()
	return nil
}

// validAppend reports whether doc is surely valid without validating it
// whole (which costs tens of milliseconds for a scenario of ten thousand
// steps): it is prev (valid, with the same start) kept whole (keep is its
// length) and one tick or heartbeat step of the nodes sched has now added
// at the end, within the limits on the steps and on the heartbeats of a
// step and of a run.
// The run's heartbeats are counted as the validator counts them, or more
// (every tick as if every node the scenario ever names were there), so
// that a doc this accepts is one Validate accepts.
func validAppend(prev, doc *scenarios.Scenario, keep int, sched *core.Scheduler) bool {
	if keep != len(prev.Steps) || len(doc.Steps) != keep+1 || len(doc.Steps) > scenarios.MaxSteps {
		return false
	}
	st := &doc.Steps[keep]
	if len(st.Kinds()) != 1 || !cannotFail(st, sched) {
		return false
	}
	nodes := int64(0)
	for _, n := range doc.Nodes {
		nodes += int64(max(n.Count, 1))
	}
	for i := range doc.Steps {
		if a := doc.Steps[i].AddNode; a != nil {
			nodes += int64(max(a.Count, 1))
		}
	}
	nodes = max(nodes, 1)
	if step := stepHeartbeats(st, int(nodes)); step > scenarios.MaxStepHeartbeats || (st.Tick != nil && *st.Tick < 1) {
		return false
	}
	var total int64
	for i := range doc.Steps {
		total += stepHeartbeats(&doc.Steps[i], int(nodes))
	}
	return total <= scenarios.MaxHeartbeats
}

// cannotFail reports whether st, played next on sched, cannot fail (so
// that it need not be undone): a tick, or heartbeats of nodes that exist
// with no error expected.
func cannotFail(st *scenarios.Step, sched *core.Scheduler) bool {
	if len(st.Error) > 0 || len(st.ErrorAny) > 0 {
		return false
	}
	switch {
	case st.Tick != nil:
		return *st.Tick >= 0
	case st.Heartbeat != nil:
		for _, h := range st.Heartbeat {
			if _, ok := sched.Node(h.Node); !ok || h.Times < 0 {
				return false
			}
		}
		return len(st.Heartbeat) > 0
	}
	return false
}

// stepMustSucceed refuses a step that failed.
func stepMustSucceed(r scenarios.StepResult) error {
	if r.Err != nil {
		return r.Err
	}
	return nil
}

// edit returns a copy of the work in progress to change: the top level,
// steps, nodes, config and groups are copied, the rest shared (never
// changed in place).
func (s *Store) edit() *scenarios.Scenario {
	d := s.editHead()
	d.Steps = slices.Clone(s.doc.Steps)
	return d
}

// editHead is edit without copying the steps, which the copy shares.
func (s *Store) editHead() *scenarios.Scenario {
	d := *s.doc
	d.Nodes = slices.Clone(s.doc.Nodes)
	d.Config = maps.Clone(s.doc.Config)
	d.Groups = maps.Clone(s.doc.Groups)
	return &d
}
