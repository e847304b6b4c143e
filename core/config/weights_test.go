package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// weightConf is a configuration of root's children and any other
// properties, as key-value pairs (keys relative to yarn.scheduler.capacity.root.).
func weightConf(kv ...string) *Conf {
	c := New()
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(Prefix+"root."+kv[i], kv[i+1])
	}
	return c
}

// TestWeightCapacities holds the absolute capacities Hadoop 3.4 gives
// weighted queues: weight over the sum of the siblings' weights, times
// the parent's (TestCapacitySchedulerWeightMode).
func TestWeightCapacities(t *testing.T) {
	tests := []struct {
		name string
		conf *Conf
		abs  map[string]float32 // path -> absolute capacity
		norm map[string]float32 // path -> normalized weight
	}{
		// testZeroWeightAndZeroPercentSiblingsAccepted: a 0% queue is no
		// percentage, a 0w queue has weight 0.
		{"zero weight and zero percent siblings", weightConf("queues", "a,b,c,d",
			"a.capacity", "0", "b.capacity", "2w", "c.capacity", "1w", "d.capacity", "0w"),
			map[string]float32{"root.a": 0, "root.b": 2.0 / 3, "root.c": 1.0 / 3, "root.d": 0},
			map[string]float32{"root.b": 2.0 / 3, "root.c": 1.0 / 3, "root.d": 0}},
		// testQueueInfoWeight.
		{"weights 1, 2, 3", weightConf("queues", "a,b,default", "a.capacity", "1w", "b.capacity", "2w", "default.capacity", "3w"),
			map[string]float32{"root.a": 1.0 / 6, "root.b": 2.0 / 6, "root.default": 3.0 / 6}, nil},
		// getCSConfWithQueueLabelsWeightOnly, default partition.
		{"weights only", weightConf("queues", "a,b", "a.capacity", "1w", "a.maximum-capacity", "10", "b.capacity", "9w",
			"a.queues", "a1", "a.a1.capacity", "100w", "b.queues", "b1,b2",
			"b.b1.capacity", "50w", "b.b1.maximum-capacity", "50", "b.b2.capacity", "50w", "b.b2.maximum-capacity", "50"),
			map[string]float32{"root.a": 0.1, "root.b": 0.9, "root.a.a1": 0.1, "root.b.b1": 0.45, "root.b.b2": 0.45},
			map[string]float32{"root.a.a1": 1, "root.b.b1": 0.5}},
		// getCSConfWithLabelsParentUseWeightChildUsePct.
		{"weighted parents, percentage children", weightConf("queues", "a,b", "a.capacity", "1w", "b.capacity", "9w",
			"a.queues", "a1", "a.a1.capacity", "100", "b.queues", "b1,b2", "b.b1.capacity", "50", "b.b2.capacity", "50"),
			map[string]float32{"root.a.a1": 0.1, "root.b.b1": 0.45, "root.b.b2": 0.45}, nil},
		// getCSConfWithLabelsParentUsePctChildUseWeight.
		{"percentage parents, weighted children", weightConf("queues", "a,b", "a.capacity", "10", "b.capacity", "90",
			"a.queues", "a1", "a.a1.capacity", "1w", "b.queues", "b1,b2", "b.b1.capacity", "1w", "b.b2.capacity", "1w"),
			map[string]float32{"root.a.a1": 0.1, "root.b.b1": 0.45, "root.b.b2": 0.45}, nil},
		// -1 is "not set": the queue is a 0% queue.
		{"-1w is not set", weightConf("queues", "a,b", "a.capacity", "-1w", "b.capacity", "100"),
			map[string]float32{"root.a": 0, "root.b": 1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parsed, err := Parse(tc.conf, Hadoop34)
			require.NoError(t, err)
			for path, want := range tc.abs {
				require.InDelta(t, want, parsed.Queue(path).AbsCapacity, 1e-6, path)
			}
			for path, want := range tc.norm {
				q := parsed.Queue(path)
				require.InDelta(t, want, q.NormalizedWeight, 1e-6, path)
				require.True(t, q.Weighted, path)
				require.Zero(t, q.Capacity, "a weight's percentage is 0, as Hadoop's getCapacity")
			}
		})
	}
}

