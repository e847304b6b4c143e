package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/preemption"
	"yarnplay/core/resource"
)

// RunOptions tune Run.
type RunOptions struct {
	// Narrate collects the decision record of every step as sentences
	// (Result.Narration).
	Narrate bool
}

// Result is the outcome of running a scenario.
type Result struct {
	// Name is the scenario's name (its file name when it has none).
	Name string
	// File is the file the scenario was loaded from.
	File string
	// Passed is true when every expectation held and every step behaved as
	// written.
	Passed bool
	// Mismatches lists what did not hold, in step order.
	Mismatches []Mismatch
	// StepsRun counts the steps played; a step that fails unexpectedly (or
	// succeeds where it should fail) stops the run.
	StepsRun int
	// Narration is the decision record of each step (with RunOptions.Narrate).
	Narration []StepNarration
}

// Mismatch is one thing that did not hold.
type Mismatch struct {
	// Step is the step's number, counting from 1 (steps[0] is step 1); 0
	// for the scenario's start (configuration, nodes).
	Step int
	// Path names what was checked, e.g. "expect.queue_used.root.a" or
	// "error".
	Path string
	// Expected and Found are what the scenario says and what happened.
	Expected, Found string
}

// String renders the mismatch as yarnplay-check prints it:
// `step 12 expect.queue_used.root.a: expected <memory:2048>, found <memory:1024>`.
func (m Mismatch) String() string {
	where := "start"
	if m.Step > 0 {
		where = fmt.Sprintf("step %d", m.Step)
	}
	return fmt.Sprintf("%s %s: expected %s, found %s", where, m.Path, m.Expected, m.Found)
}

// StepNarration is what happened in one step, in sentences.
type StepNarration struct {
	// Step counts from 1; 0 is the start (configuration and nodes).
	Step int
	// Kind is the step's kind ("" for the start).
	Kind string
	// Note is the step's note, if any.
	Note string
	// Lines are the decisions, one sentence each.
	Lines []string
}

// runner is the state of one Run.
type runner struct {
	sc   *Scenario
	opts RunOptions
	res  *Result
	s    *core.Scheduler
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

// Run plays the scenario's steps on a new scheduler and checks every
// `expect`, `error`, `error_any` and `config_error`. It validates first; an
// invalid scenario fails with its problems as mismatches at step 0. A step
// that fails without `error` (or succeeds with it) stops the run; failed
// expectations do not.
func Run(sc *Scenario, opts RunOptions) *Result {
	r := &runner{sc: sc, opts: opts, res: &Result{Name: sc.Name, File: sc.File}}
	if r.res.Name == "" {
		r.res.Name = sc.File
	}
	r.run()
	r.res.Passed = len(r.res.Mismatches) == 0
	return r.res
}

func (r *runner) fail(step int, path, expected, found string) {
	r.res.Mismatches = append(r.res.Mismatches, Mismatch{Step: step, Path: path, Expected: expected, Found: found})
}

func (r *runner) narrate(step int, kind, note string, lines ...string) {
	if r.opts.Narrate {
		r.res.Narration = append(r.res.Narration, StepNarration{Step: step, Kind: kind, Note: note, Lines: lines})
	}
}

func (r *runner) run() {
	sc := r.sc
	if err := sc.Validate(); err != nil {
		var es Errors
		if errors.As(err, &es) {
			for _, e := range es {
				r.fail(stepOfPath(e.Path), orDefault(e.Path, "scenario"), "a valid scenario", e.Msg+lineSuffix(e.Line))
			}
		} else {
			r.fail(0, "scenario", "a valid scenario", err.Error())
		}
		return
	}
	if !r.start() {
		return
	}
	for i := range sc.Steps {
		st := &sc.Steps[i]
		r.res.StepsRun = i + 1
		if !r.step(i+1, st) {
			return
		}
	}
}

// start builds the scheduler: configuration, profile, groups and nodes.
func (r *runner) start() bool {
	sc := r.sc
	conf, err := sc.StartConfig()
	if err != nil {
		r.fail(0, "config_xml", "a configuration file", err.Error())
		return false
	}
	profile, err := config.ParseProfile(orDefault(sc.Profile, ProfileHadoop3))
	if err != nil {
		r.fail(0, "profile", "hadoop-3 or hadoop-2", err.Error())
		return false
	}
	s, err := core.New(conf, profile)
	if len(sc.ConfigError) > 0 {
		want := quoteAll(sc.ConfigError)
		switch {
		case err == nil:
			r.fail(0, "config_error", "the configuration refused with "+want, "it was accepted")
		case !containsAllFold(err.Error(), sc.ConfigError):
			r.fail(0, "config_error", "an error containing "+want, quote(err.Error()))
		}
		if err != nil {
			r.narrate(0, "", "", "the configuration is refused: "+err.Error())
		}
		return false
	}
	if err != nil {
		r.fail(0, "config", "a configuration Hadoop accepts", quote(err.Error()))
		r.narrate(0, "", "", "the configuration is refused: "+err.Error())
		return false
	}
	r.s = s
	for _, u := range sortedKeys(sc.Groups) {
		s.SetUserGroups(u, sc.Groups[u])
	}
	for i, n := range sc.Nodes {
		for _, spec := range nodeSpecs(n) {
			if err := s.AddNode(spec); err != nil {
				r.fail(0, index("nodes", i), "node "+spec.Name+" registered", quote(err.Error()))
				return false
			}
		}
	}
	r.narrate(0, "", "", r.sentences(s.TakeEvents())...)
	return true
}

// sentences narrates events, with vcores when the scheduler compares them.
func (r *runner) sentences(events []core.Event) []string {
	if !r.opts.Narrate {
		return nil
	}
	return NarrateWith(events, NarrateOptions{VCores: r.s.Settings().Calculator.Kind == resource.DominantKind})
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
		out[i] = core.NodeSpec{Name: name, Rack: rack, Capacity: resource.New(mem, vc)}
	}
	return out
}

