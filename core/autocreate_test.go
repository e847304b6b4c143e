package core_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// autoCreateConf is TestCapacitySchedulerAutoCreatedQueueBase's
// configuration for the default partition: c and d are managed parents of
// 20% each (c's template 50%, maximum 100%, user-limit-factor 3, fair
// ordering; d's 10%, minimum-user-limit-percent 3, user-limit-factor
// 100), user0 to user3 map to c.<user> and group testgroup to d.%user,
// the mappings override, and the queue-management policy runs. Hadoop's
// a, b and two small subgroups are a, b and e here (only c's and d's
// capacities matter).
func autoCreateConf(extra ...string) *config.Conf {
	p := config.Prefix + "root."
	m := map[string]string{
		p + "queues":     "a,b,c,d,e",
		p + "a.capacity": "20", p + "b.capacity": "20", p + "c.capacity": "20", p + "d.capacity": "20", p + "e.capacity": "20",
		p + "c.user-limit-factor": "1", p + "c.auto-create-child-queue.enabled": "true",
		p + "c.leaf-queue-template.capacity": "50", p + "c.leaf-queue-template.maximum-capacity": "100",
		p + "c.leaf-queue-template.minimum-user-limit-percent": "100", p + "c.leaf-queue-template.user-limit-factor": "3.0",
		p + "c.leaf-queue-template.ordering-policy": "fair",
		p + "d.auto-create-child-queue.enabled":     "true", p + "d.minimum-user-limit-percent": "100", p + "d.user-limit-factor": "3.0",
		p + "d.leaf-queue-template.capacity": "10", p + "d.leaf-queue-template.maximum-capacity": "100",
		p + "d.leaf-queue-template.minimum-user-limit-percent": "3", p + "d.leaf-queue-template.user-limit-factor": "100",
		config.KeyQueueMappings:                "u:user0:c.user0,u:user1:c.user1,u:user2:c.user2,u:user3:c.user3,g:testgroup:d.%user",
		config.KeyQueueMappingsOverride:        "true",
		config.KeyMonitorEnable:                "true",
		config.KeyMonitorPolicies:              config.QueueManagementPolicyClass,
		"yarn.scheduler.maximum-allocation-mb": "16384", "yarn.scheduler.maximum-allocation-vcores": "8",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return config.FromMap(m)
}

func autoScheduler(t *testing.T, c *config.Conf) *core.Scheduler {
	t.Helper()
	s, err := core.New(c, config.Hadoop3)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "h1", Capacity: resource.New(32*gb, 32)}))
	return s
}

func submitAs(t *testing.T, s *core.Scheduler, app, user, queue string) error {
	t.Helper()
	am := resource.New(gb, 1)
	return s.Submit(core.Submission{App: app, User: user, Queue: queue, AM: &am, AMContainerRequest: true})
}

func requireCaps(t *testing.T, s *core.Scheduler, path string, capacity, abs, maxCap, absMax float32) core.QueueView {
	t.Helper()
	v, err := s.Queue(path)
	require.NoError(t, err)
	require.True(t, v.AutoCreated, path)
	require.InDelta(t, capacity, v.Capacity, 1e-4, path+" capacity")
	require.InDelta(t, abs, v.AbsCapacity, 1e-4, path+" absolute capacity")
	require.InDelta(t, maxCap, v.MaxCapacity, 1e-4, path+" maximum capacity")
	require.InDelta(t, absMax, v.AbsMaxCapacity, 1e-4, path+" absolute maximum capacity")
	return v
}