// TestWeightLimits: a weighted leaf's application limits follow its
// absolute capacity (AbstractLeafQueue.updateMaximumApplications), and a
// weight changes nothing under hadoop-3.3 trees without weights.
func TestWeightLimits(t *testing.T) {
	parsed, err := Parse(weightConf("queues", "a,b", "a.capacity", "1w", "b.capacity", "3w",
		"b.user-limit-factor", "2", "b.minimum-user-limit-percent", "50"), Hadoop34)
	require.NoError(t, err)
	require.Equal(t, 2500, parsed.Queue("root.a").MaxApplications, "(int) (10000 * 0.25f)")
	require.Equal(t, 7500, parsed.Queue("root.b").MaxApplications)
	require.Equal(t, 7500, parsed.Queue("root.b").MaxApplicationsPerUser, "min(7500, 7500 * 0.5 * 2)")

	// Without weights the hadoop-3.4 tree is hadoop-3.3's.
	c := weightConf("queues", "a,b", "a.capacity", "30", "b.capacity", "70", "b.queues", "b1", "b.b1.capacity", "100")
	p33, err := Parse(c, Hadoop3)
	require.NoError(t, err)
	p34, err := Parse(c, Hadoop34)
	require.NoError(t, err)
	for _, q := range p33.Queues() {
		require.Equal(t, *q, *p34.Queue(q.Path), q.Path)
	}
}

