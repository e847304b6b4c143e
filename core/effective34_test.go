package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// TestDoublePrecisionCapacities: Hadoop 3.3 multiplies the cluster by a
// float absolute capacity (Resources.multiply), Hadoop 3.4's
// PercentageQueueCapacityCalculator works in double, so a 70% queue of
// 1,024,000 MB is 716,799 MB under 3.3 and 716,800 MB under 3.4 (and
// its 1000 vcores 699 and 700).
func TestDoublePrecisionCapacities(t *testing.T) {
	p := config.Prefix + "root."
	conf := config.FromMap(map[string]string{p + "queues": "a,b", p + "a.capacity": "70", p + "b.capacity": "30"})
	tests := []struct {
		profile config.Profile
		a, b    resource.Resource
	}{
		{config.Hadoop3, resource.New(716799, 699), resource.New(307200, 300)},
		{config.Hadoop34, resource.New(716800, 700), resource.New(307200, 300)},
		{config.Hadoop2, resource.New(716799, 699), resource.New(307200, 300)},
	}
	for _, tc := range tests {
		t.Run(string(tc.profile), func(t *testing.T) {
			s, err := core.New(conf, tc.profile)
			require.NoError(t, err)
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(1024000, 1000)}))
			for path, want := range map[string]resource.Resource{"root.a": tc.a, "root.b": tc.b} {
				q, err := s.Queue(path)
				require.NoError(t, err)
				require.Equal(t, want, q.EffectiveMin, path)
				require.Equal(t, resource.New(1024000, 1000), q.EffectiveMax, path)
			}
		})
	}
}

// TestWeightEffectiveResources holds Hadoop 3.4's effective resources of
// weighted queues (WeightQueueCapacityCalculator): the parent's share
// times weight / sum of the weights, rounded to the nearest (12.8 vcores
// is 13), a lone weight taking all that is left; siblings compute from
// what was left before their type (getRemainingRatioOfResource), so the
// second of two 9.5-vcore halves gets only the 9 the first left.
func TestWeightEffectiveResources(t *testing.T) {
	p := config.Prefix + "root."
	conf := config.FromMap(map[string]string{
		p + "queues": "a,b", p + "a.capacity": "2w", p + "b.capacity": "3w",
		p + "a.queues": "a1", p + "a.a1.capacity": "7w",
		p + "b.queues": "b1,b2", p + "b.b1.capacity": "1w", p + "b.b2.capacity": "1w", p + "b.b2.maximum-capacity": "50",
	})
	s, err := core.New(conf, config.Hadoop34)
	require.NoError(t, err)
	for i := 0; i < 4; i++ {
		require.NoError(t, s.AddNode(core.NodeSpec{Name: "n" + string(rune('0'+i)), Rack: "/r", Capacity: resource.New(10240, 8)}))
	}
	tests := []struct {
		path          string
		min, max      resource.Resource
		norm, abs     float32
		maxApps, apps int
	}{
		{"root.a", resource.New(16384, 13), resource.New(40960, 32), 0.4, 0.4, 0, 0},
		{"root.a.a1", resource.New(16384, 13), resource.New(40960, 32), 1, 0.4, 4000, 4000},
		{"root.b", resource.New(24576, 19), resource.New(40960, 32), 0.6, 0.6, 0, 0},
		{"root.b.b1", resource.New(12288, 10), resource.New(40960, 32), 0.5, 0.3, 3000, 3000},
		{"root.b.b2", resource.New(12288, 9), resource.New(20480, 16), 0.5, 0.3, 3000, 3000},
	}
	for _, tc := range tests {
		q, err := s.Queue(tc.path)
		require.NoError(t, err)
		require.Equal(t, tc.min, q.EffectiveMin, tc.path)
		require.Equal(t, tc.max, q.EffectiveMax, tc.path)
		require.True(t, q.Weighted, tc.path)
		require.InDelta(t, tc.norm, q.NormalizedWeight, 1e-6, tc.path)
		require.InDelta(t, tc.abs, q.AbsCapacity, 1e-6, tc.path)
		require.Zero(t, q.Capacity, tc.path)
		require.Equal(t, tc.maxApps, q.MaxApps, tc.path)
	}
}

// TestWeightsWithoutNodes: before the first node every effective
// resource is 0 (Hadoop's 0/0 is NaN, and (long) NaN is 0).
func TestWeightsWithoutNodes(t *testing.T) {
	p := config.Prefix + "root."
	s, err := core.New(config.FromMap(map[string]string{p + "queues": "a,b", p + "a.capacity": "1w", p + "b.capacity": "1w"}), config.Hadoop34)
	require.NoError(t, err)
	q, err := s.Queue("root.a")
	require.NoError(t, err)
	require.Equal(t, resource.None, q.EffectiveMin)
	require.Equal(t, resource.None, q.EffectiveMax)
	require.InDelta(t, 0.5, q.AbsCapacity, 1e-6)
}

