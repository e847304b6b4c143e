package scenarios

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/resource"
)

func mustParse(t *testing.T, data []byte) *Scenario {
	t.Helper()
	sc, err := Parse("t.yaml", data)
	require.NoError(t, err)
	return sc
}

// runPasses runs a scenario of testdata, which must pass whole.
func runPasses(t *testing.T, file string) *Result {
	t.Helper()
	sc, err := Load(os.DirFS("testdata"), file)
	require.NoError(t, err)
	res := Run(sc, RunOptions{})
	require.Empty(t, res.Mismatches)
	require.True(t, res.Passed)
	require.Equal(t, len(sc.Steps), res.StepsRun)
	return res
}

func TestRunPassesTheExample(t *testing.T) {
	require.Equal(t, "elastic-borrowing", runPasses(t, "elastic.yaml").Name)
}

func TestRunReportsMismatches(t *testing.T) {
	sc := mustParse(t, withSteps(
		"  - submit: {app: app_1, user: u, queue: a, am: null}",
		"  - request: {app: app_1, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 1}",
		"  - heartbeat: h1",
		"  - expect:",
		"      queue_used: {a: {memory_mb: 1024}}",
		"      app_consumption: {app_1: {memory_mb: 2048, vcores: 2}}",
		"      app_state: {app_1: ACCEPTED}",
		"      queue_capacities: {a: {capacity: 0.5}}",
		"      last_step_allocations: []",
		"      node_reserved: {h1: {memory_mb: 1024}}",
		"      queue_exists: {nope: true}",
		"  - expect: {queue_used: {a: {memory_mb: 2048}}}",
	))
	res := Run(sc, RunOptions{})
	require.False(t, res.Passed)
	got := make([]string, len(res.Mismatches))
	for i, m := range res.Mismatches {
		got[i] = m.String()
	}
	require.Equal(t, []string{
		"step 4 expect.queue_used.a: expected <memory:1024>, found <memory:2048>",
		"step 4 expect.queue_capacities.a.capacity: expected 0.5, found 1",
		"step 4 expect.queue_exists.nope: expected true, found false",
		"step 4 expect.app_state.app_1: expected ACCEPTED, found RUNNING",
		"step 4 expect.app_consumption.app_1: expected <memory:2048, vCores:2>, found <memory:2048, vCores:1>",
		"step 4 expect.last_step_allocations: expected [], found [app_1 on h1 (OFF_SWITCH, priority 1)]",
		"step 4 expect.node_reserved.h1: expected <memory:1024>, found no reservation",
	}, got)
	// Expectations that fail do not stop the run.
	require.Equal(t, 5, res.StepsRun)
}

func TestRunStopsAtAStepThatFails(t *testing.T) {
	sc := mustParse(t, withSteps(
		"  - submit: {app: app_1, user: u, queue: nope, am: null}",
		"  - expect: {queue_used: {a: {memory_mb: 99}}}",
	))
	res := Run(sc, RunOptions{Narrate: true})
	require.False(t, res.Passed)
	require.Len(t, res.Mismatches, 1)
	m := res.Mismatches[0]
	require.Equal(t, 1, m.Step)
	require.Equal(t, "submit", m.Path)
	require.Equal(t, "the step to succeed", m.Expected)
	require.Contains(t, m.Found, "nope")
	require.Equal(t, 1, res.StepsRun)
	require.Contains(t, res.Narration[len(res.Narration)-1].Lines[len(res.Narration[len(res.Narration)-1].Lines)-1], "the step fails: ")
}

func TestRunChecksErrors(t *testing.T) {
	sc := mustParse(t, withSteps(
		"  - submit: {app: app_1, user: u, queue: nope, am: null}",
		"    error: [nope, no such text]",
		"  - submit: {app: app_2, user: u, queue: nope, am: null}",
		"    error_any: [nothing, nope]",
		"  - submit: {app: app_3, user: u, queue: nope, am: null}",
		"    error_any: [nothing, neither]",
		"  - submit: {app: app_4, user: u, queue: a, am: null}",
		"    error: must fail",
	))
	res := Run(sc, RunOptions{})
	require.Len(t, res.Mismatches, 3)
	require.Equal(t, "error", res.Mismatches[0].Path)
	require.Equal(t, `an error containing "nope" and "no such text"`, res.Mismatches[0].Expected)
	require.Equal(t, 3, res.Mismatches[1].Step)
	require.Equal(t, `an error containing one of "nothing" or "neither"`, res.Mismatches[1].Expected)
	require.Equal(t, Mismatch{Step: 4, Path: "error", Expected: `the step to fail with "must fail"`, Found: "it succeeded"}, res.Mismatches[2])
}