// step plays one step; false stops the run.
func (r *runner) step(n int, st *Step) bool {
	kind := st.Kind()
	if kind == KindExpect {
		before := len(r.res.Mismatches)
		r.checkExpect(n, st.Expect)
		if r.opts.Narrate {
			lines := []string{"every expectation holds"}
			if after := r.res.Mismatches[before:]; len(after) > 0 {
				lines = lines[:0]
				for _, m := range after {
					lines = append(lines, fmt.Sprintf("mismatch: %s: expected %s, found %s", m.Path, m.Expected, m.Found))
				}
			}
			r.narrate(n, kind, st.Note, lines...)
		}
		return true
	}
	wantsError := len(st.Error) > 0 || len(st.ErrorAny) > 0
	var before *stateView
	if wantsError {
		before = r.capture()
	}
	err := r.exec(st)
	var events []core.Event
	if r.s != nil {
		events = r.s.TakeEvents()
	}
	r.lastAllocs = r.lastAllocs[:0]
	for _, e := range events {
		if e.Kind == core.EvAllocated || e.Kind == core.EvReservationFulfil {
			r.lastAllocs = append(r.lastAllocs, e)
		}
	}
	lines := r.sentences(events)
	if err != nil {
		lines = append(lines, "the step fails: "+err.Error())
	}
	r.narrate(n, kind, st.Note, lines...)
	if !wantsError {
		if err != nil {
			r.fail(n, kind, "the step to succeed", quote(err.Error()))
			return false
		}
		return true
	}
	if err == nil {
		r.fail(n, "error", "the step to fail with "+errorWant(st), "it succeeded")
		return false
	}
	if len(st.Error) > 0 && !containsAllFold(err.Error(), st.Error) {
		r.fail(n, "error", "an error containing "+quoteAll(st.Error), quote(err.Error()))
	}
	if len(st.ErrorAny) > 0 && !containsAnyFold(err.Error(), st.ErrorAny) {
		r.fail(n, "error_any", "an error containing one of "+quoteAny(st.ErrorAny), quote(err.Error()))
	}
	if diff := before.diff(r.capture()); diff != "" {
		r.fail(n, "error", "the failed step to change nothing", diff)
	}
	return true
}

func errorWant(st *Step) string {
	if len(st.Error) > 0 {
		return quoteAll(st.Error)
	}
	return "one of " + quoteAny(st.ErrorAny)
}

func containsAllFold(s string, subs []string) bool {
	ls := strings.ToLower(s)
	for _, sub := range subs {
		if !strings.Contains(ls, strings.ToLower(sub)) {
			return false
		}
	}
	return true
}

func containsAnyFold(s string, subs []string) bool {
	ls := strings.ToLower(s)
	for _, sub := range subs {
		if strings.Contains(ls, strings.ToLower(sub)) {
			return true
		}
	}
	return false
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

func quoteAll(list []string) string { return quoteJoin(list, " and ") }

func quoteAny(list []string) string { return quoteJoin(list, " or ") }

func quoteJoin(list []string, sep string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = quote(s)
	}
	return strings.Join(q, sep)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// stepOfPath returns the step number (from 1) a path such as
// "steps[3].submit" names, or 0.
func stepOfPath(path string) int {
	var i int
	if _, err := fmt.Sscanf(path, "steps[%d]", &i); err != nil {
		return 0
	}
	return i + 1
}

func lineSuffix(line int) string {
	if line > 0 {
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}
