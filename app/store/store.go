package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// Checkpoint spacing: a clone of the player is kept every checkpointSteps
// steps, or sooner once checkpointHeartbeats node heartbeats have been
// played since the last one, so that going back replays little.
const (
	checkpointSteps      = 8
	checkpointHeartbeats = 400
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

	sel, selUser string
	err          string
	frame        *Frame
	hist         histCache
}

// checkpoint is a player at a step; it is cloned before use, never played.
type checkpoint struct {
	step       int
	p          *scenarios.Player
	heartbeats int64
}

// record is what a step left, for the usage chart and the checks.
type record struct {
	tick    int64
	pathsID int
	paths   []string
	used    []resource.Resource
	marks   []string
	checks  []string
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
// published: every change publishes a new one.
func (s *Store) Frame() *Frame { return s.frame }

// Scenario returns the work in progress. It must not be changed: edit it
// through the store's actions.
func (s *Store) Scenario() *scenarios.Scenario { return s.doc }

// Lesson returns the slug of the built-in lesson the work started from ("").
func (s *Store) Lesson() string { return s.lesson }

// Step returns the step the viewer stands on.
func (s *Store) Step() int { return s.step }

// Load replaces the work with sc (from a lesson, a file or a link) at step
// 0. A scenario that is not valid, or whose start Hadoop would refuse, is
// refused and the current work stays.
func (s *Store) Load(sc *scenarios.Scenario, lesson string) error {
	if err := sc.Validate(); err != nil {
		return s.refuse(fmt.Errorf("the scenario is not valid: %w", err))
	}
	p, err := scenarios.NewPlayer(sc)
	if err != nil {
		return s.refuse(startError(err))
	}
	*s = Store{doc: sc, origin: sc, lesson: lesson, sel: s.sel, selUser: s.selUser}
	s.cps = []checkpoint{{step: 0, p: p}}
	s.seek(0)
	if s.sel != "" {
		if _, err := s.cur.Scheduler().Queue(s.sel); err != nil {
			s.sel, s.selUser = "", ""
		}
	}
	s.publish()
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

// seek stands the store on step k (0 <= k <= len(steps)), replaying from
// the nearest checkpoint or the current player, and recording every step
// played for the first time.
func (s *Store) seek(k int) {
	if s.cur != nil && s.step == k {
		return
	}
	if k == 0 {
		p := s.cps[0].p.Clone()
		p.Rebase(s.doc)
		p.SetNarrate(true)
		s.cur, s.res, s.step = p, p.Start(), 0
		if len(s.recs) == 0 {
			s.record(p, s.res)
		}
		return
	}
	var p *scenarios.Player
	i := len(s.cps) - 1
	for i > 0 && s.cps[i].step > k-1 {
		i--
	}
	cp := s.cps[i]
	if s.cur != nil && s.cur.Pos() >= cp.step && s.cur.Pos() <= k-1 {
		p = s.cur
	} else {
		p = cp.p.Clone()
		p.Rebase(s.doc)
	}
	p.SetNarrate(false)
	for p.Pos() < k-1 {
		s.record(p, p.Next())
	}
	p.SetNarrate(true)
	res := p.Next()
	s.record(p, res)
	s.cur, s.res, s.step = p, res, k
}

// record keeps what step r.Step left, the first time it is played, and
// takes a checkpoint when one is due.
func (s *Store) record(p *scenarios.Player, r scenarios.StepResult) {
	if r.Step != len(s.recs) {
		return
	}
	sched := p.Scheduler()
	qs := sched.Queues()
	rec := record{tick: sched.Now(), paths: make([]string, len(qs)), used: make([]resource.Resource, len(qs))}
	for i, q := range qs {
		rec.paths[i], rec.used[i] = q.Path, q.Used
	}
	if n := len(s.recs); n > 0 && slices.Equal(s.recs[n-1].paths, rec.paths) {
		rec.paths, rec.pathsID = s.recs[n-1].paths, s.recs[n-1].pathsID
	} else {
		s.pathsID++
		rec.pathsID = s.pathsID
	}
	rec.marks = marks(r)
	for _, m := range r.Mismatches {
		rec.checks = append(rec.checks, m.String())
	}
	s.recs = append(s.recs, rec)
	last := s.cps[len(s.cps)-1]
	hb := sched.Counters().Heartbeats
	if r.Step-last.step >= checkpointSteps || (r.Step > last.step && hb-last.heartbeats >= checkpointHeartbeats) {
		s.cps = append(s.cps, checkpoint{step: r.Step, p: p.Clone(), heartbeats: hb})
	}
}

// commit makes doc the work in progress: the steps up to keep are the same
// as before (keep < 0: the start changed too), and the store then stands on
// step target. accept, when set, judges what the target step did; a
// refusal (or a replay that panics) restores everything as it was.
func (s *Store) commit(doc *scenarios.Scenario, keep, target int, accept func(scenarios.StepResult) error) (err error) {
	if err := doc.Validate(); err != nil {
		return s.refuse(err)
	}
	saved := *s
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error while replaying the scenario (the change is undone): %v", r)
		}
		if err != nil {
			*s = saved
			s.refuse(err)
		}
	}()
	if keep < 0 {
		p, err := scenarios.NewPlayer(doc)
		if err != nil {
			return startError(err)
		}
		s.cps = []checkpoint{{step: 0, p: p}}
		s.recs = nil
		s.record(p, p.Start())
		s.cur = nil
	} else {
		n := 0
		for n < len(s.cps) && s.cps[n].step <= keep {
			n++
		}
		s.cps = slices.Clone(s.cps[:n])
		s.recs = slices.Clone(s.recs[:min(keep+1, len(s.recs))])
		if s.cur != nil && s.step <= keep {
			s.cur = s.cur.Clone()
			s.cur.Rebase(doc)
		} else {
			s.cur = nil
		}
	}
	s.doc = doc
	s.hist = histCache{}
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
	d := *s.doc
	d.Steps = slices.Clone(s.doc.Steps)
	d.Nodes = slices.Clone(s.doc.Nodes)
	d.Config = maps.Clone(s.doc.Config)
	d.Groups = maps.Clone(s.doc.Groups)
	return &d
}
