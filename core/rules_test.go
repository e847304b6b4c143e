package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

func TestSubmissionRefusals(t *testing.T) {
	base := func(extra map[string]string) map[string]string {
		m := map[string]string{
			capPrefix + "root.queues":                 "a,b",
			capPrefix + "root.a.capacity":             "50",
			capPrefix + "root.b.capacity":             "50",
			capPrefix + "root.b.queues":               "b1",
			capPrefix + "root.b.b1.capacity":          "100",
			capPrefix + "root.a.maximum-applications": "2",
			capPrefix + "root.a.user-limit-factor":    "0.5", // per user: (int)(2 x 1.0 x 0.5) = 1
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name  string
		extra map[string]string
		prior []core.Submission
		sub   core.Submission
		want  string
	}{
		{"unknown queue", nil, nil, core.Submission{App: "x", User: "u", Queue: "nope"},
			"Application x submitted by user u to unknown queue: nope"},
		{"parent queue", nil, nil, core.Submission{App: "x", User: "u", Queue: "b"},
			"Application x submitted by user : u to non-leaf queue : b"},
		{"ACL denies", map[string]string{"yarn.acl.enable": "true", capPrefix + "root.acl_submit_applications": " ", capPrefix + "root.acl_administer_queue": " ", capPrefix + "root.a.acl_submit_applications": "alice"},
			nil, core.Submission{App: "x", User: "mallory", Queue: "a"},
			"User mallory does not have permission to submit x to queue a"},
		{"stopped queue", map[string]string{capPrefix + "root.a.state": "STOPPED"}, nil, core.Submission{App: "x", User: "u", Queue: "a"},
			"Queue root.a is STOPPED. Cannot accept submission of application: x"},
		{"stopped parent", map[string]string{capPrefix + "root.b.state": "STOPPED", capPrefix + "root.b.b1.state": "STOPPED"}, nil, core.Submission{App: "x", User: "u", Queue: "b1"},
			"Queue root.b.b1 is STOPPED. Cannot accept submission of application: x"},
		{"queue maximum-applications", nil, []core.Submission{{App: "p1", User: "u1", Queue: "a"}, {App: "p2", User: "u2", Queue: "a"}},
			core.Submission{App: "x", User: "u3", Queue: "a"},
			"Queue root.a already has 2 applications, cannot accept submission of application: x"},
		{"per-user maximum", nil, []core.Submission{{App: "p1", User: "u", Queue: "a"}},
			core.Submission{App: "x", User: "u", Queue: "a"},
			"Queue root.a already has 1 applications from user u cannot accept submission of application: x"},
		{"system maximum-applications", map[string]string{capPrefix + "maximum-applications": "1", capPrefix + "root.b.b1.maximum-applications": "10"}, []core.Submission{{App: "p1", User: "u", Queue: "b1"}},
			core.Submission{App: "x", User: "u", Queue: "b1"},
			"Maximum system application limit reached,cannot accept submission of application: x"},
		{"AM above maximum allocation", nil, nil, core.Submission{App: "x", User: "u", Queue: "a", AM: &resource.Resource{MemoryMB: 9000, VCores: 1}},
			"Requested resource=<memory:9000, vCores:1>, maximum allowed allocation=<memory:8192, vCores:4>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := core.New(config.FromMap(base(tc.extra)), config.Hadoop3)
			require.NoError(t, err)
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "n", Capacity: resource.New(8192, 8)}))
			for _, p := range tc.prior {
				require.NoError(t, s.Submit(p))
			}
			before := stateJSON(t, s)
			err = s.Submit(tc.sub)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Equal(t, before, stateJSON(t, s), "a refused submission changes nothing")
			v, ok := s.App(tc.sub.App)
			require.True(t, ok)
			require.Equal(t, core.AppRejected, v.State)
		})
	}
}

