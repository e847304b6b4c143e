package scenarios

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// lines joins lines into a file, so that tests can count lines.
func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// base is a small valid scenario's head: a queue and a node (lines 1-6).
var base = []string{
	"name: t", // 1
	"config:", // 2
	"  yarn.scheduler.capacity.root.queues: a",        // 3
	"  yarn.scheduler.capacity.root.a.capacity: 100",  // 4
	"nodes: [{name: h1, memory_mb: 8192, vcores: 8}]", // 5
	"steps:", // 6
}

func withSteps(steps ...string) []byte {
	return lines(append(append([]string{}, base...), steps...)...)
}

func TestParseErrorsNameTheLine(t *testing.T) {
	submit := "  - submit: {app: app_1, user: u, queue: a, am: null}" // line 7
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"unknown top key", lines("nmae: x"), `t.yaml: unknown key "nmae"; did you mean "name"? (line 1)`},
		{"unknown submit key", withSteps(submit, "  - submit:", "      app: app_2", "      user: u", "      qeue: a"),
			`t.yaml: steps[1].submit: unknown key "qeue"; did you mean "queue"? (line 11)`},
		{"unknown step kind", withSteps(submit, "  - hearbeat: h1"),
			`t.yaml: steps[1]: unknown step kind or key "hearbeat"; did you mean "heartbeat"? (line 8)`},
		{"two kinds", withSteps("  - {tick: 1, heartbeat: h1}"),
			`steps[0]: a step has exactly one kind; this one has heartbeat and tick (line 7)`},
		{"no kind", withSteps("  - note: hello"), `steps[0]: a step needs a kind: one of submit, request`},
		{"kind without value", withSteps("  - tick"), `steps[0]: "tick" needs a value`},
		{"count as text", withSteps(submit, `  - request: {app: app_1, priority: 1, resource: {memory_mb: 1024}, count: "3"}`),
			`steps[1].request.count: must be a whole number, not a string (line 8)`},
		{"fractional count", withSteps(submit, `  - request: {app: app_1, priority: 1, resource: {memory_mb: 1024}, count: 2.5}`),
			`steps[1].request.count: must be a whole number, not 2.5 (line 8)`},
		{"missing key", withSteps("  - submit: {app: a1, queue: a}"), `steps[0].submit: missing key "user" (line 7)`},
		{"negative tick", withSteps("  - tick: -1"), `steps[0].tick: must be at least 0, not -1 (line 7)`},
		{"null config value", lines("config:", "  yarn.scheduler.capacity.root.queues:"),
			`config.yarn.scheduler.capacity.root.queues: has no value; write "" for an empty one (line 2)`},
		{"duplicate key", lines("name: a", "name: b"), `key "name" appears twice (line 2)`},
		{"bad YAML", lines("name: [", "steps: {"), `t.yaml: invalid YAML:`},
		{"bad JSON", []byte("{\n  \"name\": \"x\",\n  \"steps\": [}\n}"), `invalid JSON: invalid character '}' looking for beginning of value (line 3)`},
		{"not a map", lines("- a", "- b"), `a scenario must be a map`},
		{"empty", []byte(""), `the file is empty`},
		{"bad queue state", withSteps("  - expect: {queue_state: {a: RUNING}}"),
			`steps[0].expect.queue_state.a: must be one of RUNNING, STOPPED, DRAINING, not "RUNING" (line 7)`},
		{"bad priority key", withSteps(submit, "  - expect: {app_outstanding: {app_1: {high: 1}}}"),
			`steps[1].expect.app_outstanding.app_1: key "high" must be a request priority (a whole number) (line 8)`},
		{"node count zero", lines("nodes: [{name: 'n{i}', count: 0}]"), `nodes[0].count: must be at least 1, not 0 (line 1)`},
		{"unknown expectation", withSteps("  - expect:", "      queue_usd: {a: {memory_mb: 1}}"),
			`steps[0].expect: unknown key "queue_usd"; did you mean "queue_used"? (line 8)`},
		{"resource without memory", withSteps(submit, "  - expect: {app_consumption: {app_1: {vcores: 1}}}"),
			`steps[1].expect.app_consumption.app_1: missing key "memory_mb" (line 8)`},
		{"unsupported tag", lines("name: !custom x"), `unsupported tag "!custom" (line 1)`},
		// Validation, after decoding: still with the step and its line.
		{"version 2", lines("version: 2"), `version: version 2 is not supported; this yarnplay reads version 1`},
		{"bad profile", lines("profile: hadoop-4"), `profile: unknown profile "hadoop-4"; use hadoop-2, hadoop-3.3 (or hadoop-3) or hadoop-3.4`},
		{"app not submitted", withSteps(submit, "  - finish_app: app_2"),
			`steps[1].finish_app: app "app_2" is not submitted by an earlier step; did you mean "app_1"? (line 8)`},
		{"unknown node", withSteps("  - heartbeat: h2"), `steps[0].heartbeat: no node "h2" at this step; did you mean "h1"? (line 7)`},
		{"removed node", withSteps("  - remove_node: h1", "  - heartbeat: h1"), `steps[1].heartbeat: no node "h1" at this step (line 8)`},
		{"duplicate submit", withSteps(submit, submit), `steps[1].submit.app: app "app_1" was already submitted at step 1 (line 8)`},
		{"duplicate node", lines("nodes: [{name: h1}, {name: h1}]"), `nodes[1]: node "h1" is already registered (line 1)`},
		{"count without {i}", lines("nodes: [{name: h, count: 2}]"), `nodes[0]: name "h" needs {i} to number its 2 nodes`},
		{"round before snapshot", withSteps("  - preemption_round: {now_ms: 0}"), `steps[0].preemption_round: needs a preemption_snapshot step before it (line 7)`},
		{"bad snapshot", withSteps("  - preemption_snapshot: {cluster: {memory_mb: 100, vcores: 100}, queues: {root.a: {capacity: 10, used: {memory_mb: 1, vcores: 1}, pendng: {memory_mb: 1}}}}"),
			`steps[0].preemption_snapshot: json: unknown field "pendng" (line 7)`},
		{"expect with error", withSteps("  - {expect: {}, error: x}"), `steps[0]: an expect step cannot carry error or error_any (line 7)`},
		{"expect unknown app", withSteps("  - expect: {app_state: {app_9: RUNNING}}"), `steps[0].expect.app_state.app_9: app "app_9" is not submitted by an earlier step (line 7)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.yaml", tc.data)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestParseAcceptsEveryForm(t *testing.T) {
	data := lines(
		"# a comment",
		"name: forms",
		"profile: hadoop-2",
		"config:",
		"  yarn.scheduler.capacity.root.queues: a",
		"  yarn.scheduler.capacity.root.a.capacity: 100       # a number",
		"  yarn.scheduler.capacity.root.a.user-limit-factor: 1.5",
		"  yarn.acl.enable: true                                # a boolean",
		"  yarn.scheduler.capacity.root.acl_submit_applications: \" \"",
		"groups: {alice: [eng, ops], bob: 'fin, ops'}",
		"nodes:",
		"  - {name: 'n{i}', count: 3, rack: /r1, memory_mb: 4096, vcores: 4}",
		"  - name: h1",
		"config_error: just one text",
		"steps:",
		"  - submit: {app: app_1, user: alice, queue: a, am: {memory_mb: 1024, vcores: 1}, am_container_request: false, priority: 3}",
		"  - request: {app: app_1, priority: 1, resource: {memory_mb: 1024}, count: 2}",
		"  - request:",
		"      - {app: app_1, priority: 2, resource: {memory_mb: 2048, vcores: 2}, count: 1, locality: h1, relax_locality: false, duration: 5}",
		"      - {app: app_1, priority: 2, resource: {memory_mb: 2048, vcores: 2}, count: 1, locality: '*'}",
		"  - heartbeat: n0",
		"  - heartbeat: {node: n1, times: 3}",
		"  - heartbeat: [n0, {node: n2, times: 2}, h1]",
		"  - tick:",
		"  - tick: 5",
		"  - {finish_container: {app: app_1, count: 1, node: n0}, note: one ends}",
		"  - kill_app: {app: app_1, by: bob}",
		"    error: [not, allowed]",
		"  - {refresh: {set: {yarn.scheduler.capacity.root.a.capacity: 100}, unset: [yarn.acl.enable]}}",
		"  - refresh:",
		"  - add_node: {name: 'g{i}', count: 2}",
		"  - remove_node: g0",
		"  - remove_node: {name: 'n{i}', count: 2}",
		"  - {finish_app: app_1, error_any: [a, b]}",
		"  - expect:",
		"      last_step_allocations: []",
		"      node_reserved: {h1: null, n2: {memory_mb: 1024}}",
		"      cluster_used: {memory_mb: 0, vcores: 0}",
		"      app_state: {app_1: finished}",
		"      acl: [{queue: a, user: alice, acl: submit_applications, allowed: true}]",
		"      preemption_events_total: {root.a: {mark: 1}}",
	)
	sc, err := Parse("forms.yaml", data)
	require.NoError(t, err)
	require.Equal(t, 1, sc.Version)
	require.Equal(t, "100", sc.Config["yarn.scheduler.capacity.root.a.capacity"])
	require.Equal(t, "1.5", sc.Config["yarn.scheduler.capacity.root.a.user-limit-factor"])
	require.Equal(t, "true", sc.Config["yarn.acl.enable"])
	require.Equal(t, " ", sc.Config["yarn.scheduler.capacity.root.acl_submit_applications"])
	require.Equal(t, map[string][]string{"alice": {"eng", "ops"}, "bob": {"fin", "ops"}}, sc.Groups)
	require.Equal(t, NodeSpec{Name: "n{i}", Count: 3, Rack: "/r1", MemoryMB: 4096, VCores: 4, Line: 12}, sc.Nodes[0])
	require.Equal(t, Texts{"just one text"}, sc.ConfigError)

	st := sc.Steps
	require.Equal(t, 16, st[0].Line)
	require.Equal(t, &Submit{App: "app_1", User: "alice", Queue: "a", AM: &Res{1024, 1}, AMContainerRequest: ptr(false), Priority: ptr(3)}, st[0].Submit)
	require.Equal(t, Asks{{App: "app_1", Priority: 1, Resource: Res{MemoryMB: 1024}, Count: 2}}, st[1].Request)
	require.Len(t, st[2].Request, 2)
	require.Equal(t, Ask{App: "app_1", Priority: 2, Resource: Res{2048, 2}, Count: 1, Locality: "h1", RelaxLocality: ptr(false), Duration: 5}, st[2].Request[0])
	require.Equal(t, Heartbeats{{Node: "n0"}}, st[3].Heartbeat)
	require.Equal(t, Heartbeats{{Node: "n1", Times: 3}}, st[4].Heartbeat)
	require.Equal(t, Heartbeats{{Node: "n0"}, {Node: "n2", Times: 2}, {Node: "h1"}}, st[5].Heartbeat)
	require.Equal(t, 1, *st[6].Tick)
	require.Equal(t, 5, *st[7].Tick)
	require.Equal(t, "one ends", st[8].Note)
	require.Equal(t, Texts{"not", "allowed"}, st[9].Error)
	require.Equal(t, []string{"yarn.acl.enable"}, st[10].Refresh.Unset)
	require.Equal(t, &Refresh{}, st[11].Refresh)
	require.Equal(t, &RemoveNode{Name: "g0"}, st[13].RemoveNode)
	require.Equal(t, []string{"a", "b"}, st[15].ErrorAny)
	e := st[16].Expect
	require.NotNil(t, e.LastStepAllocations)
	require.Empty(t, *e.LastStepAllocations)
	require.Nil(t, e.NodeReserved["h1"])
	require.Equal(t, int64(1024), e.NodeReserved["n2"].MemoryMB)
	require.Nil(t, e.NodeReserved["n2"].VCores)
	require.Equal(t, int64(0), *e.ClusterUsed.VCores)
	require.Equal(t, "FINISHED", e.AppState["app_1"])
	require.Equal(t, ACLSubmitApplications, e.ACL[0].ACL)
	require.Equal(t, 1, *e.PreemptionEventsTotal["root.a"].Mark)
	require.Nil(t, e.PreemptionEventsTotal["root.a"].Kill)
}

func ptr[T any](v T) *T { return &v }

func TestJSONAndYAMLReadAlike(t *testing.T) {
	y := withSteps("  - submit: {app: a1, user: u, queue: a, am: null}", "  - heartbeat: h1", "  - expect: {queue_used: {a: {memory_mb: 0}}}")
	j := []byte(`{"name": "t", "config": {"yarn.scheduler.capacity.root.queues": "a", "yarn.scheduler.capacity.root.a.capacity": 100},
"nodes": [{"name": "h1", "memory_mb": 8192, "vcores": 8}],
"steps": [
  {"submit": {"app": "a1", "user": "u", "queue": "a", "am": null}},
  {"heartbeat": "h1"},
  {"expect": {"queue_used": {"a": {"memory_mb": 0}}}}]}`)
	sy, err := Parse("t.yaml", y)
	require.NoError(t, err)
	sj, err := Parse("t.json", j)
	require.NoError(t, err)
	cy, err := sy.CanonicalJSON()
	require.NoError(t, err)
	cj, err := sj.CanonicalJSON()
	require.NoError(t, err)
	require.Equal(t, string(cy), string(cj))
	require.Equal(t, []int{4, 5, 6}, []int{sj.Steps[0].Line, sj.Steps[1].Line, sj.Steps[2].Line})
	// YAML in flow style that starts like JSON is read as YAML.
	_, err = Parse("flow.yaml", []byte("{name: flow, steps: []}"))
	require.NoError(t, err)
}

func TestLimits(t *testing.T) {
	t.Run("file size", func(t *testing.T) {
		big := make([]byte, MaxFileBytes+1)
		_, err := Parse("big.yaml", big)
		require.ErrorContains(t, err, "big.yaml: the file is larger than 4 MiB, the limit")
		_, err = Load(fstest.MapFS{"big.yaml": {Data: big}}, "big.yaml")
		require.ErrorContains(t, err, "big.yaml: the file is 4.0 MiB; the limit is 4 MiB")
	})
	t.Run("steps", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"steps": [`)
		for i := range MaxSteps + 1 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"tick":1}`)
		}
		b.WriteString("]}")
		_, err := Parse("s.json", []byte(b.String()))
		require.ErrorContains(t, err, fmt.Sprintf("steps: %d steps; the limit is %d steps (line 1)", MaxSteps+1, MaxSteps))
	})
	t.Run("nodes", func(t *testing.T) {
		_, err := Parse("n.yaml", lines("nodes: [{name: 'n{i}', count: 6000}]", "steps: [{add_node: {name: 'm{i}', count: 5000}}]"))
		require.ErrorContains(t, err, "steps[0].add_node: more than 10000 nodes (counting every count and add_node); the limit is 10000 nodes (line 2)")
	})
	t.Run("queues", func(t *testing.T) {
		names := make([]string, MaxQueues)
		for i := range names {
			names[i] = fmt.Sprintf("q%d", i)
		}
		_, err := Parse("q.yaml", lines("config:", "  yarn.scheduler.capacity.root.queues: "+strings.Join(names, ",")))
		require.ErrorContains(t, err, fmt.Sprintf("config: the configuration defines more than %d queues; the limit is %d queues", MaxQueues, MaxQueues))
		_, err = Parse("q.yaml", lines("config: {yarn.scheduler.capacity.root.queues: a}", "steps:",
			"  - refresh: {set: {yarn.scheduler.capacity.root.a.queues: '"+strings.Join(names, ",")+"'}}"))
		require.ErrorContains(t, err, fmt.Sprintf("steps[0].refresh: the configuration defines more than %d queues", MaxQueues))
	})
	t.Run("heartbeats", func(t *testing.T) {
		_, err := Parse("h.yaml", lines("nodes: [{name: 'n{i}', count: 100}]", "steps:", "  - tick: 5000", "  - tick: 6000"))
		require.ErrorContains(t, err, "steps[1].tick: more than 1000000 node heartbeats in all (counting ticks times nodes); the limit keeps a run bounded (line 4)")
		_, err = Parse("h.yaml", lines("nodes: [{name: n0}]", "steps:", "  - heartbeat: {node: n0, times: 2000000000}"))
		require.ErrorContains(t, err, "more than 1000000 node heartbeats")
	})
	t.Run("removals", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("steps:\n")
		for range 3 {
			b.WriteString("  - {remove_node: {name: 'n{i}', count: 4000}, error: gone}\n")
		}
		_, err := Parse("r.yaml", []byte(b.String()))
		require.ErrorContains(t, err, "steps[2].remove_node: more than 10000 nodes removed in all; the limit is 10000 nodes (line 4)")
	})
	t.Run("values", func(t *testing.T) {
		data := []byte(`{"notes": [` + strings.Repeat("0,", maxValues) + `0]}`)
		_, err := Parse("v.json", data)
		require.ErrorContains(t, err, "more than 1000000 values")
		_, err = Parse("v.yaml", []byte("notes: ["+strings.Repeat("0,", maxValues)+"0]"))
		require.ErrorContains(t, err, "more than 1000000 values")
	})
	t.Run("aliases", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < 9; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
		}
		_, err := Parse("bomb.yaml", []byte(b.String()))
		require.Error(t, err)
	})
	t.Run("depth", func(t *testing.T) {
		_, err := Parse("deep.json", []byte(`{"notes": `+strings.Repeat("[", 100)+strings.Repeat("]", 100)+"}"))
		require.ErrorContains(t, err, "nesting deeper than 64 levels")
	})
}

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{"s/a.yaml": {Data: withSteps("  - heartbeat: h1")}}
	sc, err := Load(fsys, "s/a.yaml")
	require.NoError(t, err)
	require.Equal(t, "s/a.yaml", sc.File)
	require.Equal(t, "t", sc.Name)
	_, err = Load(fsys, "missing.yaml")
	require.Error(t, err)
}

func TestAliasesAreExpanded(t *testing.T) {
	data := lines(
		"config: &conf",
		"  yarn.scheduler.capacity.root.queues: a",
		"nodes: [{name: h1}]",
		"steps:",
		"  - refresh: {replace_config: *conf}",
	)
	sc, err := Parse("alias.yaml", data)
	require.NoError(t, err)
	require.Equal(t, sc.Config, sc.Steps[0].Refresh.ReplaceConfig)
}

// TestProfileSpellings holds that every profile name loads and plays, and
// that a file keeps the spelling it was written with.
func TestProfileSpellings(t *testing.T) {
	for _, p := range []string{ProfileHadoop3, ProfileHadoop33, ProfileHadoop34, ProfileHadoop2} {
		t.Run(p, func(t *testing.T) {
			sc, err := Parse("t.yaml", lines(append([]string{"profile: " + p}, base...)...))
			require.NoError(t, err)
			require.Equal(t, p, sc.Profile)
			_, err = NewPlayer(sc)
			require.NoError(t, err)
		})
	}
}
