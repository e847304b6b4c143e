package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"yarnplay/internal/noeq"
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
	_ noeq.T
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

// runner is the state of one Run: a Player and the result it fills.
type runner struct {
	sc   *Scenario
	opts RunOptions
	res  *Result
	p    *Player
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
	for !r.p.Done() {
		res := r.p.Next()
		r.res.StepsRun = res.Step
		r.res.Mismatches = append(r.res.Mismatches, res.Mismatches...)
		r.narrate(res.Step, res.Kind, res.Note, res.Lines...)
		if res.Stop {
			return
		}
	}
}

// start builds the player (configuration, profile, groups and nodes) and
// checks config_error.
func (r *runner) start() bool {
	sc := r.sc
	p, err := NewPlayer(sc)
	var se *StartError
	if err != nil && !errors.As(err, &se) {
		se = &StartError{Path: "config", Expected: "a configuration Hadoop accepts", Err: err}
	}
	if len(sc.ConfigError) > 0 && (se == nil || se.Path == "config" || strings.HasPrefix(se.Path, "nodes")) {
		if se != nil && se.Path != "config" {
			err = nil // the configuration was accepted; a node was refused after it
		}
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
	if se != nil {
		found := err.Error()
		if se.Path != "config_xml" && se.Path != "profile" {
			found = quote(found)
		}
		r.fail(0, se.Path, se.Expected, found)
		if se.Path == "config" {
			r.narrate(0, "", "", "the configuration is refused: "+err.Error())
		}
		return false
	}
	r.p = p
	p.SetNarrate(r.opts.Narrate)
	r.narrate(0, "", "", p.Start().Lines...)
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
