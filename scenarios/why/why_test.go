package why

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/scenarios"
)

// play loads a scenario text and plays every step.
func playText(t *testing.T, text string) *core.Scheduler {
	t.Helper()
	sc, err := scenarios.Parse("t.yaml", []byte(text))
	require.NoError(t, err)
	p, err := scenarios.NewPlayer(sc)
	require.NoError(t, err)
	for !p.Done() {
		p.Next()
	}
	return p.Scheduler()
}

func byApp(vs []Verdict) map[string]Verdict {
	m := map[string]Verdict{}
	for _, v := range vs {
		m[v.App] = v
	}
	return m
}

const refusals = `
config:
  yarn.acl.enable: "true"
  yarn.scheduler.capacity.root.queues: a,b,c
  yarn.scheduler.capacity.root.a.capacity: 40
  yarn.scheduler.capacity.root.b.capacity: 30
  yarn.scheduler.capacity.root.c.capacity: 30
  yarn.scheduler.capacity.root.acl_submit_applications: " "
  yarn.scheduler.capacity.root.acl_administer_queue: " "
  yarn.scheduler.capacity.root.a.acl_submit_applications: "*"
  yarn.scheduler.capacity.root.b.acl_submit_applications: "*"
  yarn.scheduler.capacity.root.b.state: STOPPED
  yarn.scheduler.capacity.root.a.maximum-applications: 1
nodes: [{name: n0}]
steps:
  - submit: {app: ok, user: u, queue: a, am: null}
  - submit: {app: full, user: u, queue: a, am: null}
    error: "already has"
  - submit: {app: stopped, user: u, queue: b, am: null}
    error: STOPPED
  - submit: {app: denied, user: u, queue: c, am: null}
    error: permission
`

// TestRefusalsAreNamed: refused submissions get the rule of their refusal.
func TestRefusalsAreNamed(t *testing.T) {
	s := playText(t, refusals)
	st := StateOf(s)
	for _, id := range []string{"full", "stopped", "denied"} {
		v, ok := s.App(id)
		require.True(t, ok)
		st.Apps = append(st.Apps, v)
	}
	got := byApp(Analyze(st, nil))
	require.Equal(t, MaxApplications, got["full"].Rule)
	require.Equal(t, QueueStopped, got["stopped"].Rule)
	require.Equal(t, ACL, got["denied"].Rule)
	require.NotContains(t, got, "ok", "a running app with nothing outstanding does not wait")
}

const limits = `
config:
  yarn.scheduler.capacity.root.queues: a,b
  yarn.scheduler.capacity.root.a.capacity: 50
  yarn.scheduler.capacity.root.a.maximum-capacity: 50
  yarn.scheduler.capacity.root.b.capacity: 50
  yarn.scheduler.capacity.root.b.maximum-capacity: 50
  yarn.scheduler.capacity.root.b.maximum-am-resource-percent: 0.1
nodes: [{name: "n{i}", count: 2, memory_mb: 8192, vcores: 8}]
steps:
  - submit: {app: a1, user: alice, queue: a, am: null}
  - request: {app: a1, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 20}
  - submit: {app: b1, user: bob, queue: b, am: {memory_mb: 1024, vcores: 1}}
  - submit: {app: b2, user: bob, queue: b, am: {memory_mb: 1024, vcores: 1}}
  - tick: 10
`

// TestTable checks the rules the heartbeats give, with their numbers.
func TestTable(t *testing.T) {
	s := playText(t, limits)
	got := byApp(Explain(s, 2))
	require.Equal(t, QueueMaxCapacity, got["a1"].Rule, got["a1"].Sentence)
	require.Equal(t, int64(8192), got["a1"].Limit.MemoryMB)
	require.Equal(t, AMLimit, got["b2"].Rule, got["b2"].Sentence)
	require.Equal(t, int64(2048), got["b2"].Used.MemoryMB)
	require.Equal(t, int64(1024), got["b2"].Limit.MemoryMB)
	require.Equal(t, core.AppAccepted, got["b2"].State)
	require.Contains(t, got["b2"].Sentence, "maximum-am-resource-percent")
	require.NotContains(t, got, "b1", "b1 runs with nothing outstanding")
}

