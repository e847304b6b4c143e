package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// TestNumActiveUsersCachesPendingOnlyUsers holds UsersManager's numbers:
// getNumActiveUsers is activeUsers (users with asks, counted as they
// change) plus activeUsersWithOnlyPendingApps, which only
// reComputeUserLimits refreshes, when the users' state version moved
// (a leaf visit, updateClusterResource with active applications, each
// container with user-metrics.enable).
func TestNumActiveUsersCachesPendingOnlyUsers(t *testing.T) {
	am := func(mb int64) *resource.Resource { r := resource.New(mb, 1); return &r }
	type step struct {
		sub       *core.Submission
		heartbeat bool
		active    int // QueueView.ActiveUsers after the step
		activated int // NumActiveApps
	}
	tests := []struct {
		name        string
		userMetrics string
		steps       []step
	}{
		{"a new user's first AM is judged before it counts", "false", []step{
			{sub: &core.Submission{App: "a1", User: "alice", Queue: "default", AM: am(3072), AMContainerRequest: true}, active: 1, activated: 1},
			// n = 1 (alice asks; the cache is 0): bob's limit is 10240, his 6144 MB AM starts.
			{sub: &core.Submission{App: "b1", User: "bob", Queue: "default", AM: am(6144), AMContainerRequest: true}, active: 2, activated: 2},
			// carol waits for the queue AM limit and is not counted yet.
			{sub: &core.Submission{App: "c1", User: "carol", Queue: "default", AM: am(2048), AMContainerRequest: true}, active: 2, activated: 2},
			// The visit recomputes: bob asks, carol only waits; alice's AM ran.
			{heartbeat: true, active: 2, activated: 2},
		}},
		{"no visit, no recount", "false", []step{
			{sub: &core.Submission{App: "a1", User: "alice", Queue: "default", AM: am(6144), AMContainerRequest: true}, active: 1, activated: 1},
			{sub: &core.Submission{App: "b1", User: "bob", Queue: "default", AM: am(6144), AMContainerRequest: true}, active: 1, activated: 1},
			{sub: &core.Submission{App: "c1", User: "carol", Queue: "default", AM: am(6144), AMContainerRequest: true}, active: 1, activated: 1},
			{heartbeat: true, active: 2, activated: 1}, // alice's AM runs; bob and carol wait, counted after the visit as 2, alice asks no more
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := core.New(config.FromMap(map[string]string{
				capPrefix + "root.queues":                              "default",
				capPrefix + "root.default.capacity":                    "100",
				capPrefix + "root.default.maximum-am-resource-percent": "1",
				capPrefix + "root.default.minimum-user-limit-percent":  "25",
				capPrefix + "user-metrics.enable":                      tc.userMetrics,
				"yarn.scheduler.maximum-allocation-mb":                 "10240",
			}), config.Hadoop3)
			require.NoError(t, err)
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Capacity: resource.New(10240, 10)}))
			for i, st := range tc.steps {
				if st.sub != nil {
					require.NoError(t, s.Submit(*st.sub))
				}
				if st.heartbeat {
					require.NoError(t, s.Heartbeat("n0"))
				}
				q, err := s.Queue("default")
				require.NoError(t, err)
				require.Equal(t, st.active, q.ActiveUsers, "step %d: active users", i+1)
				require.Equal(t, st.activated, q.NumActiveApps, "step %d: activated applications", i+1)
			}
		})
	}
}
