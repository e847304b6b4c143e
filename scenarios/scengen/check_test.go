package scengen

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/scenarios"
)

// stepError is a failed check: the seed, the step (0: the start) and why.
type stepError struct {
	seed uint64
	step int
	kind string
	err  error
}

func (e *stepError) Error() string {
	if e.seed == 0 {
		return fmt.Sprintf("step %d (%s): %v", e.step, e.kind, e.err)
	}
	return fmt.Sprintf("seed %d, step %d (%s): %v\nreproduce: go test ./scenarios/scengen -run 'TestGeneratedScenarios$' -seed %d -v "+
		"(add -dump seed%d.yaml to write the scenario)", e.seed, e.step, e.kind, e.err, e.seed, e.seed)
}

// run is what checking one scenario recorded: the events of each step
// (index 0: the start) and the state after the clone step and at the end.
type run struct {
	events     [][]core.Event
	cloneState []byte
	final      []byte
}

// hash is the sha256 of the whole record: every step's events and the
// final state.
func (r *run) hash() [32]byte {
	h := sha256.New()
	for _, ev := range r.events {
		b, err := json.Marshal(ev)
		if err != nil {
			panic(err)
		}
		h.Write(b)
	}
	h.Write(r.final)
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// checkScenario plays a generated scenario and checks every property after
// every step (see the package documentation). With cloneAt >= 0 it also
// clones the player after that step and replays the rest from the clone.
// A panic is returned as an error naming the seed and step.
func checkScenario(seed uint64, sc *scenarios.Scenario, cloneAt int, st *stats) (r *run, err error) {
	stepNo, kind := 0, "start"
	fail := func(err error) (*run, error) {
		return nil, &stepError{seed: seed, step: stepNo, kind: kind, err: err}
	}
	defer func() {
		if v := recover(); v != nil {
			r, err = fail(fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
		}
	}()
	if err := sc.Validate(); err != nil {
		return fail(err)
	}
	p, err := scenarios.NewPlayer(sc)
	if err != nil {
		return fail(err)
	}
	p.SetNarrate(false)
	s := p.Scheduler()
	calc := s.Settings().Calculator
	st.scenario(sc, calc)
	led := newLedger(calc, st)
	r = &run{}
	prev := viewOf(s)
	start := p.Start()
	if err := led.apply(start.Events); err != nil {
		return fail(err)
	}
	if err := check(s, led, prev); err != nil {
		return fail(err)
	}
	r.events = append(r.events, start.Events)
	var clone *scenarios.Player
	for !p.Done() {
		if p.Pos() == cloneAt {
			stepNo, kind = cloneAt, "clone"
			if clone, err = cloneOf(seed, p); err != nil {
				return fail(err)
			}
			r.cloneState = prev.json()
		}
		next := &sc.Steps[p.Pos()]
		var before []byte
		if len(next.Error) > 0 {
			before = prev.json()
		}
		stepNo, kind = p.Pos()+1, next.Kind()
		res := p.Next()
		cur := viewOf(s)
		if len(res.Mismatches) > 0 {
			m := res.Mismatches[0]
			return fail(fmt.Errorf("the scenario's own check failed: %s: expected %s, found %s", m.Path, m.Expected, m.Found))
		}
		st.step(res)
		if before != nil {
			st.add("checked refused step unchanged", 1)
			if d := unchanged(before, prev, cur); d != "" {
				return fail(fmt.Errorf("%v: %s", res.Err, d))
			}
		}
		led.effMax = map[string]resource.Resource{}
		for _, q := range prev.Queues {
			led.effMax[q.Path] = q.EffectiveMax
		}
		if err := led.apply(res.Events); err != nil {
			return fail(err)
		}
		if err := check(s, led, cur); err != nil {
			return fail(err)
		}
		if err := usedAboveMax(prev.Queues, cur.Queues, calc); err != nil {
			return fail(err)
		}
		if err := appStates(prev.Apps, cur.Apps); err != nil {
			return fail(err)
		}
		r.events = append(r.events, res.Events)
		prev = cur
	}
	r.final = prev.json()
	if clone != nil {
		stepNo, kind = cloneAt, "clone"
		st.add("checked clone replay", 1)
		if err := replayClone(clone, cloneAt, r); err != nil {
			return fail(err)
		}
	}
	return r, nil
}

// check runs the scheduler's own invariants and the ledger comparison.
func check(s *core.Scheduler, led *ledger, v *view) error {
	if err := s.CheckInvariants(); err != nil {
		return fmt.Errorf("CheckInvariants: %w", err)
	}
	if err := led.compare(v); err != nil {
		return fmt.Errorf("the decision record does not reproduce the state: %w", err)
	}
	return nil
}

// replayClone checks that a clone taken after step k still shows the state
// of step k after the original moved on, and that played forward it makes
// the same decisions and reaches the same final state.
func replayClone(c *scenarios.Player, k int, r *run) error {
	if got := viewOf(c.Scheduler()).json(); string(got) != string(r.cloneState) {
		return fmt.Errorf("the clone taken after step %d changed when the original played on: %s", k, firstDiff(r.cloneState, got))
	}
	c.SetNarrate(false)
	for !c.Done() {
		res := c.Next()
		if !slices.Equal(res.Events, r.events[res.Step]) {
			return fmt.Errorf("step %d played from the clone made other decisions than the original", res.Step)
		}
	}
	if got := viewOf(c.Scheduler()).json(); string(got) != string(r.final) {
		return fmt.Errorf("played from the clone taken after step %d, the scenario ends in another state: %s", k, firstDiff(r.final, got))
	}
	return nil
}

// firstDiff shows where two renderings first differ, with some context.
func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(i-120, 0)
	return fmt.Sprintf("expected …%s…, found …%s…", want[from:min(i+60, len(want))], got[from:min(i+60, len(got))])
}

// cloneOf clones the player.
func cloneOf(_ uint64, p *scenarios.Player) (*scenarios.Player, error) {
	return p.Clone(), nil
}

// cloneStep picks where a scenario of n steps is cloned: from the seed, in
// its second half.
func cloneStep(seed uint64, n int) int {
	r := rand.New(rand.NewPCG(seed, 7))
	return n/2 + r.IntN(n-n/2+1)
}
