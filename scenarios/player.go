package scenarios

import (
	"fmt"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/preemption"
	"yarnplay/core/resource"
)

// Player plays a scenario's steps one at a time on a scheduler: the runner
// (Run) and the playground both use it, so a step means the same thing in
// both. NewPlayer builds the start state (configuration, groups, nodes); each
// Next applies one step and says what happened. Clone copies the player for
// checkpoints (time travel).
//
// NewPlayer does not Validate the scenario; Run does, and so should a caller
// that plays a scenario it did not check.
type Player struct {
	sc *Scenario
	s  *core.Scheduler
	// pos is the number of steps applied.
	pos     int
	narrate bool
	// start is the narration of the start (step 0).
	start StepResult
	// lastAllocs are the new containers of the last step that was not an
	// expectation.
	lastAllocs []core.Event
	// Preemption: the snapshot, the policy's memory, the last decision and
	// marks and kills per queue since the snapshot.
	snap         *preemption.Snapshot
	pstate       *preemption.State
	lastDecision *preemption.Decision
	totals       map[string]*[2]int
}

// StepResult is what one step did.
type StepResult struct {
	// Step counts from 1 (steps[0] is step 1); 0 is the start.
	Step int
	// Kind is the step's kind ("" for the start).
	Kind string
	// Note is the step's note, if any.
	Note string
	// Events are the scheduler's decisions in this step, in order.
	Events []core.Event
	// Lines narrate the step, one sentence per decision (with narration on);
	// a failed step ends with "the step fails: ...", an expectation says
	// whether it held.
	Lines []string
	// Mismatches are what did not hold: an expectation's failed checks, or a
	// step that failed otherwise than its `error` says.
	Mismatches []Mismatch
	// Err is the step's error, if it failed (expected or not).
	Err error
	// Stop is true when the step failed without an `error`, or succeeded
	// where it should have failed: the runner stops there.
	Stop bool
}

// StartError is a scenario whose start state cannot be built: its
// configuration is refused, its profile unknown or a node refused. Path
// names the part ("config", "config_xml", "profile", "nodes[2]").
type StartError struct {
	Path     string
	Expected string
	Err      error
}