func TestRunConfigError(t *testing.T) {
	ok := mustParse(t, lines("config_error: Illegal capacity", "config: {yarn.scheduler.capacity.root.queues: a, yarn.scheduler.capacity.root.a.capacity: 100}"))
	res := Run(ok, RunOptions{})
	require.Equal(t, []Mismatch{{Step: 0, Path: "config_error", Expected: `the configuration refused with "Illegal capacity"`, Found: "it was accepted"}}, res.Mismatches)
	require.Equal(t, `start config_error: expected the configuration refused with "Illegal capacity", found it was accepted`, res.Mismatches[0].String())

	bad := mustParse(t, lines("config: {yarn.scheduler.capacity.root.queues: a, yarn.scheduler.capacity.root.a.capacity: 90}"))
	res = Run(bad, RunOptions{})
	require.Len(t, res.Mismatches, 1)
	require.Equal(t, "config", res.Mismatches[0].Path)
	require.Contains(t, res.Mismatches[0].Found, "Illegal capacity of 0.9 for children of queue root")

	bad.ConfigError = Texts{"illegal CAPACITY", "children of queue root"}
	require.True(t, Run(bad, RunOptions{}).Passed)
}

func TestRunRefusesAnInvalidScenario(t *testing.T) {
	one := 1
	sc := &Scenario{Name: "bad", Steps: []Step{{Tick: &one, FinishApp: "x"}}}
	res := Run(sc, RunOptions{})
	require.False(t, res.Passed)
	require.Equal(t, Mismatch{Step: 1, Path: "steps[0]", Expected: "a valid scenario",
		Found: "a step has exactly one kind; this one has tick and finish_app"}, res.Mismatches[0])
}

func TestFailedStepMustChangeNothing(t *testing.T) {
	sc := mustParse(t, withSteps())
	r, err := NewPlayer(sc)
	require.NoError(t, err)
	before := r.capture()
	require.Equal(t, "", before.diff(r.capture()))
	require.NoError(t, r.s.Submit(core.Submission{App: "x", User: "u", Queue: "a"}))
	require.Equal(t, "queue root NumApps changed from 0 to 1", before.diff(r.capture()))
	mid := r.capture()
	require.NoError(t, r.s.Request([]core.Ask{{App: "x", Priority: 1, Resource: resource.New(1024, 1), Count: 1, Locality: "*"}}))
	require.Contains(t, mid.diff(r.capture()), "queue root")
	mid = r.capture()
	require.Error(t, r.s.Submit(core.Submission{App: "y", User: "u", Queue: "nope"}))
	require.Equal(t, "", mid.diff(r.capture()), "a rejected application is no change")
}

func TestRunPreemption(t *testing.T) {
	data, err := os.ReadFile(conformanceDir + "/46_pp_proportional_preemption.json")
	if err != nil {
		t.Skip("conformance cases not found")
	}
	sc := mustParse(t, data)
	// Two more rounds: the second kills what the first marked (the wait is
	// 10000 ms), then nothing is left to mark.
	sc.Steps = append(sc.Steps,
		Step{PreemptionRound: &PreemptionRound{NowMS: 10000}},
		Step{Expect: &Expect{
			PreemptionMarked:      map[string]int{"a": 0},
			PreemptionEventsTotal: map[string]PreemptionCounts{"root.a": {Mark: ptr(10), Kill: ptr(10)}, "b": {Mark: ptr(0), Kill: ptr(0)}},
		}})
	res := Run(sc, RunOptions{})
	require.Empty(t, res.Mismatches)
}

func TestNarrationIsDeterministic(t *testing.T) {
	sc, err := Load(os.DirFS("testdata"), "elastic.yaml")
	require.NoError(t, err)
	a := Run(sc, RunOptions{Narrate: true})
	b := Run(sc, RunOptions{Narrate: true})
	require.Equal(t, a.Narration, b.Narration)
	require.Len(t, a.Narration, len(sc.Steps)+1)
	require.Equal(t, "alice submits a job to a (no AM container, as in Hadoop's unit tests).", a.Narration[1].Note)
	require.Contains(t, a.Narration[7].Lines, "allocated a 2048 MB container to app_2 on n0 (OFF_SWITCH, request priority 1)")
	require.Equal(t, []string{"every expectation holds"}, a.Narration[8].Lines)
}

func TestRunAnAttemptThatLostItsAM(t *testing.T) {
	require.Equal(t, "am-lost-with-its-node", runPasses(t, "am-lost.yaml").Name)
}