// TestAutoCreatedQueueActivationDeactivation follows Hadoop's
// testAutoCreateLeafQueueCreation and
// testAutoCreatedQueueActivationDeactivation for the default partition.
func TestAutoCreatedQueueActivationDeactivation(t *testing.T) {
	s := autoScheduler(t, autoCreateConf())
	require.NoError(t, submitAs(t, s, "app1", "user1", "default"))
	v := requireCaps(t, s, "root.c.user1", 0.5, 0.1, 1, 1)
	// validateUserAndAppLimits(1000, 1000), validateContainerLimits, fair.
	require.Equal(t, 1000, v.MaxApps)
	require.Equal(t, 1000, v.MaxAppsPerUser)
	require.Equal(t, resource.New(16384, 8), v.MaxAllocation)
	require.Equal(t, config.PolicyFair, v.OrderingPolicy)
	require.InDelta(t, 0.1, v.MaxAMPercent, 1e-6, "the template's configuration, not the cluster's, gives the default 0.1")
	require.True(t, v.AutoActive)
	require.Equal(t, int64(3276), v.EffectiveMin.MemoryMB, "0.1 of the 32 GB cluster")

	require.NoError(t, submitAs(t, s, "app2", "user2", "default"))
	requireCaps(t, s, "root.c.user2", 0.5, 0.1, 1, 1)
	require.NoError(t, submitAs(t, s, "app3", "user1", "default"))
	// No room for user3: capacity 0 (validateCapacities(user3, 0, 0, 1, 1)).
	require.NoError(t, submitAs(t, s, "app4", "user3", "default"))
	v = requireCaps(t, s, "root.c.user3", 0, 0, 1, 1)
	require.False(t, v.AutoActive)

	// user2's application goes; the policy deactivates user2 and
	// activates user3.
	require.NoError(t, s.KillApp("app2", "test"))
	s.TakeEvents()
	s.Tick()
	requireCaps(t, s, "root.c.user2", 0, 0, 1, 1)
	requireCaps(t, s, "root.c.user3", 0.5, 0.1, 1, 1)
	var kinds []core.EventKind
	for _, e := range s.TakeEvents() {
		if e.Kind == core.EvQueueActivated || e.Kind == core.EvQueueDeactivated {
			kinds = append(kinds, e.Kind)
		}
	}
	require.Equal(t, []core.EventKind{core.EvQueueDeactivated, core.EvQueueActivated}, kinds)
	require.NoError(t, s.CheckInvariants())

	// A clone carries the dynamic queues and the policy's state.
	c := s.Clone()
	require.Equal(t, s.Queues(), c.Queues())
	require.NoError(t, s.FinishApp("app4"))
	s.Tick()
	requireCaps(t, s, "root.c.user3", 0, 0, 1, 1)
	requireCaps(t, c, "root.c.user3", 0.5, 0.1, 1, 1)
}

// TestAutoCreatedQueueByGroupMapping is testAutoCreateLeafQueueCreation's
// second half: a group mapping to d.%user creates d.<user> at 10% of d.
func TestAutoCreatedQueueByGroupMapping(t *testing.T) {
	s := autoScheduler(t, autoCreateConf())
	s.SetUserGroups("testuser", []string{"testgroup"})
	require.NoError(t, submitAs(t, s, "app1", "testuser", "default"))
	v := requireCaps(t, s, "root.d.testuser", 0.1, 0.02, 1, 1)
	require.Equal(t, 200, v.MaxApps)
	require.Equal(t, 200, v.MaxAppsPerUser, "min(200, 200 x 3/100 x 100)")
}

