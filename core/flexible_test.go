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

// newAutoCreationConf is TestCapacitySchedulerNewQueueAutoCreation's
// setUp: root with a (1w, child a1 1w) and b (1w), flexible auto-queue
// creation enabled on root and a. extra are more key, value pairs.
func newAutoCreationConf(extra ...string) *config.Conf {
	p := config.Prefix + "root."
	m := map[string]string{
		p + "queues": "a,b", p + "a.capacity": "1w", p + "b.capacity": "1w",
		p + "a.queues": "a1", p + "a.a1.capacity": "1w",
		config.Prefix + "root." + config.SuffixAutoQueueCreationV2: "true",
		p + "a." + config.SuffixAutoQueueCreationV2:                "true",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	return config.FromMap(m)
}

// flexibleScheduler starts Hadoop 3.4 on the test's one node of
// MAX_MEMORY = 1200 GB.
func flexibleScheduler(t *testing.T, c *config.Conf) *core.Scheduler {
	t.Helper()
	s, err := core.New(c, config.Hadoop34)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "h1", Capacity: resource.New(1200*gb, 1200)}))
	return s
}

func requireDynamic(t *testing.T, s *core.Scheduler, path string, abs float32, minMB int64) core.QueueView {
	t.Helper()
	v, err := s.Queue(path)
	require.NoError(t, err, path)
	require.True(t, v.AutoCreated, path)
	require.True(t, v.Weighted, path)
	require.InDelta(t, 1, v.Weight, 1e-6, path+" weight")
	require.InDelta(t, abs, v.AbsCapacity, 1e-6, path+" absolute capacity")
	require.Equal(t, minMB, v.EffectiveMin.MemoryMB, path+" effective minimum")
	return v
}

// TestFlexibleAutoQueueCreation follows TestCapacitySchedulerNewQueueAutoCreation
// with Hadoop's numbers, for the dynamic leaves yarnplay simulates.
func TestFlexibleAutoQueueCreation(t *testing.T) {
	t.Run("testAutoCreateQueueWithSiblingsUnderRoot", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		require.NoError(t, submitAs(t, s, "app1", "u", "root.c-auto"))
		c := requireDynamic(t, s, "root.c-auto", 1/3.0, 400*gb)
		require.InDelta(t, -1, c.UserLimitFactor, 1e-6)
		require.InDelta(t, 1, c.MaxAMPercent, 1e-6)
		require.NoError(t, submitAs(t, s, "app2", "u", "root.d-auto"))
		requireDynamic(t, s, "root.d-auto", 1/4.0, 300*gb)
		requireDynamic(t, s, "root.c-auto", 1/4.0, 300*gb)
		require.NoError(t, s.CheckInvariants())
		// A clone keeps the dynamic queues and creates the next one the same way.
		d := s.Clone()
		require.NoError(t, submitAs(t, d, "app3", "u", "root.e-auto"))
		requireDynamic(t, d, "root.e-auto", 1/5.0, 240*gb)
		requireDynamic(t, s, "root.c-auto", 1/4.0, 300*gb)
		_, err := s.Queue("root.e-auto")
		require.Error(t, err, "the clone's queue is not the original's")
		require.NoError(t, d.CheckInvariants())
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testAutoCreateQueueStaticParentOneLevel", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a2-auto"))
		requireDynamic(t, s, "root.a.a2-auto", 1/4.0, 300*gb)
	})
	t.Run("testAutoCreateQueueRefresh", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		for i, q := range []string{"root.c-auto", "root.d-auto", "root.a.a2-auto"} {
			require.NoError(t, submitAs(t, s, fmt.Sprint("app", i), "u", q))
		}
		require.NoError(t, s.Refresh(newAutoCreationConf()))
		requireDynamic(t, s, "root.c-auto", 1/4.0, 300*gb)
		requireDynamic(t, s, "root.a.a2-auto", 1/8.0, 150*gb)
		require.NoError(t, s.CheckInvariants())
		// testConvertDynamicToStaticQueue: a weight 6 for a gives 6/9 of root
		// here (a, b, c-auto, d-auto: 6+1+1+1).
		require.NoError(t, s.Refresh(newAutoCreationConf(config.Prefix+"root.a.capacity", "6w")))
		v, err := s.Queue("root.a")
		require.NoError(t, err)
		require.InDelta(t, 6/9.0, v.AbsCapacity, 1e-6)
		requireDynamic(t, s, "root.c-auto", 1/9.0, 1200*gb/9)
		// c-auto made static with weight 6.
		require.NoError(t, s.Refresh(newAutoCreationConf(config.Prefix+"root.a.capacity", "6w",
			config.Prefix+"root.queues", "a,b,c-auto", config.Prefix+"root.c-auto.capacity", "6w")))
		v, err = s.Queue("root.c-auto")
		require.NoError(t, err)
		require.False(t, v.AutoCreated, "now configured")
		require.InDelta(t, 6/14.0, v.AbsCapacity, 1e-6)
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testAutoCreatedQueueTemplateConfig", func(t *testing.T) {
		// The template of root.a, and an explicit weight of one dynamic queue.
		p := config.Prefix + "root.a."
		s := flexibleScheduler(t, newAutoCreationConf(
			p+config.TemplatePrefix+"capacity", "6w",
			p+config.TemplatePrefix+"user-limit-factor", "10",
			p+config.LeafTemplatePrefix+"maximum-am-resource-percent", "0.8",
			p+config.TemplatePrefix+"maximum-am-resource-percent", "0.5",
			p+"a3.capacity", "4w"))
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a2"))
		v, err := s.Queue("root.a.a2")
		require.NoError(t, err)
		require.InDelta(t, 6, v.Weight, 1e-6, "weight set by the template")
		require.InDelta(t, 10, v.UserLimitFactor, 1e-6, "user limit factor set by the template")
		require.InDelta(t, 0.8, v.MaxAMPercent, 1e-6, "leaf-template before template")
		require.InDelta(t, 6/7.0*0.5, v.AbsCapacity, 1e-6)
		require.NoError(t, submitAs(t, s, "app2", "u", "root.a.a3"))
		v, err = s.Queue("root.a.a3")
		require.NoError(t, err)
		require.InDelta(t, 4, v.Weight, 1e-6, "explicit weight before the template")
	})
}

