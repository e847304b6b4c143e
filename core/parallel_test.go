package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// TestMaxParallelApps holds CSMaxRunningAppsEnforcer's decisions (Hadoop
// 3.3.1): which submissions are runnable, and which become runnable, in
// start order, when a runnable one finishes.
func TestMaxParallelApps(t *testing.T) {
	type op struct {
		submit, finish, kill string // app ids; submit is "app:user:queue"
	}
	tests := []struct {
		name        string
		conf        map[string]string
		ops         []op
		notRunnable []string // after the ops, in id order
		reason      core.Reason
	}{
		{"queue limit", map[string]string{capPrefix + "root.a.max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:u:a"}}, []string{"x2"}, core.ReasonQueueMaxParallelApps},
		{"global default for every queue", map[string]string{capPrefix + "max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:v:b"}, {submit: "x3:v:b"}}, []string{"x2", "x3"}, core.ReasonQueueMaxParallelApps}, // root's limit is 1 too
		{"a parent's limit covers its leaves", map[string]string{capPrefix + "root.max-parallel-apps": "2"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:v:b"}, {submit: "x3:w:a"}}, []string{"x3"}, core.ReasonQueueMaxParallelApps},
		{"user limit across queues", map[string]string{capPrefix + "user.u.max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:u:b"}, {submit: "x3:v:b"}}, []string{"x2"}, core.ReasonUserMaxParallelApps},
		{"user default", map[string]string{capPrefix + "user.max-parallel-apps": "1", capPrefix + "user.v.max-parallel-apps": "2"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:u:a"}, {submit: "x3:v:a"}, {submit: "x4:v:a"}}, []string{"x2"}, core.ReasonUserMaxParallelApps},
		{"a finish frees one, in start order", map[string]string{capPrefix + "root.a.max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:v:a"}, {submit: "x3:u:a"}, {finish: "x1"}}, []string{"x3"}, core.ReasonQueueMaxParallelApps},
		{"a non-runnable app leaving frees nothing", map[string]string{capPrefix + "root.a.max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:v:a"}, {submit: "x3:u:a"}, {kill: "x2"}}, []string{"x3"}, core.ReasonQueueMaxParallelApps},
		{"user list: one list gathered, one app freed", map[string]string{capPrefix + "user.u.max-parallel-apps": "1"},
			[]op{{submit: "x1:u:a"}, {submit: "x2:u:b"}, {submit: "x3:u:a"}, {finish: "x1"}}, []string{"x3"}, core.ReasonUserMaxParallelApps},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]string{
				capPrefix + "root.queues": "a,b", capPrefix + "root.a.capacity": "50", capPrefix + "root.b.capacity": "50",
			}
			for k, v := range tc.conf {
				m[k] = v
			}
			s, err := core.New(config.FromMap(m), config.Hadoop3)
			require.NoError(t, err)
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Capacity: resource.New(8192, 8)}))
			var ids []string
			for _, o := range tc.ops {
				switch {
				case o.submit != "":
					var id, user, q string
					for i, part := range splitColon(o.submit) {
						*[]*string{&id, &user, &q}[i] = part
					}
					ids = append(ids, id)
					require.NoError(t, s.Submit(core.Submission{App: id, User: user, Queue: q}))
				case o.finish != "":
					require.NoError(t, s.FinishApp(o.finish))
				case o.kill != "":
					require.NoError(t, s.KillApp(o.kill, "admin"))
				}
				require.NoError(t, s.CheckInvariants())
			}
			var got []string
			for _, id := range ids {
				v, ok := s.App(id)
				require.True(t, ok)
				if v.NotRunnable {
					got = append(got, id)
					require.Equal(t, core.AppAccepted, v.State)
					require.Contains(t, v.Diagnostics, string(tc.reason))
				}
			}
			require.Equal(t, tc.notRunnable, got)
		})
	}
}

func splitColon(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ':' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// TestMaxParallelAppsKillOfNonRunnable: a killed non-runnable attempt
// leaves its leaf's non-runnable list and its user goes with it. (Hadoop
// 3.3 also counts one pending application less for the user, below 0;
// yarnplay does not, docs/semantics.md section 14.5.)
func TestMaxParallelAppsKillOfNonRunnable(t *testing.T) {
	s, err := core.New(config.FromMap(map[string]string{
		capPrefix + "root.queues": "a", capPrefix + "root.a.capacity": "100", capPrefix + "root.a.max-parallel-apps": "1",
	}), config.Hadoop3)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Capacity: resource.New(8192, 8)}))
	require.NoError(t, s.Submit(core.Submission{App: "x1", User: "u", Queue: "a"}))
	require.NoError(t, s.Submit(core.Submission{App: "x2", User: "v", Queue: "a"}))
	q, err := s.Queue("a")
	require.NoError(t, err)
	require.Equal(t, []string{"x2"}, q.NonRunnableApps)
	require.Equal(t, 2, q.NumApps)
	require.Equal(t, 1, q.NumRunnableApps)
	require.Len(t, q.Users, 2)
	require.Equal(t, 0, q.Users[1].PendingApps, "a non-runnable attempt is not pending")
	require.NoError(t, s.KillApp("x2", "v"))
	q, err = s.Queue("a")
	require.NoError(t, err)
	require.Empty(t, q.NonRunnableApps)
	require.Len(t, q.Users, 1)
	require.NoError(t, s.CheckInvariants())
}
