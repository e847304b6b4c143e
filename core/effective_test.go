package core_test

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

const gb = 1024

func absRes(mem, vc int) string {
	return "[memory=" + strconv.Itoa(mem) + ",vcores=" + strconv.Itoa(vc) + "]"
}

// absoluteConf is TestAbsoluteResourceConfiguration's configuration:
// setupSimpleQueueConfiguration(false) with setupMinMaxResourceConfiguration,
// or, complex, setupComplexQueueConfiguration(false) with
// setupComplexMinMaxResourceConfig.
func absoluteConf(complex bool) *config.Conf {
	p := config.Prefix + "root."
	m := map[string]string{
		p + "queues":          "queueA,queueB,queueC",
		p + "queueA.capacity": absRes(100*gb, 10), p + "queueA.maximum-capacity": absRes(200*gb, 30),
		p + "queueB.capacity": absRes(50*gb, 10), p + "queueB.maximum-capacity": absRes(150*gb, 30),
		p + "queueC.capacity": absRes(50*gb, 10), p + "queueC.maximum-capacity": absRes(150*gb, 20),
	}
	if complex {
		m[p+"queueA.queues"] = "queueA1,queueA2"
		m[p+"queueB.queues"] = "queueB1"
		m[p+"queueA.queueA1.capacity"] = absRes(50*gb, 5)
		m[p+"queueA.queueA2.capacity"] = absRes(50*gb, 5)
		m[p+"queueB.queueB1.capacity"] = absRes(40*gb, 10)
	}
	return config.FromMap(m)
}

// TestAbsoluteEffectiveResources holds the effective resources and the
// derived capacities of TestAbsoluteResourceConfiguration
// (ParentQueue.calculateEffectiveResourcesAndCapacity and
// deriveCapacityFromAbsoluteConfigurations), as nodes come and go, under
// Hadoop 3.3 and, the same numbers, Hadoop 3.4 (ResourceCalculationDriver).
func TestAbsoluteEffectiveResources(t *testing.T) {
	type want struct {
		min, max      resource.Resource
		abs, absMax   float64 // Hadoop's test asserts them within 0.001
		checkCapacity bool
	}
	node := func(name string) core.NodeSpec {
		return core.NodeSpec{Name: name, Rack: "/r", Capacity: resource.New(125*gb, 20)}
	}
	aMin, aMax := resource.New(100*gb, 10), resource.New(200*gb, 30)
	bMin, bMax := resource.New(50*gb, 10), resource.New(150*gb, 30)
	cMin, cMax := resource.New(50*gb, 10), resource.New(150*gb, 20)
	a1Min, a2Min, b1Min := resource.New(50*gb, 5), resource.New(50*gb, 5), resource.New(40*gb, 10)
	tests := []struct {
		name    string
		complex bool
		add     int    // nodes of 125 GB and 20 vcores
		remove  string // then removed
		want    map[string]want
	}{
		// testEffectiveMinMaxResourceConfigurartionPerQueue: one node of 250 GB, 40 vcores.
		{"the configured resources fit", false, -1, "", map[string]want{
			"root.queueA": {min: aMin, max: aMax}, "root.queueB": {min: bMin, max: bMax}, "root.queueC": {min: cMin, max: cMax}}},
		// testEffectiveResourceAfterReducingClusterResource.
		{"a node lost scales the minimums down", false, 2, "n0", map[string]want{
			"root.queueA": {min: resource.New(64000, 6), max: resource.New(128000, 20)},
			"root.queueB": {min: resource.New(32000, 6), max: resource.New(128000, 20)},
			"root.queueC": {min: resource.New(32000, 6), max: resource.New(128000, 20)}}},
		// testEffectiveResourceAfterIncreasingClusterResource, two nodes.
		{"two nodes", true, 2, "", map[string]want{
			"root.queueA":         {min: aMin, max: aMax, abs: 0.4, absMax: 0.8, checkCapacity: true},
			"root.queueB":         {min: bMin, max: bMax, abs: 0.2, absMax: 0.6, checkCapacity: true},
			"root.queueC":         {min: cMin, max: cMax, abs: 0.2, absMax: 0.6, checkCapacity: true},
			"root.queueA.queueA1": {min: a1Min, max: aMax, abs: 0.2, absMax: 0.8, checkCapacity: true},
			"root.queueA.queueA2": {min: a2Min, max: aMax, abs: 0.2, absMax: 0.8, checkCapacity: true},
			"root.queueB.queueB1": {min: b1Min, max: bMax, abs: 0.16, absMax: 0.6, checkCapacity: true}}},
		// ... and a third: the resources stay, the capacities shrink.
		{"a third node", true, 3, "", map[string]want{
			"root.queueA":         {min: aMin, max: aMax, abs: 0.266, absMax: 0.533, checkCapacity: true},
			"root.queueB":         {min: bMin, max: bMax, abs: 0.133, absMax: 0.4, checkCapacity: true},
			"root.queueC":         {min: cMin, max: cMax, abs: 0.133, absMax: 0.4, checkCapacity: true},
			"root.queueA.queueA1": {min: a1Min, max: aMax, abs: 0.133, absMax: 0.533, checkCapacity: true},
			"root.queueA.queueA2": {min: a2Min, max: aMax, abs: 0.133, absMax: 0.533, checkCapacity: true},
			"root.queueB.queueB1": {min: b1Min, max: bMax, abs: 0.106, absMax: 0.4, checkCapacity: true}}},
	}
	for _, tc := range tests {
		for _, profile := range []config.Profile{config.Hadoop3, config.Hadoop34} {
			t.Run(tc.name+"/"+string(profile), func(t *testing.T) {
				s, err := core.New(absoluteConf(tc.complex), profile)
				require.NoError(t, err)
				if tc.add < 0 {
					require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(250*gb, 40)}))
				}
				for i := 0; i < tc.add; i++ {
					require.NoError(t, s.AddNode(node("n"+strconv.Itoa(i))))
				}
				if tc.remove != "" {
					require.NoError(t, s.RemoveNode(tc.remove))
				}
				for path, w := range tc.want {
					q, err := s.Queue(path)
					require.NoError(t, err)
					require.Equal(t, w.min, q.EffectiveMin, path)
					require.Equal(t, w.max, q.EffectiveMax, path)
					if w.checkCapacity {
						require.InDelta(t, w.abs, q.AbsCapacity, 0.001, path)
						require.InDelta(t, w.absMax, q.AbsMaxCapacity, 0.001, path)
					}
				}
			})
		}
	}
}