// TestFlexibleDynamicParents follows the tests of
// TestCapacitySchedulerNewQueueAutoCreation that create dynamic parents.
func TestFlexibleDynamicParents(t *testing.T) {
	t.Run("createBasicQueueStructureAndValidate", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		for i, q := range []string{"root.c-auto", "root.d-auto", "root.a.a2-auto", "root.e-auto.e1-auto"} {
			require.NoError(t, submitAs(t, s, fmt.Sprint("app", i), "u", q))
		}
		requireDynamic(t, s, "root.a.a2-auto", 1/10.0, 120*gb)
		requireDynamic(t, s, "root.e-auto", 1/5.0, 240*gb)
		requireDynamic(t, s, "root.e-auto.e1-auto", 1/5.0, 240*gb)
		require.NoError(t, s.CheckInvariants())
		// testAutoCreateQueueRefresh: root keeps its 5 children.
		require.NoError(t, s.Refresh(newAutoCreationConf()))
		requireDynamic(t, s, "root.e-auto.e1-auto", 1/5.0, 240*gb)
		n := 0
		for _, v := range s.Queues() {
			if v.Depth == 1 {
				n++
			}
		}
		require.Equal(t, 5, n)
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testAutoCreateQueueAutoParentTwoLevelsWithSiblings", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf(config.Prefix+"root.a.a2-auto."+config.SuffixAutoQueueCreationV2, "true"))
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a2-auto.a3-auto"))
		requireDynamic(t, s, "root.a.a2-auto.a3-auto", 1/4.0, 300*gb)
		require.NoError(t, submitAs(t, s, "app2", "u", "root.a.a2-auto.a4-auto"))
		requireDynamic(t, s, "root.a.a2-auto.a3-auto", 1/8.0, 150*gb)
		requireDynamic(t, s, "root.a.a2-auto.a4-auto", 1/8.0, 150*gb)
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testAutoCreateQueueIfFirstExistingParentQueueIsNotStatic", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a-parent-auto.a1-leaf-auto"))
		require.NoError(t, submitAs(t, s, "app2", "u", "root.a.a-parent-auto.a2-leaf-auto"))
		v, err := s.Queue("a2-leaf-auto")
		require.NoError(t, err)
		require.Equal(t, "root.a.a-parent-auto.a2-leaf-auto", v.Path)
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testConvertDynamicParentToStaticParent", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf())
		require.NoError(t, submitAs(t, s, "app1", "u", "root.d-auto.d1-auto"))
		p := config.Prefix + "root."
		require.NoError(t, s.Refresh(newAutoCreationConf(p+"queues", "a,b,d-auto", p+"a.capacity", "6w", p+"d-auto.capacity", "1w")))
		v, err := s.Queue("root.d-auto")
		require.NoError(t, err)
		require.False(t, v.AutoCreated)
		require.InDelta(t, 1/8.0, v.AbsCapacity, 1e-6)
		requireDynamic(t, s, "root.d-auto.d1-auto", 1/8.0, 150*gb)
		require.NoError(t, s.CheckInvariants())
	})
	t.Run("testAutoCreatedQueueTemplateConfig", func(t *testing.T) {
		s := flexibleScheduler(t, newAutoCreationConf(config.Prefix+"root.a.*."+config.TemplatePrefix+"capacity", "6w"))
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a-auto.a2"))
		v, err := s.Queue("root.a.a-auto.a2")
		require.NoError(t, err)
		require.InDelta(t, 6, v.Weight, 1e-6, "weight is not set by template")
		require.InDelta(t, -1, v.UserLimitFactor, 1e-6)
		require.InDelta(t, 1, v.MaxAMPercent, 1e-6)
	})
}