func TestAdministerImpliesSubmitAndInheritance(t *testing.T) {
	s, err := core.New(config.FromMap(map[string]string{
		"yarn.acl.enable":                                              "true",
		"yarn.admin.acl":                                               "yarn",
		capPrefix + "root.queues":                                      "finance-wizards,other",
		capPrefix + "root.finance-wizards.capacity":                    "50",
		capPrefix + "root.other.capacity":                              "50",
		capPrefix + "root.acl_submit_applications":                     " ",
		capPrefix + "root.acl_administer_queue":                        " ",
		capPrefix + "root.finance-wizards.queues":                      "thrifty-treasurers",
		capPrefix + "root.finance-wizards.thrifty-treasurers.capacity": "100",
		capPrefix + "root.finance-wizards.acl_submit_applications":     "sherlock,pacioli cfo-group",
		capPrefix + "root.finance-wizards.acl_administer_queue":        " cfo-group",
	}), config.Hadoop3)
	require.NoError(t, err)
	s.SetUserGroups("holmes", []string{"cfo-group"})
	tests := []struct {
		user  string
		acl   core.QueueACL
		allow bool
	}{
		{"sherlock", core.SubmitApplications, true}, // inherited from finance-wizards
		{"pacioli", core.SubmitApplications, true},
		{"holmes", core.SubmitApplications, true}, // by group
		{"holmes", core.AdministerQueue, true},
		{"sherlock", core.AdministerQueue, false},
		{"watson", core.SubmitApplications, false},
	}
	for _, tc := range tests {
		got, err := s.CheckAccess("thrifty-treasurers", tc.user, nil, tc.acl)
		require.NoError(t, err)
		require.Equal(t, tc.allow, got, "%s %s", tc.user, tc.acl)
	}
	// An administrator may submit without the submit ACL; others are refused.
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n", Capacity: resource.New(8192, 8)}))
	s.SetUserGroups("moriarty", []string{"cfo-group"})
	require.NoError(t, s.Submit(core.Submission{App: "a1", User: "moriarty", Queue: "thrifty-treasurers"}))
	require.Error(t, s.Submit(core.Submission{App: "a2", User: "watson", Queue: "thrifty-treasurers"}))
	// Kill: by the owner or a queue administrator only.
	require.NoError(t, s.Submit(core.Submission{App: "a3", User: "sherlock", Queue: "thrifty-treasurers"}))
	require.ErrorContains(t, s.KillApp("a3", "watson"), "User watson cannot perform operation MODIFY_APP on a3")
	require.NoError(t, s.KillApp("a3", "holmes"))
}

func TestAMLimitHoldsAndActivatesApplications(t *testing.T) {
	// One 16 GB node, queue a at 10% with max 10%: limit 1,638 MB rounded down
	// to 1,024; AM limit = 0.1 x max(1,024, 1,638) = 163.8 -> rounded up to 1,024 MB.
	s, err := core.New(config.FromMap(map[string]string{
		capPrefix + "root.queues":             "a,b",
		capPrefix + "root.a.capacity":         "10",
		capPrefix + "root.a.maximum-capacity": "10",
		capPrefix + "root.b.capacity":         "90",
	}), config.Hadoop3)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n", Capacity: resource.New(16384, 16)}))
	am := resource.New(1024, 1)
	for i, id := range []string{"app1", "app2", "app3"} {
		require.NoError(t, s.Submit(core.Submission{App: id, User: []string{"u1", "u2", "u3"}[i], Queue: "a", AM: &am, AMContainerRequest: true}))
	}
	q := queue(t, s, "a")
	require.Equal(t, int64(1024), q.AMLimit.MemoryMB)
	require.Equal(t, []string{"app1"}, q.ActiveApps, "the first application always activates")
	require.Equal(t, []string{"app2", "app3"}, q.PendingApps)
	a2, _ := s.App("app2")
	require.Equal(t, string(core.ReasonQueueAMLimit), a2.Diagnostics)

	require.NoError(t, s.FinishApp("app1"))
	q = queue(t, s, "a")
	require.Equal(t, []string{"app2"}, q.ActiveApps, "finishing an app activates the next")
	require.Equal(t, []string{"app3"}, q.PendingApps)

	// Raising maximum-am-resource-percent on refresh activates the rest: the
	// refresh briefly computes the AM limit against the whole cluster
	// (LeafQueue.reinitialize, section 4.3), 0.5 x 16,384 MB, and an app
	// activated then stays active although the limit returns to 1,024 MB.
	c := s.Conf()
	c.Set(capPrefix+"root.a.maximum-am-resource-percent", "0.5")
	require.NoError(t, s.Refresh(c))
	q = queue(t, s, "a")
	require.Equal(t, []string{"app2", "app3"}, q.ActiveApps)
	require.Empty(t, q.PendingApps)
	require.Equal(t, int64(1024), q.AMLimit.MemoryMB)
	require.Equal(t, int64(2048), q.AMUsed.MemoryMB)
}

