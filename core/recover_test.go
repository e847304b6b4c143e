package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/resource"
)

var recoverConf = map[string]string{
	capPrefix + "root.queues":                        "a,b",
	capPrefix + "root.a.capacity":                    "50",
	capPrefix + "root.b.capacity":                    "50",
	capPrefix + "root.a.maximum-am-resource-percent": "0.1",
	capPrefix + "root.a.acl_submit_applications":     "nobody",
	capPrefix + "root.acl_submit_applications":       " ",
	capPrefix + "root.acl_administer_queue":          " ",
	"yarn.acl.enable":                                "true",
	capPrefix + "root.b.acl_submit_applications":     "*",
}

// TestRecoverContainers: recovered containers are charged to the node,
// app, user and queues without any check; an AM container activates its
// app above the AM limit; the invariants hold.
func TestRecoverContainers(t *testing.T) {
	s := newCluster(t, recoverConf, 2, 8192)
	am := resource.New(2048, 1)
	// The ACL of a refuses alice; a recovered application is not checked.
	require.Error(t, s.Submit(core.Submission{App: "x", User: "alice", Queue: "a", AM: &am}))
	for _, id := range []string{"a1", "a2"} {
		require.NoError(t, s.SubmitRecovered(core.Submission{App: id, User: "alice", Queue: "a", AM: &am}))
	}
	// a's AM limit (819 MB, at least one app) leaves a2 pending.
	a2, _ := s.App("a2")
	require.False(t, a2.Activated)
	require.NoError(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n1", Size: am, IsAM: true}))
	require.NoError(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n1", Size: resource.New(4096, 1), Priority: 1}))
	require.NoError(t, s.CheckInvariants())
	a2, _ = s.App("a2")
	require.True(t, a2.Activated)
	require.Equal(t, core.AppRunning, a2.State)
	require.Equal(t, resource.New(6144, 2), a2.Consumption)
	q := queue(t, s, "a")
	require.Equal(t, resource.New(6144, 2), q.Used)
	require.Equal(t, resource.New(4096, 2), q.AMUsed, "a1 (activated at submission) and a2 (recovered)")
	n1, _ := s.Node("n1")
	require.Equal(t, resource.New(6144, 2), n1.Allocated)

	// Refusals: no room, unknown node or app, a second AM, a zero size.
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n1", Size: resource.New(4096, 1)}), "does not fit node n1")
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n9", Size: am}), "unknown node")
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "zz", Node: "n0", Size: am}), "unknown application")
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n0", Size: am, IsAM: true}), "already has its AM")
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "a2", Node: "n0"}), "must be positive")
	require.NoError(t, s.SubmitRecovered(core.Submission{App: "b1", User: "bob", Queue: "b"}))
	require.ErrorContains(t, s.RecoverContainer(core.Recovered{App: "b1", Node: "n0", Size: am, IsAM: true}), "without an AM")
	require.NoError(t, s.CheckInvariants())
}

// TestResequence: the named apps take the submission order given, and
// the leaves' lists follow.
func TestResequence(t *testing.T) {
	s := newCluster(t, recoverConf, 2, 8192)
	for _, id := range []string{"b1", "b2", "b3"} {
		require.NoError(t, s.Submit(core.Submission{App: id, User: "bob", Queue: "b"}))
	}
	require.NoError(t, s.Resequence([]string{"b3", "b1", "b2"}))
	require.Equal(t, []string{"b3", "b1", "b2"}, queue(t, s, "b").ActiveApps)
	var ids []string
	for _, a := range s.Apps() {
		ids = append(ids, a.ID)
	}
	require.Equal(t, []string{"b3", "b1", "b2"}, ids)
	require.NoError(t, s.CheckInvariants())
	require.ErrorContains(t, s.Resequence([]string{"b1", "b1"}), "named twice")
	require.ErrorContains(t, s.Resequence([]string{"nope"}), "unknown application")
}