// TestFlexibleAutoQueueCreationWildcardTemplate checks the template's
// precedence: root.x.y's own entries before root.x.*'s.
func TestFlexibleAutoQueueCreationWildcardTemplate(t *testing.T) {
	p := config.Prefix + "root."
	c := newAutoCreationConf(p+"b.queues", "b1", p+"b.b1.capacity", "1w", p+"b.b1."+config.SuffixAutoQueueCreationV2, "true",
		p+"b.*."+config.TemplatePrefix+"capacity", "3w", p+"b.*."+config.TemplatePrefix+"user-limit-factor", "2",
		p+"b.b1."+config.TemplatePrefix+"user-limit-factor", "5")
	tmpl := config.NewAutoQueueTemplate(c, "root.b.b1")
	require.Equal(t, map[string]string{"capacity": "3w", "user-limit-factor": "5"}, tmpl.Template)
	require.Empty(t, config.NewAutoQueueTemplate(c, "root.b").Template, "root.b has no wildcard level")
	s := flexibleScheduler(t, c)
	require.NoError(t, submitAs(t, s, "app1", "u", "root.b.b1.x"))
	v, err := s.Queue("root.b.b1.x")
	require.NoError(t, err)
	require.InDelta(t, 3, v.Weight, 1e-6)
	require.InDelta(t, 5, v.UserLimitFactor, 1e-6)
}