// TestWeightRefusals holds Hadoop 3.4's refusals with weights, in legacy
// queue mode (the default), with TestCapacitySchedulerWeightMode's
// messages, and what hadoop-3.3 and hadoop-2 make of a weight.
func TestWeightRefusals(t *testing.T) {
	const mixed = "Parent queue 'root' have children queue used mixed of  weight mode, percentage and absolute mode, " +
		"it is not allowed, please double check, details:"
	p := Prefix + "root."
	tests := []struct {
		name    string
		conf    *Conf
		profile Profile
		prop    string
		message string // "" when accepted
		notSim  bool
	}{
		{"weights", weightConf("queues", "a,b", "a.capacity", "2w", "b.capacity", "3w"), Hadoop34, "", "", false},
		// testSiblingsMixingWeightAndPercentageRejected: the percentage
		// flag is not reset per queue.
		{"weight and percentage siblings", weightConf("queues", "a,b", "a.capacity", "50", "b.capacity", "1w"), Hadoop34,
			p + "queues", mixed + "{Queue=root.a, label= uses percentage mode}. {Queue=root.b, label= uses weight mode}. " +
				"{Queue=root.b, label= uses percentage mode}. ", false},
		// testAbsoluteAndPercentageSiblingsDependOnDeclarationOrder.
		{"absolute, then percentage", weightConf("queues", "a,b", "a.capacity", "[memory=1024,vcores=1]", "b.capacity", "50"), Hadoop34,
			p + "queues", mixed + "{Queue=root.a, label= uses absolute mode}. {Queue=root.b, label= uses percentage mode}. ", false},
		{"percentage, then absolute", weightConf("queues", "b,a", "a.capacity", "[memory=1024,vcores=1]", "b.capacity", "50"), Hadoop34,
			"", "", false},
		{"weight and absolute siblings", weightConf("queues", "a,b", "a.capacity", "[memory=1024,vcores=1]", "b.capacity", "1w"), Hadoop34,
			p + "queues", mixed + "{Queue=root.a, label= uses absolute mode}. {Queue=root.b, label= uses weight mode}. ", false},
		// testWeightAbove10000Rejected.
		{"a weight above 10000", weightConf("queues", "a,b", "a.capacity", "20000w", "b.capacity", "1w"), Hadoop34,
			p + "a.capacity", "Illegal weight=20000.0 for queue=root.alabel=. Acceptable values: [0, 10000], -1 is same as not set", false},
		{"a negative weight", weightConf("queues", "a", "a.capacity", "-2w"), Hadoop34,
			p + "a.capacity", "Illegal weight=-2.0 for queue=root.alabel=. Acceptable values: [0, 10000], -1 is same as not set", false},
		{"an infinite weight", weightConf("queues", "a", "a.capacity", "Infinityw"), Hadoop34,
			p + "a.capacity", "Illegal weight=Infinity for queue=root.alabel=. Acceptable values: [0, 10000], -1 is same as not set", false},
		{"a weight that is no number", weightConf("queues", "a", "a.capacity", "twow"), Hadoop34, p + "a.capacity",
			`Invalid float value "twow" for yarn.scheduler.capacity.root.a.capacity (queue root.a): java.lang.NumberFormatException: For input string: "t"`, false},
		{"a NaN weight", weightConf("queues", "a", "a.capacity", "NaNw"), Hadoop34, p + "a.capacity",
			`Invalid weight "NaNw" for yarn.scheduler.capacity.root.a.capacity (queue root.a): NaN is not accepted`, true},
		{"a weight as maximum capacity", weightConf("queues", "a", "a.capacity", "1w", "a.maximum-capacity", "2w"), Hadoop34, p + "a.maximum-capacity",
			`Invalid float value "2w" for yarn.scheduler.capacity.root.a.maximum-capacity (queue root.a): java.lang.NumberFormatException: For input string: "2w"`, false},
		// A weighted parent's percentage children sum to 1 or 0.
		{"percentage children of a weight", weightConf("queues", "a", "a.capacity", "1w", "a.queues", "x,y", "a.x.capacity", "50", "a.y.capacity", "40"),
			Hadoop34, p + "a.queues", "Illegal capacity sum of 0.9 for children of queue a for label=. It should be either 0 or 1.0", false},
		{"0% children of a weight", weightConf("queues", "a", "a.capacity", "1w", "a.queues", "x,y", "a.x.capacity", "0", "a.y.capacity", "0"),
			Hadoop34, "", "", false},
		// ParentQueue.setChildQueues' sums under hadoop-3.4.
		{"percentages short of 100", weightConf("queues", "a,b", "a.capacity", "50", "b.capacity", "40"), Hadoop34,
			p + "queues", "Illegal capacity sum of 0.9 for children of queue root for label=. It should be either 0 or 1.0", false},
		{"0% children of a 50% parent", weightConf("queues", "a,b", "a.capacity", "50", "b.capacity", "50", "a.queues", "x", "a.x.capacity", "0"),
			Hadoop34, p + "a.queues", "Illegal capacity sum of 0.0 for children of queue a for label=. It is set to 0, " +
				"but parent percent != 0, and doesn't allow children capacity to set to 0", false},
		{"allow-zero-capacity-sum", weightConf("queues", "a,b", "a.capacity", "50", "b.capacity", "50", "a.queues", "x", "a.x.capacity", "0",
			"a.allow-zero-capacity-sum", "true"), Hadoop34, "", "", false},
		{"children of a 0% parent", weightConf("queues", "a,b", "a.capacity", "0", "b.capacity", "100", "a.queues", "x", "a.x.capacity", "100"),
			Hadoop34, p + "a.queues", "Illegal capacity sum of 1.0 for children of queue a for label=. queue=a has zero capacity, " +
				"but childqueues have positive capacities", false},
		{"a percentage parent of absolute children", weightConf("queues", "a,b", "a.capacity", "50", "b.capacity", "50",
			"a.queues", "x", "a.x.capacity", "[memory=1024,vcores=1]"), Hadoop34, p + "a.queues",
			"Parent=root.a: When absolute minResource is used, we must make sure both parent and child all use absolute minResource", false},
		{"a capacity vector", weightConf("queues", "a", "a.capacity", "[memory=50%, vcores=2w]"), Hadoop34, p + "a.capacity",
			`yarn.scheduler.capacity.root.a.capacity="[memory=50%, vcores=2w]" mixes units inside one queue's capacity ` +
				`(Hadoop 3.4's capacity vector): this form is not simulated by yarnplay; give queue root.a one percentage, ` +
				`weight ("2w") or resource ("[memory=4096,vcores=4]")`, true},
		// Hadoop 3.3 and 2 read a capacity with Float.parseFloat.
		{"hadoop-3.3 has no weights", weightConf("queues", "a,b", "a.capacity", "2w", "b.capacity", "3w"), Hadoop3, p + "a.capacity",
			`Invalid float value "2w" for yarn.scheduler.capacity.root.a.capacity (queue root.a): java.lang.NumberFormatException: ` +
				`For input string: "2w" (weights such as 2w came with Hadoop 3.4: use the hadoop-3.4 profile, or give queue root.a a percentage)`, false},
		{"hadoop-2 has no weights", weightConf("queues", "a", "a.capacity", "1w"), Hadoop2, p + "a.capacity",
			`Invalid float value "1w" for yarn.scheduler.capacity.root.a.capacity (queue root.a): java.lang.NumberFormatException: ` +
				`For input string: "1w" (weights such as 2w came with Hadoop 3.4: use the hadoop-3.4 profile, or give queue root.a a percentage)`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.conf, tc.profile)
			if tc.message == "" {
				require.NoError(t, err)
				return
			}
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.message, e.Message)
			require.Equal(t, tc.prop, e.Property)
			require.Equal(t, tc.notSim, e.NotSimulated)
		})
	}
}