// TestMixedQueueMode: with legacy-queue-mode.enabled=false siblings mix
// the three modes; Hadoop 3.4's ResourceCalculationDriver serves the
// absolute queue first, then the percentages of what is left, then the
// weights of the rest; a percentage sum above 100% gets what is left
// (QUEUE_OVERUTILIZED), and every capacity is divided from the effective
// resources (CapacitySchedulerQueueCapacityHandler.setQueueCapacities).
func TestMixedQueueMode(t *testing.T) {
	p := config.Prefix + "root."
	conf := config.FromMap(map[string]string{
		config.KeyLegacyQueueMode: "false",
		p + "queues":              "a,b,c,d", p + "a.capacity": "[memory=10240,vcores=10]", p + "b.capacity": "50",
		p + "c.capacity": "2w", p + "d.capacity": "1w",
		p + "b.queues": "b1,b2", p + "b.b1.capacity": "70", p + "b.b2.capacity": "70",
	})
	s, err := core.New(conf, config.Hadoop34)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(40960, 40)}))
	tests := []struct {
		path          string
		min           resource.Resource
		capacity, abs float32
		maxApps       int
	}{
		{"root.a", resource.New(10240, 10), 0.25, 0.25, 2500},
		{"root.b", resource.New(15360, 15), 0.375, 0.375, 0},
		{"root.c", resource.New(10240, 10), 0.25, 0.25, 2500},
		{"root.d", resource.New(5120, 5), 0.125, 0.125, 1250},
		{"root.b.b1", resource.New(10752, 10), 0.7, 0.2625, 2625},
		{"root.b.b2", resource.New(4608, 5), 0.3, 0.1125, 1125},
	}
	for _, tc := range tests {
		q, err := s.Queue(tc.path)
		require.NoError(t, err)
		require.Equal(t, tc.min, q.EffectiveMin, tc.path)
		require.InDelta(t, tc.capacity, q.Capacity, 1e-6, tc.path)
		require.InDelta(t, tc.abs, q.AbsCapacity, 1e-6, tc.path)
		if q.Leaf {
			require.Equal(t, tc.maxApps, q.MaxApps, tc.path)
		}
	}
}

// FuzzMixedQueueMode builds three siblings with fuzzed capacities under
// legacy-queue-mode.enabled=false on one node of a fuzzed size: a
// configuration Hadoop 3.4 takes never panics the scheduler, keeps its
// invariants, and its children's effective minimums are non-negative and
// within the cluster per resource type (the driver gives no child more
// than the parent has left).
func FuzzMixedQueueMode(f *testing.F) {
	f.Add("[memory=10240,vcores=10]", "50", "2w", int64(40960), int64(40))
	f.Add("70", "70", "1w", int64(1024000), int64(1000))
	f.Add("0w", "0", "[memory=1]", int64(1), int64(1))
	f.Add("3w", "1w", "[memory=99999,vcores=99]", int64(8192), int64(0))
	f.Fuzz(func(t *testing.T, a, b, c string, mem, vc int64) {
		if mem < 0 || vc < 0 || mem > 1<<40 || vc > 1<<20 {
			return
		}
		p := config.Prefix + "root."
		conf := config.FromMap(map[string]string{config.KeyLegacyQueueMode: "false",
			p + "queues": "a,b,c", p + "a.capacity": a, p + "b.capacity": b, p + "c.capacity": c})
		s, err := core.New(conf, config.Hadoop34)
		if err != nil {
			return
		}
		if s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(mem, vc)}) != nil {
			return
		}
		require.NoError(t, s.CheckInvariants())
		var sum resource.Resource
		for _, q := range s.Queues() {
			if q.Depth != 1 {
				continue
			}
			require.False(t, q.EffectiveMin.MemoryMB < 0 || q.EffectiveMin.VCores < 0, q.Path)
			sum = sum.Add(q.EffectiveMin)
		}
		require.True(t, resource.FitsIn(sum, resource.New(mem, vc)), "%v within %d MB, %d vcores", sum, mem, vc)
	})
}

// TestPercentageQueueWithResourceMaximum: Hadoop 3.4's calculation caps a
// percentage queue by a bracketed maximum-capacity, which Hadoop 3.3
// ignores (with a warning).
func TestPercentageQueueWithResourceMaximum(t *testing.T) {
	p := config.Prefix + "root."
	conf := config.FromMap(map[string]string{p + "queues": "a,b", p + "a.capacity": "50", p + "b.capacity": "50",
		p + "a.maximum-capacity": "[memory=12288,vcores=6]"})
	for _, tc := range []struct {
		profile config.Profile
		max     resource.Resource
		warned  bool
	}{
		{config.Hadoop3, resource.New(40960, 40), true},
		{config.Hadoop34, resource.New(12288, 6), false},
	} {
		s, err := core.New(conf, tc.profile)
		require.NoError(t, err)
		require.Equal(t, tc.warned, len(s.Settings().Warnings) > 0, tc.profile)
		require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(40960, 40)}))
		q, err := s.Queue("root.a")
		require.NoError(t, err)
		require.Equal(t, tc.max, q.EffectiveMax, tc.profile)
	}
}

// TestApplicationLimitsWaitForResources: Hadoop 3.4's
// refreshAfterResourceCalculation gives every leaf the base maximum
// (10000) until the cluster has resources, then the base times its
// absolute capacity (root's children a=25%, then b absolute: the order
// Hadoop 3.4's legacy check lets pass).
func TestApplicationLimitsWaitForResources(t *testing.T) {
	p := config.Prefix + "root."
	conf := config.FromMap(map[string]string{p + "queues": "a,b", p + "a.capacity": "25",
		p + "b.capacity": "[memory=3072,vcores=3]"})
	s, err := core.New(conf, config.Hadoop34)
	require.NoError(t, err)
	for path, want := range map[string]int{"root.a": 10000, "root.b": 10000} {
		q, err := s.Queue(path)
		require.NoError(t, err)
		require.Equal(t, want, q.MaxApps, "%s: no resources yet", path)
	}
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(4096, 4)}))
	for path, want := range map[string]int{"root.a": 2500, "root.b": 7500} {
		q, err := s.Queue(path)
		require.NoError(t, err)
		require.Equal(t, want, q.MaxApps, path)
	}
}