// TestFlexibleAutoQueueCreationRefusals has Hadoop's messages.
func TestFlexibleAutoQueueCreationRefusals(t *testing.T) {
	p := config.Prefix + "root."
	for _, tc := range []struct {
		name  string
		conf  *config.Conf
		queue string
		msg   string
	}{
		{"testAutoCreateQueueShouldFailWhenNonParentQueue", newAutoCreationConf(), "root.a.a1.a2-auto",
			"Could not auto create hierarchy of root.a.a1.a2-auto. Queue root.a.a1 is not a ParentQueue."},
		{"testAutoCreateQueueWhenSiblingsNotInWeightMode",
			newAutoCreationConf(p+"a.capacity", "50", p+"b.capacity", "50", p+"a.a1.capacity", "100"), "root.a.a2-auto",
			"Trying to create new queue=root.a.a2-auto but not all the queues under parent=root.a are using weight-based capacity. Failed to created queue"},
		{"testAutoCreateMaximumQueueDepth", newAutoCreationConf(), "root.a.a3-auto.a4-auto.a5-auto",
			"Could not auto create queue root.a.a3-auto.a4-auto.a5-auto. The distance of the LeafQueue from the first static ParentQueue is 3, which is above the limit."},
		{"testAutoCreateQueueShouldFailIfNotEnabledForParent",
			newAutoCreationConf(p+config.SuffixAutoQueueCreationV2, "false"), "root.c-auto",
			"Auto creation of queue root.c-auto is not enabled under parent root"},
		{"testAutoQueueCreationDepthLimitFromStaticParent", newAutoCreationConf(), "root.a.a-auto.a2-auto.a3-auto",
			"Could not auto create queue root.a.a-auto.a2-auto.a3-auto. The distance of the LeafQueue from the first static ParentQueue is 3, which is above the limit."},
		{"testAutoCreateQueueWithAmbiguousNonFullPathParentName", newAutoCreationConf(p+"a.queues", "a1,a", p+"a.a.capacity", "1w",
			p+"b.queues", "a", p+"b.a.capacity", "1w"), "a.x",
			"Could not auto-create queue a.x due to ParentQueue a being ambiguous."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := flexibleScheduler(t, tc.conf)
			// Submitted by full path without a placement, a failed creation
			// leaves the queue unknown (Hadoop logs the reason); through a
			// mapping, the application is refused with it.
			err := submitAs(t, s, "app1", "u", tc.queue)
			require.ErrorContains(t, err, "to unknown queue: "+tc.queue)
			// CapacitySchedulerQueueManager.createQueue, as the test calls it.
			require.EqualError(t, core.CreateQueueForTest(s, tc.queue), tc.msg)
			require.NoError(t, s.CheckInvariants())
		})
	}
	t.Run("testAutoCreateQueueMaxQueuesLimit", func(t *testing.T) {
		c := newAutoCreationConf(p+"queues", "a,b,e", p+"e.capacity", "1w", p+"e."+config.SuffixAutoQueueCreationV2, "true",
			p+"e."+config.SuffixAutoQueueCreationV2MaxQueues, "5", config.KeyQueueMappings, "u:%user:root.e.%user")
		s := flexibleScheduler(t, c)
		for i := range 5 {
			require.NoError(t, submitAs(t, s, fmt.Sprint("app", i), fmt.Sprint("q_", i), "default"))
		}
		err := submitAs(t, s, "app6", "q_6", "default")
		require.ErrorContains(t, err, "Cannot auto create queue root.e.q_6. Max Child Queue limit exceeded "+
			"which is configured as: 5 and number of child queues is: 5")
	})
}

// TestRandomFlexibleWorkloads creates dynamic leaves and parents at random
// among submissions, kills, refreshes and ticks (half of them deleting
// idle ones), checking the invariants at every step,
// and a clone taken midway replays the rest the same way.
func TestRandomFlexibleWorkloads(t *testing.T) {
	dynamicParents, deleted := 0, 0
	for seed := range uint64(10) {
		c := newAutoCreationConf(config.KeyQueueMappings, "u:%user:root.a.%user")
		if seed%2 == 1 { // and AutoCreatedQueueDeletionPolicy, every 2 s
			c.Set(config.KeyMonitorEnable, "true")
			c.Set(config.KeyMonitorPolicies, config.AutoQueueDeletionPolicyClass)
			c.Set(config.KeyAutoQueueExpirationTime, "2")
		}
		s := flexibleScheduler(t, c)
		rng := rand.New(rand.NewPCG(seed, 30))
		var clone *core.Scheduler
		var steps []func(*core.Scheduler)
		for step := range 120 {
			if step == 60 {
				clone = s.Clone()
			}
			app := fmt.Sprint("app", step)
			var f func(*core.Scheduler)
			switch rng.IntN(6) {
			case 0:
				user := fmt.Sprint("u", rng.IntN(6))
				f = func(x *core.Scheduler) { _ = submitAs(t, x, app, user, "default") }
			case 1:
				q := fmt.Sprint("root.q", rng.IntN(5))
				f = func(x *core.Scheduler) { _ = submitAs(t, x, app, "v", q) }
			case 4:
				q := fmt.Sprintf("root.p%d.q%d", rng.IntN(3), rng.IntN(3))
				f = func(x *core.Scheduler) { _ = submitAs(t, x, app, "w", q) }
			case 5:
				f = func(x *core.Scheduler) { _ = x.Refresh(c) }
			case 2:
				victim := fmt.Sprint("app", rng.IntN(step+1))
				f = func(x *core.Scheduler) { _ = x.KillApp(victim, "test") }
			default:
				f = func(x *core.Scheduler) { x.Tick() }
			}
			f(s)
			require.NoError(t, s.CheckInvariants(), "seed %d step %d", seed, step)
			for _, e := range s.TakeEvents() {
				if e.Kind == core.EvQueueDeleted {
					deleted++
				}
			}
			if step >= 60 {
				steps = append(steps, f)
			}
		}
		for _, f := range steps {
			f(clone)
		}
		require.Equal(t, s.Queues(), clone.Queues(), "seed %d", seed)
		for _, v := range s.Queues() {
			if v.Dynamic && !v.Leaf {
				dynamicParents++
			}
		}
	}
	require.Positive(t, dynamicParents, "the workloads make dynamic parents")
	require.Positive(t, deleted, "the workloads delete dynamic queues")
}