// Error returns the cause's message.
func (e *StartError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// NewPlayer builds the scenario's start state: its configuration
// (config_xml, then config), profile, groups and nodes. It fails with a
// *StartError when Hadoop would refuse the configuration or a node (for a
// scenario with config_error, that refusal is what it expects). The player
// narrates by default (SetNarrate).
func NewPlayer(sc *Scenario) (*Player, error) {
	p := &Player{sc: sc, narrate: true}
	conf, err := sc.StartConfig()
	if err != nil {
		return nil, &StartError{Path: "config_xml", Expected: "a configuration file", Err: err}
	}
	profile, err := config.ParseProfile(orDefault(sc.Profile, ProfileHadoop3))
	if err != nil {
		return nil, &StartError{Path: "profile", Expected: config.ProfileNames, Err: err}
	}
	s, err := core.New(conf, profile)
	if err != nil {
		return nil, &StartError{Path: "config", Expected: "a configuration Hadoop accepts", Err: err}
	}
	p.s = s
	for _, u := range sortedKeys(sc.Groups) {
		s.SetUserGroups(u, sc.Groups[u])
	}
	if len(sc.NodeLabels) > 0 {
		labels := make([]core.NodeLabel, len(sc.NodeLabels))
		for i, l := range sc.NodeLabels {
			labels[i] = core.NodeLabel{Name: l.Name, Exclusive: l.Exclusive == nil || *l.Exclusive}
		}
		if err := s.AddNodeLabels(labels); err != nil {
			return nil, &StartError{Path: "node_labels", Expected: "node labels Hadoop accepts", Err: err}
		}
	}
	for i, n := range sc.Nodes {
		specs := nodeSpecs(n)
		if err := s.AddNodes(specs); err != nil {
			return nil, &StartError{Path: index("nodes", i), Expected: "every node of the entry registered", Err: err}
		}
	}
	events := s.TakeEvents()
	p.start = StepResult{Events: events, Lines: p.sentences(events)}
	return p, nil
}

// SetNarrate turns the narration of steps (StepResult.Lines) on or off;
// replaying without it is faster.
func (p *Player) SetNarrate(on bool) { p.narrate = on }

// Start returns what the start did (step 0): the nodes registered.
func (p *Player) Start() StepResult {
	r := p.start
	if p.narrate && r.Lines == nil {
		r.Lines = p.sentences(r.Events)
	}
	return r
}

// Scheduler returns the scheduler for reading. Changing it directly
// breaks the replay's promise that the same steps give the same state.
func (p *Player) Scheduler() *core.Scheduler { return p.s }

// Scenario returns the scenario being played.
func (p *Player) Scenario() *Scenario { return p.sc }

// Pos returns the number of steps applied: the step the player stands on.
func (p *Player) Pos() int { return p.pos }

// Done reports whether every step has been applied.
func (p *Player) Done() bool { return p.pos >= len(p.sc.Steps) }

// Rebase makes the player play sc from now on, in place of its scenario.
// sc must begin with the steps already played (the first Pos() steps, and
// the same start); the playground rebases its checkpoints when a scenario
// is edited after them.
func (p *Player) Rebase(sc *Scenario) { p.sc = sc }

// Next applies the next step and returns what it did. Past the last step it
// returns a result with Err set and changes nothing.
func (p *Player) Next() StepResult {
	if p.Done() {
		return StepResult{Step: p.pos, Err: fmt.Errorf("the scenario has no step %d", p.pos+1), Stop: true}
	}
	st := &p.sc.Steps[p.pos]
	p.pos++
	n := p.pos
	kind := st.Kind()
	res := StepResult{Step: n, Kind: kind, Note: st.Note}
	if kind == KindExpect {
		res.Mismatches = p.checkExpect(n, st.Expect)
		if p.narrate {
			res.Lines = []string{"every expectation holds"}
			if len(res.Mismatches) > 0 {
				res.Lines = res.Lines[:0]
				for _, m := range res.Mismatches {
					res.Lines = append(res.Lines, fmt.Sprintf("mismatch: %s: expected %s, found %s", m.Path, m.Expected, m.Found))
				}
			}
		}
		return res
	}
	wantsError := len(st.Error) > 0 || len(st.ErrorAny) > 0
	var before *stateView
	if wantsError {
		before = p.capture()
	}
	err := p.exec(st)
	res.Err = err
	res.Events = p.s.TakeEvents()
	p.lastAllocs = p.lastAllocs[:0]
	for _, e := range res.Events {
		if e.Kind == core.EvAllocated || e.Kind == core.EvReservationFulfil {
			p.lastAllocs = append(p.lastAllocs, e)
		}
	}
	res.Lines = p.sentences(res.Events)
	if err != nil && p.narrate {
		res.Lines = append(res.Lines, "the step fails: "+err.Error())
	}
	fail := func(path, expected, found string) {
		res.Mismatches = append(res.Mismatches, Mismatch{Step: n, Path: path, Expected: expected, Found: found})
	}
	switch {
	case !wantsError && err != nil:
		fail(kind, "the step to succeed", quote(err.Error()))
		res.Stop = true
	case wantsError && err == nil:
		fail("error", "the step to fail with "+errorWant(st), "it succeeded")
		res.Stop = true
	case wantsError:
		if len(st.Error) > 0 && !containsAllFold(err.Error(), st.Error) {
			fail("error", "an error containing "+quoteAll(st.Error), quote(err.Error()))
		}
		if len(st.ErrorAny) > 0 && !containsAnyFold(err.Error(), st.ErrorAny) {
			fail("error_any", "an error containing one of "+quoteAny(st.ErrorAny), quote(err.Error()))
		}
		if diff := before.diff(p.capture()); diff != "" {
			fail("error", "the failed step to change nothing", diff)
		}
	}
	return res
}

// sentences narrates events, with vcores when the scheduler compares them.
func (p *Player) sentences(events []core.Event) []string {
	if !p.narrate {
		return nil
	}
	return NarrateWith(events, NarrateOptions{VCores: p.s.Settings().Calculator.Kind == resource.DominantKind})
}

// nodeSpecs expands a node spec into the core's node specs, with defaults.
func nodeSpecs(n NodeSpec) []core.NodeSpec {
	mem, vc, rack := n.MemoryMB, n.VCores, n.Rack
	if mem == 0 {
		mem = DefaultNodeMemoryMB
	}
	if vc == 0 {
		vc = DefaultNodeVCores
	}
	if rack == "" {
		rack = DefaultRack
	}
	names := ExpandNames(n.Name, n.Count)
	out := make([]core.NodeSpec, len(names))
	for i, name := range names {
		out[i] = core.NodeSpec{Name: name, Rack: rack, Capacity: resource.New(mem, vc), Label: n.Label}
	}
	return out
}