// TestAbsoluteDerivedLimits: an absolute leaf's capacity is its effective
// minimum over its parent's (a float division), and its application
// limits follow the derived absolute capacity
// (deriveCapacityFromAbsoluteConfigurations).
func TestAbsoluteDerivedLimits(t *testing.T) {
	p := config.Prefix + "root."
	c := config.FromMap(map[string]string{
		p + "queues": "a,b", p + "a.capacity": absRes(3000, 3), p + "b.capacity": "50",
		p + "a.minimum-user-limit-percent": "50", p + "a.user-limit-factor": "2",
	})
	s, err := core.New(c, config.Hadoop3)
	require.NoError(t, err)
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(10000, 10)}))
	a, err := s.Queue("root.a")
	require.NoError(t, err)
	require.Equal(t, float32(3000)/float32(10000), a.Capacity)
	require.Equal(t, float32(1), a.MaxCapacity, "no maximum: the parent's (the cluster)")
	require.Equal(t, resource.New(3000, 3), a.EffectiveMin)
	require.Equal(t, resource.New(10000, 10), a.EffectiveMax)
	b, err := s.Queue("root.b")
	require.NoError(t, err)
	require.Equal(t, resource.New(5000, 5), b.EffectiveMin, "a percentage sibling is the cluster times its share")
	// (int) (10000 * 0.3f) = 3000 applications; (int) (3000 * 0.5f * 2f) = 3000 per user.
	require.Equal(t, 3000, a.MaxApps)
	require.Equal(t, 3000, a.MaxAppsPerUser)
}

// Before the first node registers, an absolute queue's capacities are
// Hadoop's x/0 (Infinity), kept finite so that the views encode; the
// queue still accepts applications ((int) Infinity is Integer.MAX_VALUE).
func TestAbsoluteEmptyCluster(t *testing.T) {
	s, err := core.New(absoluteConf(true), config.Hadoop3)
	require.NoError(t, err)
	a, err := s.Queue("root.queueA.queueA1")
	require.NoError(t, err)
	require.Equal(t, float32(math.MaxFloat32), a.AbsCapacity)
	require.Equal(t, math.MaxInt32, a.MaxApps)
	_, err = json.Marshal(s.Queues())
	require.NoError(t, err)
	require.NoError(t, s.Submit(core.Submission{App: "app1", User: "u", Queue: "queueA1"}))
}

// A refresh compares resources against the live cluster, where start-up
// has none: under the dominant calculator a parent's minimum of
// <50000, 5> is not below its children's <60000, 2> type by type, but its
// dominant share (0.5) is below theirs (0.6) once the cluster is
// <100000, 10> (ParentQueue.setChildQueues).
func TestAbsoluteRefreshComparesWithTheCluster(t *testing.T) {
	p := config.Prefix + "root."
	c := config.FromMap(map[string]string{
		config.Prefix + "resource-calculator": "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
		p + "queues":                          "a,b", p + "a.queues": "a1,a2",
		p + "a.capacity": absRes(50000, 5), p + "b.capacity": absRes(10000, 1),
		p + "a.a1.capacity": absRes(30000, 1), p + "a.a2.capacity": absRes(30000, 1),
	})
	s, err := core.New(c, config.Hadoop3)
	require.NoError(t, err, "at start-up the cluster is none")
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n0", Rack: "/r", Capacity: resource.New(100000, 10)}))
	err = s.Refresh(c)
	require.EqualError(t, err, "Failed to re-init queues : Parent Queues capacity: <memory:50000, vCores:5> "+
		"is less than to its children:<memory:60000, vCores:2> for queue:a")
}