// TestFlexibleQueueDeletion follows testCapacitySchedulerAutoQueueDeletion
// and testCapacitySchedulerAutoQueueDeletionDisabled: with
// AutoCreatedQueueDeletionPolicy and an expiration time of 1 s (the
// policy runs every second, every tick here), a dynamic leaf stays while
// it has an application, goes once idle and marked twice, and then its
// dynamic parent, now childless, goes too; their siblings take back their
// shares.
func TestFlexibleQueueDeletion(t *testing.T) {
	policy := func(extra ...string) *config.Conf {
		return newAutoCreationConf(append([]string{config.KeyMonitorEnable, "true",
			config.KeyMonitorPolicies, config.AutoQueueDeletionPolicyClass, config.KeyAutoQueueExpirationTime, "1"}, extra...)...)
	}
	exists := func(s *core.Scheduler, path string) bool {
		_, err := s.Queue(path)
		return err == nil
	}
	t.Run("testCapacitySchedulerAutoQueueDeletion", func(t *testing.T) {
		s := flexibleScheduler(t, policy())
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a1-auto.a2-auto"))
		v, err := s.Queue("root.a.a1")
		require.NoError(t, err)
		require.InDelta(t, 0.25, v.AbsCapacity, 1e-6)
		for range 4 {
			s.Tick()
		}
		require.True(t, exists(s, "root.a.a1-auto.a2-auto"), "not deleted with an application")
		require.NoError(t, s.KillApp("app1", "test"))
		s.Tick() // marked
		require.True(t, exists(s, "root.a.a1-auto.a2-auto"))
		s.Tick() // sent and deleted
		require.False(t, exists(s, "root.a.a1-auto.a2-auto"))
		require.True(t, exists(s, "root.a.a1-auto"), "the parent is not deleted with its child")
		require.NoError(t, s.CheckInvariants())
		s.Tick()
		s.Tick()
		require.False(t, exists(s, "root.a.a1-auto"), "a childless dynamic parent goes too")
		v, err = s.Queue("root.a.a1")
		require.NoError(t, err)
		require.InDelta(t, 0.5, v.AbsCapacity, 1e-6)
		require.Equal(t, int64(600*gb), v.EffectiveMin.MemoryMB)
		require.NoError(t, s.CheckInvariants())
		var deleted []string
		for _, e := range s.TakeEvents() {
			if e.Kind == core.EvQueueDeleted {
				deleted = append(deleted, e.Queue)
			}
		}
		require.Equal(t, []string{"root.a.a1-auto.a2-auto", "root.a.a1-auto"}, deleted)
	})
	t.Run("testCapacitySchedulerAutoQueueDeletionDisabled", func(t *testing.T) {
		off := config.Prefix + "root.a.a1-auto.a2-auto." + config.SuffixAutoQueueRemoval
		s := flexibleScheduler(t, policy(off, "false"))
		require.NoError(t, submitAs(t, s, "app1", "u", "root.a.a1-auto.a2-auto"))
		require.NoError(t, s.KillApp("app1", "test"))
		for range 5 {
			s.Tick()
		}
		require.True(t, exists(s, "root.a.a1-auto.a2-auto"), "auto deletion is disabled for a2-auto")
		require.NoError(t, s.Refresh(policy(off, "true")))
		for range 5 {
			s.Tick()
		}
		require.False(t, exists(s, "root.a.a1-auto.a2-auto"))
		require.False(t, exists(s, "root.a.a1-auto"))
		require.NoError(t, s.CheckInvariants())
	})
}