// TestAutoCreatedQueueRefusals holds the submissions Hadoop refuses.
func TestAutoCreatedQueueRefusals(t *testing.T) {
	cases := []struct {
		name, user, queue string
		groups            []string
		extra             []string
		want              string
	}{
		{name: "no mapping: the queue is unknown (testAutoCreateLeafQueueFailsWithNoQueueMapping)",
			user: "invalid_user", queue: "invalid_user", groups: []string{"invalid_group"},
			want: "Application app9 submitted by user invalid_user to unknown queue: invalid_user"},
		{name: "an auto-created queue named without a mapping", user: "someone", queue: "user0", groups: []string{"staff"},
			want: "Application app9 submission by user : someone to specified queue : user0  is prohibited. " +
				"Verify automatic queue mapping for user exists in yarn.scheduler.capacity.queue-mappings"},
		{name: "a group mapping for a user without groups", user: "nogroups", queue: "default",
			want: "Failed to submit application app9 submitted by user nogroups reason: No groups found for user nogroups"},
		{name: "max-queues reached", user: "user1", queue: "default",
			extra: []string{config.Prefix + "root.c.auto-create-child-queue.max-queues", "1"},
			want:  "Application app9 submission by user : user1 to  queue : user1 failed : Cannot auto create leaf queue root.c.user1.Max Child Queue limit exceeded which is configured as : 1 and number of child queues is : 1"},
		{name: "fail on exceeding the parent's capacity", user: "user1", queue: "default",
			extra: []string{config.Prefix + "root.c.auto-create-child-queue.fail-on-exceeding-parent-capacity", "true",
				config.Prefix + "root.c.leaf-queue-template.capacity", "60"},
			want: "Application app9 submission by user : user1 to  queue : user1 failed : Cannot auto create leaf queue root.c.user1. Child queues capacities have reached parent queue : root.c's guaranteed capacity"},
		{name: "a template the leaf cannot be built from", user: "user1", queue: "default",
			extra: []string{config.Prefix + "root.c.leaf-queue-template.user-limit-factor", "x"},
			want: "Application app9 submission by user : user1 to  queue : user1 failed : Invalid float value \"x\" for " +
				"yarn.scheduler.capacity.root.c.user1.user-limit-factor (queue root.c.user1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := autoScheduler(t, autoCreateConf(tc.extra...))
			if tc.groups != nil {
				s.SetUserGroups(tc.user, tc.groups)
			}
			if tc.extra == nil || tc.extra[1] != "x" {
				require.NoError(t, submitAs(t, s, "app0", "user0", "default"))
			}
			err := submitAs(t, s, "app9", tc.user, tc.queue)
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestAutoCreatedQueuesSurviveRefresh is testReinitializeQueuesWithAuto-
// CreatedLeafQueues for the default partition: the leaves stay, are
// rebuilt from the new template at capacity 0, and the policy activates
// those with applications again; a managed parent cannot become a leaf.
func TestAutoCreatedQueuesSurviveRefresh(t *testing.T) {
	s := autoScheduler(t, autoCreateConf())
	require.NoError(t, submitAs(t, s, "app1", "user1", "default"))
	require.NoError(t, submitAs(t, s, "app2", "user2", "default"))
	require.NoError(t, s.KillApp("app2", "test"))
	require.NoError(t, s.Refresh(autoCreateConf(config.Prefix+"root.c.leaf-queue-template.capacity", "40")))
	requireCaps(t, s, "root.c.user1", 0.4, 0.08, 1, 1)
	requireCaps(t, s, "root.c.user2", 0, 0, 1, 1)
	require.NoError(t, s.CheckInvariants())

	// (Hadoop checks the queues before the mappings; keep the mappings valid.)
	err := s.Refresh(autoCreateConf(config.Prefix+"root.c.auto-create-child-queue.enabled", "false",
		config.KeyQueueMappings, "g:testgroup:d.%user"))
	require.EqualError(t, err, "Failed to re-init queues : Cannot convert auto create enabled parent queue: root.c to leaf queue. "+
		"Please check  parent queue's configuration auto-create-child-queue.enabled is set to true")
	// testConvertLeafQueueToParentQueueWithAutoCreate: a stopped leaf may.
	c := autoCreateConf(config.Prefix+"root.a.auto-create-child-queue.enabled", "true", config.Prefix+"root.a.state", "STOPPED")
	require.NoError(t, s.Refresh(c))
	v, err := s.Queue("root.a")
	require.NoError(t, err)
	require.True(t, v.ManagedParent)
	require.False(t, v.Leaf)
}

// newAutoWorkload is newWorkload with c an auto-create enabled parent:
// u2 and u3 are placed in c.u2 and c.u3 whatever queue they name, and
// the queue-management policy runs (or not, by the seed).
func newAutoWorkload(t testing.TB, seed uint64) *workload {
	pcg := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
	r := rand.New(pcg)
	m := randomConf(r)
	p := config.Prefix + "root.c."
	m[p+"auto-create-child-queue.enabled"] = "true"
	m[p+"leaf-queue-template.capacity"] = fmt.Sprint([]int{20, 40, 50, 100}[r.IntN(4)])
	m[p+"leaf-queue-template.maximum-capacity"] = "100"
	m[p+"leaf-queue-template.user-limit-factor"] = fmt.Sprint(1 + r.IntN(3))
	m[config.KeyQueueMappings] = "u:u2:c.u2,u:u3:c.u3"
	m[config.KeyQueueMappingsOverride] = "true"
	if r.IntN(4) != 0 {
		m[config.KeyMonitorEnable] = "true"
		m[config.KeyMonitorPolicies] = config.QueueManagementPolicyClass
	}
	s, err := core.New(config.FromMap(m), config.Hadoop3)
	require.NoError(t, err, "seed %d", seed)
	w := &workload{t: t, pcg: pcg, r: r, s: s, leafs: []string{"root.a.a1", "root.a.a2", "root.b", "default"}}
	for i := 0; i < 2+r.IntN(5); i++ {
		w.addNode()
	}
	return w
}

// TestRandomAutoCreatedWorkloads plays random workloads in which leaves
// are created, activated and deactivated: the invariants hold at every
// step, and a clone replays exactly.
func TestRandomAutoCreatedWorkloads(t *testing.T) {
	created := 0
	for seed := uint64(1); seed <= 30; seed++ {
		w := newAutoWorkload(t, seed)
		for i := 0; i < 200; i++ {
			w.do()
			require.NoError(t, w.s.CheckInvariants(), "seed %d step %d", seed, w.step)
		}
		if _, err := w.s.Queue("root.c.u2"); err == nil {
			created++
		}
		w.s.TakeEvents()
		pcg := *w.pcg
		twin := &workload{t: t, pcg: &pcg, r: rand.New(&pcg), s: w.s.Clone(),
			apps: append([]string(nil), w.apps...), nodes: append([]string(nil), w.nodes...), leafs: w.leafs, step: w.step, added: w.added}
		for i := 0; i < 80; i++ {
			w.do()
		}
		for i := 0; i < 80; i++ {
			twin.do()
		}
		require.Equal(t, stateJSON(t, w.s), stateJSON(t, twin.s), "seed %d: the clone replayed differently", seed)
		require.Equal(t, w.s.TakeEvents(), twin.s.TakeEvents(), "seed %d", seed)
	}
	require.Positive(t, created, "the workloads create leaves")
}

// TestAutoCreatedQueuesUnderHadoop34 plays the activation and
// deactivation under the hadoop-3.4 profile, whose effective resources
// are computed in double from the capacity percentages: they follow the
// leaves' entitlements too.
func TestAutoCreatedQueuesUnderHadoop34(t *testing.T) {
	s, err := core.New(autoCreateConf(), config.Hadoop34)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "h1", Capacity: resource.New(32*gb, 32)}))
	require.NoError(t, submitAs(t, s, "app1", "user1", "default"))
	require.NoError(t, submitAs(t, s, "app2", "user2", "default"))
	require.NoError(t, submitAs(t, s, "app3", "user3", "default"))
	v := requireCaps(t, s, "root.c.user1", 0.5, 0.1, 1, 1)
	require.Equal(t, int64(3276), v.EffectiveMin.MemoryMB, "0.1 of 32 GB, in double, floored")
	v = requireCaps(t, s, "root.c.user3", 0, 0, 1, 1)
	require.Zero(t, v.EffectiveMin.MemoryMB)
	require.NoError(t, s.KillApp("app2", "test"))
	s.Tick()
	v = requireCaps(t, s, "root.c.user3", 0.5, 0.1, 1, 1)
	require.Equal(t, int64(3276), v.EffectiveMin.MemoryMB)
	v = requireCaps(t, s, "root.c.user2", 0, 0, 1, 1)
	require.Zero(t, v.EffectiveMin.MemoryMB)
	require.NoError(t, s.CheckInvariants())
}