func TestEveryRuleIsDocumented(t *testing.T) {
	require.Len(t, Rules, 13)
	seen := map[Rule]bool{}
	for _, r := range Rules {
		require.False(t, seen[r])
		seen[r] = true
	}
	require.True(t, Produced(MaxParallelApps))
	require.True(t, Produced(Partition))
	require.True(t, Produced(UserLimit))
}

// TestNoEventsNoPanic: the state alone gives the AM-limit verdicts, and an
// empty state none.
func TestNoEventsNoPanic(t *testing.T) {
	require.Empty(t, Analyze(State{}, nil))
	s := playText(t, limits)
	got := byApp(Analyze(StateOf(s), nil))
	require.Equal(t, AMLimit, got["b2"].Rule)
	require.Equal(t, None, got["a1"].Rule)
}

const parallel = `
config:
  yarn.scheduler.capacity.root.queues: a
  yarn.scheduler.capacity.root.a.capacity: 100
  yarn.scheduler.capacity.root.a.max-parallel-apps: 1
nodes: [{name: n0}]
steps:
  - submit: {app: first, user: u, queue: a}
  - submit: {app: second, user: u, queue: a}
`

// TestMaxParallelAppsIsNamed: an app over its queue's max-parallel-apps
// waits for it, and the sentence says when it starts.
func TestMaxParallelAppsIsNamed(t *testing.T) {
	v := byApp(Explain(playText(t, parallel), 1))["second"]
	require.Equal(t, MaxParallelApps, v.Rule)
	require.Equal(t, core.ReasonQueueMaxParallelApps, v.Reason)
	require.Contains(t, v.Sentence, "the queue runs 1 application, its max-parallel-apps")
	require.Contains(t, v.Sentence, "starts when one of them finishes")
	require.NotEqual(t, MaxParallelApps, byApp(Explain(playText(t, parallel), 1))["first"].Rule)
}

const partitions = `
config:
  yarn.scheduler.capacity.root.queues: a,b
  yarn.scheduler.capacity.root.accessible-node-labels.gpu.capacity: 100
  yarn.scheduler.capacity.root.a.capacity: 50
  yarn.scheduler.capacity.root.a.accessible-node-labels: gpu
  yarn.scheduler.capacity.root.a.accessible-node-labels.gpu.capacity: 100
  yarn.scheduler.capacity.root.b.capacity: 50
node_labels: [{name: gpu, exclusive: EXCLUSIVE}]
nodes: [{name: g0, label: gpu}]
steps:
  - submit: {app: ml, user: alice, queue: a, am: null}
  - request: {app: ml, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 1, label: ""}
  - submit: {app: job, user: bob, queue: b, am: {memory_mb: 1024, vcores: 1}}
`

// TestPartitionWaits: on a cluster of one gpu node, a default-partition
// ask skipped on a gpu node waits for a node of its partition, and an AM
// for the default partition waits even when gpu is shared.
func TestPartitionWaits(t *testing.T) {
	s := playText(t, strings.Replace(partitions, "EXCLUSIVE", "true", 1))
	// a has no pending asks for gpu, so a gpu node's heartbeat skips it
	// at the queue; an app of a with asks in both partitions is skipped
	// at its default-partition request priority.
	got := byApp(Analyze(StateOf(s), []core.Event{{Kind: core.EvAppSkipped, Node: "g0", Queue: "root.a", App: "ml", User: "alice",
		Priority: 1, Reason: core.ReasonOtherPartition, Partition: "gpu"}}))
	require.Equal(t, Partition, got["ml"].Rule, got["ml"].Sentence)
	require.Contains(t, got["ml"].Sentence, "the nodes that heartbeat are in another partition")
	s = playText(t, strings.Replace(partitions, "EXCLUSIVE", "false", 1))
	got = byApp(Explain(s, 3)) // the first heartbeat lends g0 to ml's ask (one node: no chance to miss)
	require.Equal(t, Partition, got["job"].Rule, got["job"].Sentence)
	require.Contains(t, got["job"].Sentence, "never placed on another partition's node")
}