func TestRefusedRefreshChangesNothing(t *testing.T) {
	s := newCluster(t, yarnRollers(nil), 4, 8192)
	submitHungry(t, s, "x", "u", "pesky-testers", 3)
	s.Tick()
	before := stateJSON(t, s)
	tests := []struct {
		name string
		set  map[string]string
		want string
	}{
		{"capacities above 100", map[string]string{capPrefix + "root.grumpy-engineers.capacity": "70"}, "Illegal capacity of 1.1 for children of queue root"},
		{"remove a running queue", map[string]string{capPrefix + "root.grumpy-engineers.queues": "pesky-testers", capPrefix + "root.grumpy-engineers.pesky-testers.capacity": "100"},
			"root.grumpy-engineers.infinite-monkeys cannot be deleted from the capacity scheduler configuration, as the queue is not yet in stopped state. Current State : RUNNING"},
		{"leaf to parent", map[string]string{capPrefix + "root.grumpy-engineers.pesky-testers.queues": "x1", capPrefix + "root.grumpy-engineers.pesky-testers.x1.capacity": "100"},
			"Can not convert the leaf queue: root.grumpy-engineers.pesky-testers to parent queue since it is not yet in stopped state. Current State : RUNNING"},
		{"max allocation decreased", map[string]string{capPrefix + "root.grumpy-engineers.pesky-testers.maximum-allocation-mb": "4096"},
			"the maximum allocation size can not be decreased"},
		{"running child under a stopped parent", map[string]string{capPrefix + "root.grumpy-engineers.state": "STOPPED", capPrefix + "root.grumpy-engineers.pesky-testers.state": "RUNNING"},
			"The parent queue:root.grumpy-engineers cannot be STOPPED as the child queue:root.grumpy-engineers.pesky-testers is in RUNNING state."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := s.Conf()
			for k, v := range tc.set {
				c.Set(k, v)
			}
			err := s.Refresh(c)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Contains(t, err.Error(), "Failed to re-init queues : ")
			require.Equal(t, before, stateJSON(t, s))
		})
	}
}

func TestStoppingAQueueDrainsIt(t *testing.T) {
	s := newCluster(t, yarnRollers(nil), 4, 8192)
	q := "root.finance-wizards.thrifty-treasurers"
	submitHungry(t, s, "x", "u", q, 2)
	c := s.Conf()
	c.Set(capPrefix+"root.finance-wizards.state", "STOPPED")
	require.NoError(t, s.Refresh(c))
	require.Equal(t, config.Draining, queue(t, s, "finance-wizards").State)
	require.Equal(t, config.Draining, queue(t, s, q).State)
	require.Equal(t, config.Stopped, queue(t, s, "meticulous-accountants").State)
	require.ErrorContains(t, s.Submit(core.Submission{App: "y", User: "u", Queue: q}), "is STOPPED")
	s.Tick() // a stopped queue keeps scheduling its running apps
	require.Equal(t, int64(2048), appMB(t, s, "x"))
	require.NoError(t, s.FinishApp("x"))
	require.Equal(t, config.Stopped, queue(t, s, q).State)
	require.Equal(t, config.Stopped, queue(t, s, "finance-wizards").State)
	// Restarting a child needs its parent running.
	c = s.Conf()
	c.Set(capPrefix+"root.finance-wizards.state", "STOPPED")
	c.Set(capPrefix+"root.finance-wizards.thrifty-treasurers.state", "RUNNING")
	require.Error(t, s.Refresh(c))
	c.Set(capPrefix+"root.finance-wizards.state", "RUNNING")
	require.NoError(t, s.Refresh(c))
	require.Equal(t, config.Running, queue(t, s, q).State)
}