// TestLegacyQueueMode: with legacy-queue-mode.enabled=false Hadoop 3.4
// lets siblings mix percentages, resources and weights and checks no sums
// (setChildQueues checks nothing); an unreadable value is the default,
// true (testLegacyQueueModeDefaultsToTrue); hadoop-3.3 ignores the
// property.
func TestLegacyQueueMode(t *testing.T) {
	c := weightConf("queues", "a,b,c", "a.capacity", "[memory=10240,vcores=10]", "b.capacity", "50", "c.capacity", "2w",
		"b.queues", "b1,b2", "b.b1.capacity", "70", "b.b2.capacity", "70")
	_, err := Parse(c, Hadoop34)
	require.ErrorContains(t, err, "Illegal capacity sum of 1.4 for children of queue b", "b's children are checked first")
	c.Set(Prefix+"root.b.b2.capacity", "30")
	_, err = Parse(c, Hadoop34)
	require.ErrorContains(t, err, "have children queue used mixed of  weight mode, percentage and absolute mode")
	c.Set(Prefix+"root.b.b2.capacity", "70")
	c.Set(KeyLegacyQueueMode, "false")
	parsed, err := Parse(c, Hadoop34)
	require.NoError(t, err)
	require.True(t, parsed.Settings.MixedQueueMode)
	for _, v := range []string{"true", "junk", ""} {
		c.Set(KeyLegacyQueueMode, v)
		_, err := Parse(c, Hadoop34)
		require.Error(t, err, v)
	}
	c = weightConf("queues", "a", "a.capacity", "100")
	c.Set(KeyLegacyQueueMode, "false")
	parsed, err = Parse(c, Hadoop3)
	require.NoError(t, err)
	require.False(t, parsed.Settings.MixedQueueMode)
	require.Empty(t, parsed.Settings.Warnings, "a known property")
}

// TestWeightXMLRoundTrip: the XML export writes weights as written, and
// Hadoop's reading of the export is the same queues.
func TestWeightXMLRoundTrip(t *testing.T) {
	c := weightConf("queues", "a,b", "a.capacity", "2w", "b.capacity", "3.5w", "b.queues", "x", "b.x.capacity", "1w")
	require.Contains(t, string(c.XML()), "<value>3.5w</value>")
	x, err := ParseXML(c.XML())
	require.NoError(t, err)
	want, err := Parse(c, Hadoop34)
	require.NoError(t, err)
	got, err := Parse(x, Hadoop34)
	require.NoError(t, err)
	for _, q := range want.Queues() {
		g := got.Queue(q.Path)
		require.Equal(t, q.Weight, g.Weight, q.Path)
		require.Equal(t, q.NormalizedWeight, g.NormalizedWeight, q.Path)
		require.Equal(t, q.AbsCapacity, g.AbsCapacity, q.Path)
	}
	require.InDelta(t, float32(2)/5.5, got.Queue("root.a").AbsCapacity, 1e-6)
	require.Equal(t, resource.None, got.Queue("root.a").MinResource)
}

// FuzzWeight parses two siblings with fuzzed capacities under hadoop-3.4:
// Parse never panics and refuses with an *Error, and an accepted tree's
// normalized weights are in [0, 1], sum to 1 when any is positive, and
// give finite absolute capacities.
func FuzzWeight(f *testing.F) {
	for _, s := range [][2]string{{"2w", "3w"}, {"0w", "0w"}, {"-1w", "100"}, {"1e4w", "1e-4w"}, {"NaNw", "1w"},
		{" 2w", "3 w"}, {"w", "ww"}, {"[memory=1024]", "1w"}, {"50", "50"}, {"[memory=50%]", "50"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		parsed, err := Parse(weightConf("queues", "a,b", "a.capacity", a, "b.capacity", b), Hadoop34)
		if err != nil {
			requireConfigError(t, err)
			return
		}
		var sum float32
		for _, q := range parsed.Queues() {
			if q.NormalizedWeight < 0 || q.NormalizedWeight > 1 {
				t.Fatalf("%s: normalized weight %v", q.Path, q.NormalizedWeight)
			}
			if math.IsNaN(float64(q.AbsCapacity)) || math.IsInf(float64(q.AbsCapacity), 0) {
				t.Fatalf("%s: absolute capacity %v", q.Path, q.AbsCapacity)
			}
			if q.Parent != nil && q.Weighted {
				sum += q.NormalizedWeight
			}
		}
		if sum != 0 && math.Abs(float64(sum)-1) > 1e-5 {
			t.Fatalf("normalized weights sum to %v", sum)
		}
	})
}
